// npm run bench:graph [-- --size 100000] [--keep [DIR]] [--store FILE] [--against DIST] [--json]
// The graph's one-off catch-up at scale: a synthetic store (bench/lib/synthetic-store.ts, shared with
// bench:search through --keep) copied into a fresh ENGRAM_HOME, then `engram flush` — no events to
// distil, so it is the graph step's first walk over every memory (file nodes, touches / part_of /
// links_to edges, ranking) — timed as a whole process. With --against DIST (another build's dist/, e.g.
// main's) the same catch-up runs with that build on its own copy of the store, in the same run, and the
// two graphs are compared row for row (edges, file nodes, anchors, the change log's edge changes as its
// readers see them, the graph's cursors). Against a build of an older schema, give --store a store of
// that schema (the newer build upgrades its copy first).
// --store FILE catches up a store of your own instead (it is copied, never changed).
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { openDatabase } from '../src/store/database.ts';
import { corpus } from './lib/synthetic-memories.ts';
import { keepDirFrom, syntheticStore } from './lib/synthetic-store.ts';
import { describeLoad, machineLoad } from './lib/machine.ts';

const CPU_AT_EXIT = join(import.meta.dirname, 'lib', 'cpu-at-exit.cjs');
/** The CPU time a process printed at exit (bench/lib/cpu-at-exit.cjs). */
function cpuMsOf(stderr: string): number {
  return Number(/cpu-ms (\d+)\s*$/.exec(stderr)?.[1] ?? NaN);
}

const args = process.argv.slice(2);
const flag = (name: string) => {
  const i = args.indexOf(name);
  return i === -1 ? undefined : args[i + 1];
};
const size = Number(flag('--size') ?? 100_000);
const againstDist = flag('--against') ?? null;
const json = args.includes('--json');
const log = (s: string) => {
  if (!json) process.stderr.write(`${s}\n`);
};
const root = join(import.meta.dirname, '..');
const thisDist = join(root, 'dist');

/**
 * The change log's link changes as its readers see them, one per edge: a store of schema 17 or later
 * may hold a set row for the edges added from one node at once (`changes.edges`).
 */
function linkChangesSql(db: ReturnType<typeof openDatabase>): string {
  const sets = (
    db.prepare(`SELECT name FROM pragma_table_info('changes')`).pluck().all() as string[]
  ).includes('edges');
  const single = `SELECT entity_id, project_id, op, origin FROM changes WHERE entity = 'link'`;
  if (!sets) return `${single} ORDER BY entity_id, op, origin`;
  return `${single} AND edges IS NULL
    UNION ALL SELECT c.entity_id || ' ' || (e.value ->> 0) || ' ' || (e.value ->> 1), c.project_id, c.op, c.origin
      FROM changes c, json_each(c.edges) e WHERE c.entity = 'link' AND c.edges IS NOT NULL
    ORDER BY 1, 3, 4`;
}

/** What the graph holds, in a stable order: one digest per table, and the row counts. */
function graphDigest(dbPath: string): {
  digest: Record<string, { rows: number; sha256: string }>;
  logRows: number;
} {
  const db = openDatabase(dbPath, { readonly: true });
  try {
    // A file's rank hangs on the clock (each run's own) only through a factor every memory's weight
    // shares, which ranking divides out: two runs agree to rounding error, far below six digits.
    const tables: Record<string, string> = {
      links: `SELECT from_id, kind, to_id, project_id, origin FROM links ORDER BY from_id, kind, to_id`,
      graph_files: `SELECT id, project_id, path, language, lines, size, blob_hash, summarized, purpose, symbols, deleted_at IS NULL,
          printf('%.6e', rank)
        FROM graph_files ORDER BY id`,
      anchors: `SELECT memory_id, first_path, blob_hash FROM anchors ORDER BY memory_id, first_path`,
      // The same changes, whatever order the step wrote them in and however many rows hold them.
      link_changes: linkChangesSql(db),
      // The cursor is a sequence number of the log, whose rows one build may pack tighter than another:
      // what must hold is that it reached the log's end.
      graph_state: `SELECT key, value FROM graph_state WHERE key NOT LIKE 'rank_at:%' AND key <> 'graph_cursor'
        UNION ALL SELECT 'graph_cursor at the log''s end',
          (SELECT value FROM graph_state WHERE key = 'graph_cursor') = (SELECT MAX(seq) FROM changes)
        ORDER BY 1`,
    };
    const out: Record<string, { rows: number; sha256: string }> = {};
    for (const [name, sql] of Object.entries(tables)) {
      const h = createHash('sha256');
      let rows = 0;
      for (const row of db.prepare(sql).raw().iterate()) {
        h.update(JSON.stringify(row));
        h.update('\n');
        rows++;
      }
      out[name] = { rows, sha256: h.digest('hex').slice(0, 16) };
    }
    // How many rows the change log holds (what it costs to write, not what its readers see).
    return { digest: out, logRows: db.prepare('SELECT COUNT(*) FROM changes').pluck().get() as number };
  } finally {
    db.close();
  }
}

function memoryCount(dbPath: string): number {
  const db = openDatabase(dbPath, { readonly: true });
  try {
    return (db.prepare('SELECT COUNT(*) AS n FROM observations').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

/** `engram flush` of one build on a fresh copy of the store: wall time and what the graph holds after. */
function catchUp(dist: string, store: string, work: string, label: string) {
  const home = join(work, `home-${label}`);
  const engramHome = join(home, '.engram');
  mkdirSync(engramHome, { recursive: true, mode: 0o700 });
  const db = join(engramHome, 'engram.db');
  copyFileSync(store, db);
  const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home, ENGRAM_HOME: engramHome };
  const t = performance.now();
  const run = spawnSync(process.execPath, ['-r', CPU_AT_EXIT, join(dist, 'cli.mjs'), 'flush'], {
    env,
    encoding: 'utf8',
  });
  const ms = performance.now() - t;
  if (run.status !== 0) throw new Error(`engram flush (${dist}) failed: ${run.stderr}`);
  const { digest, logRows } = graphDigest(db);
  rmSync(home, { recursive: true, force: true });
  return { ms, cpuMs: cpuMsOf(run.stderr), digest, logRows };
}

const work = mkdtempSync(join(tmpdir(), 'engram-bench-graph-'));
try {
  const loadBefore = machineLoad();
  log(`bench:graph: ${describeLoad(loadBefore)}`);
  const keepDir = keepDirFrom(args, tmpdir());
  const given = flag('--store');
  const synthetic = given
    ? { path: given, generated: null }
    : syntheticStore(corpus(), size, { cacheDir: keepDir, workDir: work });
  log(
    synthetic.generated
      ? `  a store of ${size} memories generated in ${(synthetic.generated.ms / 1000).toFixed(1)} s`
      : `  the store ${synthetic.path}`,
  );
  // The base first, then this build: the second run meets a warmer page cache, the order is reported.
  const against = againstDist ? catchUp(againstDist, synthetic.path, work, 'against') : null;
  if (against) log(`  against ${againstDist}: engram flush ${(against.ms / 1000).toFixed(1)} s`);
  const mine = catchUp(thisDist, synthetic.path, work, 'this');
  log(`  this build: engram flush ${(mine.ms / 1000).toFixed(1)} s`);
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const identical = against ? JSON.stringify(against.digest) === JSON.stringify(mine.digest) : null;
  const loadAfter = machineLoad();
  const memories = memoryCount(synthetic.path);
  const result = {
    memories,
    catchUpMs: Math.round(mine.ms),
    catchUpCpuMs: mine.cpuMs,
    changeLogRows: mine.logRows,
    graph: mine.digest,
    ...(against
      ? {
          against: {
            dist: againstDist,
            catchUpMs: Math.round(against.ms),
            catchUpCpuMs: against.cpuMs,
            changeLogRows: against.logRows,
            graph: against.digest,
          },
          identical,
        }
      : {}),
    machine: { before: loadBefore, after: loadAfter },
  };
  if (json) console.log(JSON.stringify(result, null, 2));
  else {
    console.log(`\ngraph catch-up (engram flush) of a ${memories}-memory store`);
    console.log(`  this build:   ${s(mine.ms)} wall, ${s(mine.cpuMs)} CPU`);
    if (against)
      console.log(
        `  against:      ${s(against.ms)} wall, ${s(against.cpuMs)} CPU (${againstDist}); this / against ${(mine.ms / against.ms).toFixed(2)}x wall, ${(mine.cpuMs / against.cpuMs).toFixed(2)}x CPU`,
      );
    for (const [table, d] of Object.entries(mine.digest))
      console.log(
        `  ${table.padEnd(13)} ${String(d.rows).padStart(8)} rows ${d.sha256}${against ? (JSON.stringify(against.digest[table]) === JSON.stringify(d) ? '  same as against' : `  DIFFERS (against: ${against.digest[table]?.rows} rows ${against.digest[table]?.sha256})`) : ''}`,
      );
    console.log(
      `  change log:   ${mine.logRows} rows after${against ? ` (against: ${against.logRows})` : ''}`,
    );
    if (against) console.log(`  graphs identical: ${identical ? 'yes' : 'NO'}`);
    console.log(`  machine: before ${describeLoad(loadBefore)}; after ${describeLoad(loadAfter)}`);
  }
  if (identical === false) process.exitCode = 1;
} finally {
  rmSync(work, { recursive: true, force: true });
}
