/**
 * Every SQLite writer at once on one ENGRAM_HOME: context hooks (SessionStart, UserPromptSubmit) and
 * capture hooks of several sessions as real `dist/hook.cjs` processes, a running worker, `engram flush`
 * over and over, and two `engram backfill`s of the fixture transcripts, two of which the worker also
 * reads after the sessions' Stop. Nothing may be lost (every captured event ends distilled, none parked
 * or dropped), nothing done twice (no transcript range read twice: what was read matches one backfill
 * alone; no memory created twice), and no hook may wait past a generous bound (each exits 0; the
 * slowest is recorded). A writer that holds the database makes the context hooks wait their busy
 * timeout and then keep the event in the inbox, never lose it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSandbox, payloads, REPO_ROOT, type RunResult, type Sandbox } from '../support/sandbox.ts';

const FIXTURES = join(REPO_ROOT, 'test', 'fixtures', 'transcripts');
/** Far above what a hook costs (its busy timeout is 3 s), far below Claude Code's hook timeout. */
const HOOK_BOUND_MS = 10_000;

interface Status {
  queue: { inbox: number; rejected: number; pending: number; done: number; parked: number };
  hooks: { hook: string; count: number }[];
}

describe('concurrent SQLite writers on one ENGRAM_HOME', () => {
  let sb: Sandbox;
  let worker: ChildProcess | null = null;
  beforeEach(() => {
    sb = createSandbox();
  });
  afterEach(async () => {
    await stopWorker();
    sb.cleanup();
  });

  const status = () => JSON.parse(sb.engram(['status', '--json']).stdout) as Status;
  /** The hooks' log ('' while nothing was worth logging). */
  const hookLog = () => {
    const path = join(sb.engramHome, 'logs', 'hook.log');
    return existsSync(path) ? readFileSync(path, 'utf8') : '';
  };
  const hookCounts = () => Object.fromEntries(status().hooks.map((h) => [h.hook, h.count]));

  /** A hook process, timed from spawn to exit. */
  const timedHook = async (payload: unknown): Promise<RunResult & { ms: number }> => {
    const t = performance.now();
    const r = await sb.hookAsync(payload);
    return { ...r, ms: performance.now() - t };
  };

  /** `node dist/cli.mjs worker run` (what a hook starts), ready once `worker status` names its pid. */
  async function startWorker(): Promise<void> {
    const child = spawn(process.execPath, [join(REPO_ROOT, 'dist', 'cli.mjs'), 'worker', 'run'], {
      env: sb.env,
      stdio: 'ignore',
    });
    worker = child;
    for (;;) {
      const r = await sb.engramAsync(['worker', 'status', '--json']);
      if ((JSON.parse(r.stdout) as { pid: number | null }).pid === child.pid) return;
      if (child.exitCode !== null)
        throw new Error(`the worker exited (${child.exitCode}) before it was ready`);
    }
  }

  /** Stop the worker this test started, by its pid, and wait for it to exit. */
  async function stopWorker(): Promise<void> {
    const child = worker;
    worker = null;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }

  it('hooks, the worker, flush and backfill at once: nothing lost, nothing twice, no hook held up', async ({
    annotate,
  }) => {
    const root = join(sb.root, 'transcripts');
    cpSync(FIXTURES, join(root, '-fixtures'), { recursive: true });
    rmSync(join(root, '-fixtures', 'README.md'));
    // The reference: what reading these transcripts alone stores, range by range.
    const reference = createSandbox();
    let expected: TranscriptProgress;
    try {
      const alone = reference.engram(['backfill', '--from', root, '--json']);
      expect(alone.status, alone.stderr).toBe(0);
      expected = transcriptProgress(reference.engramHome, root);
    } finally {
      reference.cleanup();
    }
    expect(expected.files.size).toBeGreaterThanOrEqual(4);

    // The database exists (a first SessionStart creates it), and the worker runs.
    expect(sb.hook(payloads('warm-up', sb.project('warm-up')).start()).status).toBe(0);
    await startWorker();

    // Six sessions as Claude Code sends them, concurrently; each in order. Two name a fixture
    // transcript that backfill reads too, so the worker's read after Stop races with it.
    const shared = ['short.jsonl', 'tool_heavy.jsonl'].map((f) => join(root, '-fixtures', f));
    const session = async (i: number) => {
      const p = payloads(`busy-${i}`, sb.project(`busy-${i}`, `git@github.com:example/busy-${i}.git`));
      const transcript = shared[i] ? { transcript_path: shared[i] } : {};
      const events = [
        p.start(),
        p.prompt(`Make the retry queue ${i} durable across restarts`),
        p.tool('Edit', { file_path: `src/queue-${i}.ts`, old_string: 'a', new_string: 'b' }, {}),
        p.tool('Bash', { command: 'npm test' }, { stdout: `${i} passed\n`, stderr: '' }),
        p.failure('Bash', { command: 'npm run lint' }, `lint ${i} failed`),
        p.stop(`Queue ${i} is durable now.`),
      ].map((e) => ({ ...e, ...transcript }));
      const runs: (RunResult & { ms: number })[] = [];
      for (const e of events) runs.push(await timedHook(e));
      return runs;
    };
    let hooksDone = false;
    const flushes: RunResult[] = [];
    const [hookRuns, backfillA, backfillB] = await Promise.all([
      Promise.all([0, 1, 2, 3, 4, 5].map(session)).finally(() => (hooksDone = true)),
      // Two backfills of the same transcripts at once (say, `engram install --backfill` and a manual one).
      sb.engramAsync(['backfill', '--from', root, '--json']),
      sb.engramAsync(['backfill', '--from', root, '--json']),
      (async () => {
        do flushes.push(await sb.engramAsync(['flush', '--json']));
        while (!hooksDone);
      })(),
    ]);
    await stopWorker();

    const runs = hookRuns.flat();
    const slowest = Math.max(...runs.map((r) => r.ms));
    await annotate(
      `${runs.length} hook processes, slowest ${Math.round(slowest)} ms; ${flushes.length} flushes`,
    );
    expect(runs.map((r) => r.status)).toEqual(runs.map(() => 0));
    expect(slowest).toBeLessThan(HOOK_BOUND_MS);
    for (const b of [backfillA, backfillB]) expect(b.status, b.stderr).toBe(0);
    for (const f of flushes) expect(f.status, f.stderr).toBe(0);

    // Nothing lost: every event of every session arrived once and is distilled (a last flush does
    // what the stopped worker had not got to), none parked.
    expect(sb.engram(['flush']).status).toBe(0);
    expect(status().queue).toMatchObject({ inbox: 0, rejected: 0, pending: 0, done: 6 * 6 + 1, parked: 0 });
    expect(hookCounts()).toMatchObject({
      SessionStart: 7,
      UserPromptSubmit: 6,
      PostToolUse: 12,
      PostToolUseFailure: 6,
      Stop: 6,
    });
    expect(hookLog()).not.toMatch(/lost/);

    // Nothing twice: each transcript range was read once (records as when read alone), each memory
    // created once, no two memories of a project with the same content.
    expect(transcriptProgress(sb.engramHome, root)).toEqual(expected);
    const db = new Database(join(sb.engramHome, 'engram.db'), { readonly: true });
    try {
      const twice = db
        .prepare(
          `SELECT entity_id FROM changes WHERE entity = 'memory' AND op = 'create' GROUP BY entity_id HAVING COUNT(*) > 1`,
        )
        .all();
      expect(twice).toEqual([]);
      const sameContent = db
        .prepare(
          `SELECT project_id, content_hash FROM observations GROUP BY project_id, content_hash HAVING COUNT(*) > 1`,
        )
        .all();
      expect(sameContent).toEqual([]);
      const created = db.prepare(`SELECT COUNT(*) AS n FROM changes WHERE op = 'create'`).get() as {
        n: number;
      };
      const memories = db.prepare(`SELECT COUNT(*) AS n FROM observations`).get() as { n: number };
      expect(created.n).toBe(memories.n);
      expect(memories.n).toBeGreaterThan(6); // the sessions' turns and the transcripts were distilled
    } finally {
      db.close();
    }
  }, 120_000);

  it('a writer holding the database: context hooks read past it without waiting, leave the event in the inbox, exit 0', async ({
    annotate,
  }) => {
    const p = payloads('held', sb.project('held', 'git@github.com:example/held.git'));
    expect(sb.hook(payloads('first', sb.project('first')).start()).status).toBe(0);
    expect(sb.engram(['flush']).status).toBe(0); // the database now exists, with that first session
    const holder = new Database(join(sb.engramHome, 'engram.db'));
    let runs: (RunResult & { ms: number })[];
    try {
      holder.prepare('BEGIN IMMEDIATE').run(); // another writer's transaction, held open
      runs = await Promise.all([p.start(), p.prompt('Where is the queue configured?')].map(timedHook));
      expect(status().queue.inbox).toBe(2);
    } finally {
      holder.prepare('ROLLBACK').run();
      holder.close();
    }
    const slowest = Math.max(...runs.map((r) => r.ms));
    await annotate(`context hooks behind a held write lock: slowest ${Math.round(slowest)} ms`);
    expect(runs.map((r) => r.status)).toEqual([0, 0]);
    expect(slowest).toBeLessThan(HOOK_BOUND_MS);
    // Context hooks only read (WAL readers never wait for a writer): nothing went wrong to log.
    expect(hookLog()).not.toContain('could not build the context');
    // Once the writer is gone, both events are imported and distilled like any other.
    expect(sb.hook(p.stop('The queue is configured in config/queue.yml.')).status).toBe(0);
    expect(sb.engram(['flush']).status).toBe(0);
    expect(status().queue).toMatchObject({ inbox: 0, rejected: 0, pending: 0, done: 4, parked: 0 });
    expect(hookCounts()).toMatchObject({ SessionStart: 2, UserPromptSubmit: 1, Stop: 1 });
  });
});

interface TranscriptProgress {
  /** Per file (its path under the root): how far it was read and how many records that was. */
  files: Map<string, { offset: number; records: number }>;
  /** Records counted per record type, over every read: a range read twice counts twice. */
  types: Map<string, number>;
}

/** What a store says it read of the transcripts under `root`. */
function transcriptProgress(engramHome: string, root: string): TranscriptProgress {
  const db = new Database(join(engramHome, 'engram.db'), { readonly: true });
  try {
    const files = db.prepare('SELECT path, offset, records FROM transcript_files').all() as {
      path: string;
      offset: number;
      records: number;
    }[];
    const types = db.prepare('SELECT record_type, seen FROM transcript_record_types').all() as {
      record_type: string;
      seen: number;
    }[];
    return {
      files: new Map(
        files
          .filter((f) => f.path.startsWith(root))
          .map((f) => [f.path.slice(root.length), { offset: f.offset, records: f.records }]),
      ),
      types: new Map(types.map((t) => [t.record_type, t.seen])),
    };
  } finally {
    db.close();
  }
}
