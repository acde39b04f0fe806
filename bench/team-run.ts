/**
 * npm run bench:team [-- --clients 1,4,16] [--memories 1000] [--batch 100] [--no-fsync] [--sealed] [--json]
 *                      [--server-prof DIR] [--pg-stats]
 *
 * `--pg-stats`: PostgreSQL loads pg_stat_statements (every statement, those inside functions too); after
 * each scale's push, the statements that took the most execution time, and PostgreSQL's CPU split by
 * process (the server's connections, the WAL writer, the checkpointer, autovacuum, children that ended).
 *
 * `--server-prof DIR`: the server process runs under node's own profiler (`--cpu-prof`), one
 * `.cpuprofile` per scale written into DIR as it stops (open it in Chrome's DevTools).
 *
 * `--sealed`: an end-to-end encrypted project — each client seals its records (AES-256-GCM,
 * src/team/record-seal.ts) just before pushing them, so the clients' CPU includes the sealing and the
 * server stores and serves the (larger) sealed bodies.
 *
 * Load on one team server: N clients (each its own user and token, all writers of one project) push
 * M memories each in batches, all at once; then every client pulls the whole project from cursor 0,
 * all at once. Reports push and pull throughput (records/s), request latency p50/p95, and the server
 * process's RSS (VmRSS from /proc, after each phase and at its peak), per scale, so growth shows side
 * by side. The server is the real `engram server start --db …` in its own process; PostgreSQL is an
 * embedded one in a temporary directory (fsync on, as in production); a fresh database per scale.
 * Clients run in this process: on a small machine they share the CPU with the server (noted).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { fmt, quantile } from './lib/stats.ts';
import { createMemoryLogger } from '../src/core/ports.ts';
import { freePort, startEmbeddedPostgres } from '../src/team/embedded-postgres.ts';
import { createTeamApi, type TeamApi } from '../src/team/api-client.ts';
import type { PushRecord } from '../src/team/protocol.ts';
import { recordHash } from '../src/team/record-hash.ts';
import { newKey, seal, type Keyring } from '../src/team/record-seal.ts';
import { memoryRecord } from '../src/team/records.test-support.ts';

const args = process.argv.slice(2);
const opt = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] ? (args[i + 1] as string) : fallback;
};
const CLIENTS = opt('clients', '1,4,16').split(',').map(Number);
const MEMORIES = Number(opt('memories', '1000'));
const BATCH = Number(opt('batch', '100'));
const JSON_OUT = args.includes('--json');
/** PostgreSQL without fsync: shows how much of the time is waiting for the disk. */
const NO_FSYNC = args.includes('--no-fsync');
const SEALED = args.includes('--sealed');
/** Where the server's CPU profiles go (node --cpu-prof), one per scale; none without it. */
const SERVER_PROF = opt('server-prof', '');
/** pg_stat_statements and a CPU split by PostgreSQL process, printed per scale (to stderr). */
const PG_STATS = args.includes('--pg-stats');

/** A record as a client of an end-to-end encrypted project pushes it. */
function sealed(rec: PushRecord, ring: Keyring): PushRecord {
  const body = seal(ring, { project: ring.projectId, kind: rec.kind, id: rec.id }, rec.body);
  return { ...rec, body, hash: recordHash(rec.kind, rec.id, false, body) };
}
const ROOT = join(import.meta.dirname, '..'); // run.mjs defines it as bench/

const WORDS =
  'cache retry webhook backoff config parser lexer schema migration index query worker queue session summary lockfile build test deploy release'.split(
    ' ',
  );
const word = (i: number) => WORDS[i % WORDS.length] as string;

function memory(client: number, i: number): PushRecord {
  return memoryRecord(
    `obs_c${client}_${String(i).padStart(6, '0')}`,
    `${word(i)} ${word(i * 7)}: ${word(i * 3)} handling in src/${word(i * 5)}/${word(i)}.ts`,
    {
      type: ['decision', 'bugfix', 'feature', 'fact'][i % 4] as string,
      narrative:
        `Changed how ${word(i)} interacts with ${word(i * 11)}; ${word(i * 13)} now retries ${i % 5} times before failing. `.repeat(
          3,
        ),
      facts: [
        `src/${word(i)}.ts: changed ${word(i * 2)}()`,
        `tests passed: ${i % 40} of 40`,
        `${word(i * 17)} ${word(i * 19)}`,
      ],
      concepts: [word(i), word(i * 23)],
      filesRead: [`src/${word(i * 29)}.ts`],
      filesModified: [`src/${word(i)}.ts`, `src/${word(i * 31)}/index.ts`],
      sessionId: `session-${client}-${Math.floor(i / 20)}`,
      createdAt: 1_790_000_000_000 + i * 1000,
    },
  );
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

/** CPU seconds (user + system) a process has used, from /proc (0 once it is gone). */
function cpuSeconds(pid: number): number {
  try {
    // Fields after the command name: state is the 3rd, utime the 14th, stime the 15th.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ').at(-1)?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/** CPU seconds used so far by the embedded PostgreSQL: its postmaster and every backend of it. */
function postgresCpuSeconds(): number {
  const postmaster = Number(readFileSync(join(dir, 'pgdata', 'postmaster.pid'), 'utf8').split('\n')[0]);
  let total = cpuSeconds(postmaster);
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const ppid = Number(readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ').at(-1)?.split(' ')[1]);
      if (ppid === postmaster) total += cpuSeconds(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return total;
}

/** CPU seconds per kind of PostgreSQL process (its title), and what the postmaster's ended children used. */
function postgresCpuByProcess(): Map<string, number> {
  const postmaster = Number(readFileSync(join(dir, 'pgdata', 'postmaster.pid'), 'utf8').split('\n')[0]);
  const byKind = new Map<string, number>();
  const add = (kind: string, s: number) => byKind.set(kind, (byKind.get(kind) ?? 0) + s);
  const stat = readFileSync(`/proc/${postmaster}/stat`, 'utf8').split(') ').at(-1)?.split(' ') ?? [];
  add('postmaster', cpuSeconds(postmaster));
  add('ended children', (Number(stat[13]) + Number(stat[14])) / 100);
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const ppid = Number(readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ').at(-1)?.split(' ')[1]);
      if (ppid !== postmaster) continue;
      const title = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
      const kind = / bench_\d+_\d+ /.test(title)
        ? 'connections'
        : (/^postgres: (?:\S+ )?(walwriter|checkpointer|background writer|autovacuum|walsummarizer|io worker|logical replication|startup)/.exec(
            title,
          )?.[1] ?? 'other');
      add(kind, cpuSeconds(Number(entry)));
    } catch {
      // gone meanwhile
    }
  }
  return byKind;
}

/**
 * Sample what database `db`'s client connections are doing (pg_stat_activity, asked from another
 * database every 2 ms: its backend is counted as "other" in the CPU split), until `stop()`: how many
 * samples found a connection in each state — running, waiting on a
 * lock (which: a row's transaction, an advisory lock …), flushing WAL, or idle in its transaction
 * waiting for the server (ClientRead) — and, for a lock wait, what the waiting statement was.
 */
function sampleWaits(baseUrl: string, db: string): { stop: () => Promise<string[]> } {
  const counts = new Map<string, number>();
  let samples = 0;
  let running = true;
  const client = new pg.Client({ connectionString: baseUrl });
  const done = (async () => {
    await client.connect();
    while (running) {
      const r = await client.query<{ state: string; wait: string | null; query: string }>(
        `SELECT state, wait_event_type || ':' || wait_event AS wait, query FROM pg_stat_activity
          WHERE datname = $1 AND backend_type = 'client backend' AND pid <> pg_backend_pid()`,
        [db],
      );
      samples++;
      for (const row of r.rows) {
        if (row.state === 'idle') continue;
        const what =
          row.wait?.startsWith('Lock:') === true
            ? `${row.state} ${row.wait} in ${row.query.replace(/\s+/g, ' ').slice(0, 60)}`
            : `${row.state} ${row.wait ?? 'on CPU'}`;
        counts.set(what, (counts.get(what) ?? 0) + 1);
      }
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    await client.end();
  })();
  return {
    stop: async () => {
      running = false;
      await done;
      const lines = [`-- pg_stat_activity: ${samples} samples, connections per sample in each state`];
      for (const [what, n] of [...counts].sort((a, b) => b[1] - a[1]))
        lines.push(`${fmt(n / samples, 2).padStart(7)}  ${what}`);
      return lines;
    },
  };
}

/** The statements that took the most time in database `db` since the last reset, and the CPU split. */
async function reportPgStats(
  baseUrl: string,
  db: string,
  n: number,
  before: Map<string, number>,
  waits: string[],
): Promise<void> {
  const after = postgresCpuByProcess();
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    const r = await admin.query<{
      calls: string;
      rows: string;
      total: number;
      plan: number;
      mean: number;
      query: string;
    }>(
      `SELECT s.calls, s.rows, s.total_exec_time AS total, s.total_plan_time AS plan,
              s.mean_exec_time AS mean, s.query
         FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid
        WHERE d.datname = $1 ORDER BY s.total_exec_time + s.total_plan_time DESC LIMIT 25`,
      [db],
    );
    const lines = [`-- pg_stat_statements after the push, ${n} clients (ms: total exec / plan, mean exec)`];
    for (const row of r.rows) {
      const q = row.query.replace(/\s+/g, ' ').slice(0, 150);
      lines.push(
        `${fmt(row.total, 0).padStart(7)} ${fmt(row.plan, 0).padStart(5)} ${fmt(row.mean, 3).padStart(8)}  ${String(row.calls).padStart(6)} calls ${String(row.rows).padStart(7)} rows  ${q}`,
      );
    }
    lines.push(`-- PostgreSQL CPU s during the push by process, ${n} clients`);
    for (const [kind, s] of after) {
      const used = s - (before.get(kind) ?? 0);
      if (used >= 0.005) lines.push(`${fmt(used, 2).padStart(7)}  ${kind}`);
    }
    lines.push(...waits);
    process.stderr.write(`${lines.join('\n')}\n`);
  } finally {
    await admin.end();
  }
}

async function startServer(
  db: string,
  dir: string,
): Promise<{ child: ChildProcess; url: string; token: string }> {
  const port = await freePort();
  const tokenFile = join(dir, `token-${port}-${Date.now()}`);
  const child = spawn(
    process.execPath,
    [
      ...(SERVER_PROF ? ['--cpu-prof', '--cpu-prof-dir', SERVER_PROF] : []),
      join(ROOT, 'bin', 'engram'),
      'server',
      'start',
      '--db',
      db,
      '--port',
      String(port),
      '--bootstrap-file',
      tokenFile,
    ],
    {
      // Warnings only: a log line per request would measure the log pipe, not the server.
      env: { PATH: process.env['PATH'], HOME: dir, ENGRAM_HOME: join(dir, 'home'), ENGRAM_LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) break;
    const ok = await fetch(`${url}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok && existsSync(tokenFile)) return { child, url, token: readFileSync(tokenFile, 'utf8').trim() };
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`the team server did not start: ${stderr}`);
}

interface ScaleResult {
  clients: number;
  memoriesPerClient: number;
  records: number;
  push: { seconds: number; recordsPerSec: number; p50Ms: number; p95Ms: number };
  pull: { seconds: number; recordsPerSec: number; p50Ms: number; p95Ms: number; delivered: number };
  /** The 1-minute load average when the scale started and when it ended (other work on the machine). */
  load: { start: number; end: number };
  serverRssMb: { idle: number; afterPush: number; afterPull: number; peak: number };
  /** CPU seconds spent during the push phase by the server process, PostgreSQL, and the clients. */
  pushCpu: { server: number; postgres: number; clients: number };
}

async function runScale(baseUrl: string, n: number, dir: string): Promise<ScaleResult> {
  const loadStart = loadavg()[0] as number;
  const dbName = `bench_${n}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
  await admin.end();
  const db = baseUrl.replace(/\/engram$/, `/${dbName}`);
  const server = await startServer(db, dir);
  const pid = server.child.pid as number;
  let peak = rssMb(pid);
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 50);
  try {
    const root = createTeamApi({ server: server.url, token: server.token, timeoutMs: 120_000 });
    const apis: TeamApi[] = [];
    let project = '';
    for (let c = 0; c < n; c++) {
      const { token } = await root.addUser({ name: `user${c}`, device: `box${c}` });
      project = (
        await root.grant({ user: `user${c}`, project: 'git@github.com:bench/app.git', role: 'writer' })
      ).project;
      apis.push(createTeamApi({ server: server.url, token, timeoutMs: 120_000 }));
    }
    const idle = rssMb(pid);
    const ring: Keyring = { projectId: project, versions: [{ version: 1, key: newKey() }] };
    const pushLatency: number[] = [];
    let pgBefore = new Map<string, number>();
    let waits: ReturnType<typeof sampleWaits> | null = null;
    if (PG_STATS) {
      const admin = new pg.Client({ connectionString: baseUrl });
      await admin.connect();
      await admin.query('SELECT pg_stat_statements_reset()');
      await admin.end();
      pgBefore = postgresCpuByProcess();
      waits = sampleWaits(baseUrl, dbName);
    }
    const cpuBefore = {
      server: cpuSeconds(pid),
      postgres: postgresCpuSeconds(),
      clients: process.cpuUsage(),
    };
    let started = performance.now();
    await Promise.all(
      apis.map(async (api, c) => {
        for (let i = 0; i < MEMORIES; i += BATCH) {
          const records = Array.from({ length: Math.min(BATCH, MEMORIES - i) }, (_, k) => {
            const rec = memory(c, i + k);
            return SEALED ? sealed(rec, ring) : rec;
          });
          const t = performance.now();
          const res = await api.push(project, records);
          pushLatency.push(performance.now() - t);
          const refused = res.results.find((r) => r.status !== 'accepted');
          if (refused) throw new Error(`a push was not accepted: ${JSON.stringify(refused)}`);
        }
      }),
    );
    const pushSeconds = (performance.now() - started) / 1000;
    const clientCpu = process.cpuUsage(cpuBefore.clients);
    const pushCpu = {
      server: cpuSeconds(pid) - cpuBefore.server,
      postgres: postgresCpuSeconds() - cpuBefore.postgres,
      clients: (clientCpu.user + clientCpu.system) / 1e6,
    };
    const afterPush = rssMb(pid);
    const waitLines = (await waits?.stop()) ?? [];
    if (PG_STATS) await reportPgStats(baseUrl, dbName, n, pgBefore, waitLines);
    const pullLatency: number[] = [];
    let delivered = 0;
    started = performance.now();
    await Promise.all(
      apis.map(async (api) => {
        let cursor = 0;
        const ids = new Set<string>();
        let received = 0;
        for (;;) {
          const t = performance.now();
          const page = await api.pull(project, cursor, 500);
          pullLatency.push(performance.now() - t);
          delivered += page.records.length;
          received += page.records.length;
          for (const r of page.records) ids.add(r.id);
          cursor = page.records.at(-1)?.seq ?? cursor;
          if (!page.more) break;
        }
        // Every row exactly once: as many as were pushed, none twice.
        if (received !== n * MEMORIES || ids.size !== received)
          throw new Error(`a puller received ${received} rows, ${ids.size} distinct, of ${n * MEMORIES}`);
      }),
    );
    const pullSeconds = (performance.now() - started) / 1000;
    const records = n * MEMORIES;
    if (delivered !== records * n) throw new Error(`pulled ${delivered}, expected ${records * n}`);
    return {
      clients: n,
      memoriesPerClient: MEMORIES,
      records,
      push: {
        seconds: pushSeconds,
        recordsPerSec: records / pushSeconds,
        p50Ms: quantile(pushLatency, 0.5),
        p95Ms: quantile(pushLatency, 0.95),
      },
      pull: {
        seconds: pullSeconds,
        recordsPerSec: delivered / pullSeconds,
        p50Ms: quantile(pullLatency, 0.5),
        p95Ms: quantile(pullLatency, 0.95),
        delivered,
      },
      serverRssMb: { idle, afterPush, afterPull: rssMb(pid), peak: Math.max(peak, rssMb(pid)) },
      load: { start: loadStart, end: loadavg()[0] as number },
      pushCpu,
    };
  } finally {
    clearInterval(sampler);
    server.child.kill('SIGTERM');
    await new Promise((r) => server.child.once('exit', r));
  }
}

const dir = mkdtempSync(join(tmpdir(), 'engram-bench-team-'));
const postgres = await startEmbeddedPostgres(dir, createMemoryLogger(), {
  fast: NO_FSYNC,
  settings: PG_STATS ? ['shared_preload_libraries=pg_stat_statements', 'pg_stat_statements.track=all'] : [],
});
if (PG_STATS) {
  const admin = new pg.Client({ connectionString: postgres.url });
  await admin.connect();
  await admin.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
  await admin.end();
}
const results: ScaleResult[] = [];
try {
  for (const n of CLIENTS) results.push(await runScale(postgres.url, n, dir));
} finally {
  await postgres.stop();
  rmSync(dir, { recursive: true, force: true });
}

if (JSON_OUT) {
  process.stdout.write(
    `${JSON.stringify({ cpus: cpus().length, batch: BATCH, fsync: !NO_FSYNC, sealed: SEALED, results }, null, 2)}\n`,
  );
} else {
  const out: string[] = [
    `team server load: ${MEMORIES} memories per client${SEALED ? ' (sealed: an end-to-end encrypted project)' : ''}, pushed in batches of ${BATCH}, then every client pulls all (pages of 500)`,
    `${cpus().length} CPUs shared by the server, PostgreSQL (fsync ${NO_FSYNC ? 'off' : 'on'}) and the clients`,
    '',
    'every puller received every row exactly once (checked); load = 1-minute load average at start → end',
    '',
    'clients  records | push rec/s  p50 ms  p95 ms | push CPU s server/pg/clients | pull rec/s  p50 ms  p95 ms | server RSS MB idle → push → pull (peak) | load',
  ];
  for (const r of results) {
    out.push(
      `${String(r.clients).padStart(7)}  ${String(r.records).padStart(7)} | ${fmt(r.push.recordsPerSec, 0).padStart(10)}  ${fmt(r.push.p50Ms).padStart(6)}  ${fmt(r.push.p95Ms).padStart(6)} | ${`${fmt(r.pushCpu.server, 2)} / ${fmt(r.pushCpu.postgres, 2)} / ${fmt(r.pushCpu.clients, 2)}`.padStart(28)} | ${fmt(r.pull.recordsPerSec, 0).padStart(10)}  ${fmt(r.pull.p50Ms).padStart(6)}  ${fmt(r.pull.p95Ms).padStart(6)} | ${fmt(r.serverRssMb.idle, 0)} → ${fmt(r.serverRssMb.afterPush, 0)} → ${fmt(r.serverRssMb.afterPull, 0)} (${fmt(r.serverRssMb.peak, 0)}) | ${fmt(r.load.start)} → ${fmt(r.load.end)}`,
    );
  }
  const first = results[0];
  const last = results.at(-1);
  if (first && last && first !== last) {
    out.push(
      '',
      `growth ${first.clients} → ${last.clients} clients (${first.records} → ${last.records} records): push rec/s × ${fmt(last.push.recordsPerSec / first.push.recordsPerSec, 2)}, push p95 × ${fmt(last.push.p95Ms / first.push.p95Ms, 2)}, pull rec/s × ${fmt(last.pull.recordsPerSec / first.pull.recordsPerSec, 2)}, pull p95 × ${fmt(last.pull.p95Ms / first.pull.p95Ms, 2)}, peak RSS × ${fmt(last.serverRssMb.peak / first.serverRssMb.peak, 2)}`,
    );
  }
  process.stdout.write(`${out.join('\n')}\n`);
}
