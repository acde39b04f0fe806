// npm run bench:vault [-- --size 10000] [--against DIST] [--rounds N] [--keep DIR] [--json]
// The memory graph and the Obsidian vault at scale: a synthetic store of realistic memories
// (bench/lib/synthetic-memories.ts, 20 projects, one dominant) written through the real store, some
// typed links between memories of a project, then: the graph step over the whole change log (file
// nodes, touches / part_of / links_to edges), a first export (every note written), a sync with nothing
// changed (the quiet path), a full sync that renders and compares every note and writes nothing, and a
// sync after 100 notes were edited by hand and 100 memories changed in the store. Prints notes, links
// and each time, and beside the export the disk's floor (bench/lib/file-floor.ts: the same files created
// empty, right after, in the same run); --json prints one object. With --against DIST (another build's dist/, e.g. main's), the
// first export is also run as `engram vault export --all` processes of this build and of that one, on
// copies of the same store, alternating for --rounds rounds (default 3), and the two vaults are compared
// file by file (they must be byte-identical). With --keep DIR the generated store is kept in DIR
// (pristine.db, after the graph step) and a later run with the same DIR and size starts from it.
// Nothing is deleted between the timed runs (every vault stays until the end): on ext4 without a
// journal (this project's VMs) creating a file skips every inode of its block group deleted in the
// last minutes, so a vault removed just before another is written slows that one down many times.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  appendFileSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runGraphStep } from '../src/graph/graph-step.ts';
import { projectsOfScope } from '../src/graph/vault-scope.ts';
import { syncVault, type VaultSyncReport } from '../src/graph/vault-sync.ts';
import { openDatabase } from '../src/store/database.ts';
import { createStore } from '../src/store/store.ts';
import { corpus, generate } from './lib/synthetic-memories.ts';
import { describeLoad, machineLoad } from './lib/machine.ts';
import { median } from './lib/stats.ts';
import { listNotes } from '../src/graph/vault-files.ts';
import { fileCreationFloor } from './lib/file-floor.ts';

const args = process.argv.slice(2);
const flag = (name: string) => {
  const i = args.indexOf(name);
  return i === -1 ? undefined : args[i + 1];
};
const size = Number(flag('--size') ?? 10_000);
const json = args.includes('--json');
const againstDist = flag('--against') ?? null;
const rounds = Number(flag('--rounds') ?? 3);
const loadBefore = machineLoad();
const log = (s: string) => {
  if (!json) console.log(s);
};

const keep = flag('--keep') ?? null;
const work = keep ?? mkdtempSync(join(tmpdir(), 'engram-bench-vault-'));
const kept = keep !== null ? keptStore(keep) : null;
// What one run writes (vaults, the floor's files, the export processes' homes): its own folder, removed
// at the end (with any a broken run left), never before a timing.
const runDir = join(work, `run-${process.pid}`);
try {
  const t0 = performance.now();
  const pristine = join(work, 'pristine.db');
  if (kept) {
    for (const suffix of ['', '-wal', '-shm']) rmSync(join(work, `engram.db${suffix}`), { force: true });
    copyFileSync(pristine, join(work, 'engram.db'));
    log(`kept store of ${kept.memories} memories (${pristine})`);
  }
  const store = createStore(openDatabase(join(work, 'engram.db')));
  const made = kept ?? prepare(store);
  const graphMs = kept?.graphMs ?? 0;
  const dir = join(runDir, 'vault');
  const projects = projectsOfScope(store, 'all');
  const sync = (full = false): VaultSyncReport =>
    syncVault(store, { dir, projects, now: () => Date.now(), full });
  const cpu0 = process.cpuUsage();
  const exported = sync();
  const cpu1 = process.cpuUsage(cpu0);
  const exportCpuMs = Math.round((cpu1.user + cpu1.system) / 1000);
  const exportUserMs = Math.round(cpu1.user / 1000);
  // The same files created empty, right after: what the disk alone costs for them in this run.
  const floor = fileCreationFloor([...listNotes(dir), ...listJson(dir)], join(runDir, 'floor'));
  const quiet = sync();
  const full = sync(true);

  // 100 notes edited by hand, 100 memories changed in the store (different ones).
  const rows = store.vaults.notes(dir).filter((n) => n.nodeId.startsWith('obs_'));
  for (const n of rows.slice(0, 100)) appendFileSync(join(dir, n.path), '\nA line added in Obsidian.\n');
  for (const n of rows.slice(100, 200))
    store.memory.edit(n.nodeId, { subtitle: 'changed in engram' }, { origin: 'cli', at: Date.now() });
  const edited = sync();

  const versus = againstDist ? exportSideBySide(pristine, work) : null;
  const result = {
    memories: made.memories,
    projects: projects.length,
    notes: exported.notes,
    links: exported.links,
    exportMs: Math.round(exported.ms),
    exportCpuMs,
    exportUserMs,
    exportWritten: exported.written,
    floor: { files: floor.files, ms: Math.round(floor.ms), cpuMs: Math.round(floor.cpuMs) },
    quietSyncMs: Math.round(quiet.ms),
    fullSyncMs: Math.round(full.ms),
    fullSyncWritten: full.written,
    editedSyncMs: Math.round(edited.ms),
    editedIngested: edited.ingested,
    editedWritten: edited.written,
    graphStepMs: Math.round(graphMs),
    totalMs: Math.round(performance.now() - t0),
    ...(versus ? { processes: versus } : {}),
    machine: { before: loadBefore, after: machineLoad() },
  };
  if (json) console.log(JSON.stringify(result));
  else {
    log(
      `\nvault of ${result.memories} memories in ${result.projects} projects: ${result.notes} notes, ${result.links} links`,
    );
    log(
      `  export (first sync, every note written):        ${result.exportMs} ms (${result.exportWritten} files; CPU ${result.exportCpuMs} ms, of it user ${result.exportUserMs} ms)`,
    );
    log(
      `  the disk's floor: the same ${result.floor.files} files created empty (mkdir, open, close): ${result.floor.ms} ms (CPU ${result.floor.cpuMs} ms); the export beyond it: ${result.exportMs - result.floor.ms} ms`,
    );
    log(`  (${describeLoad(loadBefore)} before, ${describeLoad()} after the runs)`);
    log(`  sync, nothing changed (quiet path):              ${result.quietSyncMs} ms`);
    log(
      `  sync, full render and compare, nothing to write: ${result.fullSyncMs} ms (${result.fullSyncWritten} files)`,
    );
    log(
      `  sync after 100 vault edits + 100 store edits:    ${result.editedSyncMs} ms (${result.editedIngested} edits brought back, ${result.editedWritten} files written)`,
    );
    if (versus) {
      log(
        `\nfirst export as \`engram vault export --all\` processes, ${rounds} rounds alternating (sync time each reports, median):`,
      );
      log(
        `  this build:  ${versus.thisMs.map((n) => Math.round(n)).join(', ')} ms → median ${Math.round(median(versus.thisMs))} ms`,
      );
      log(
        `  against:     ${versus.againstMs.map((n) => Math.round(n)).join(', ')} ms → median ${Math.round(median(versus.againstMs))} ms (${againstDist})`,
      );
      log(
        `  whole process CPU time: this ${versus.thisCpuMs.join(', ')} ms, against ${versus.againstCpuMs.join(', ')} ms`,
      );
      log(
        `  of it user CPU time (engram's own work; system time here is mostly the kernel making inodes): this ${versus.thisUserMs.join(', ')} ms, against ${versus.againstUserMs.join(', ')} ms`,
      );
      log(
        `  this / against: ${(median(versus.thisMs) / median(versus.againstMs)).toFixed(2)}x sync wall time, ${(median(versus.thisCpuMs) / median(versus.againstCpuMs)).toFixed(2)}x process CPU time, ${(median(versus.thisUserMs) / median(versus.againstUserMs)).toFixed(2)}x user CPU time`,
      );
      log(
        `  vaults identical: ${versus.identical ? 'yes' : 'NO'} (${versus.files} files each)${versus.identical ? '' : `; first difference: ${versus.firstDifference}`}`,
      );
    }
  }
  store.close();
  if (versus && !versus.identical) process.exitCode = 1;
} finally {
  if (keep === null) rmSync(work, { recursive: true, force: true });
  else
    for (const made of readdirSync(work))
      if (made.startsWith('run-')) rmSync(join(work, made), { recursive: true, force: true });
}

interface Prepared {
  memories: number;
  graphMs: number;
}

/** A store kept by an earlier run with --keep (same size), or null. */
function keptStore(dir: string): Prepared | null {
  mkdirSync(dir, { recursive: true });
  const meta = join(dir, 'kept.json');
  if (!existsSync(meta) || !existsSync(join(dir, 'pristine.db'))) return null;
  const got = JSON.parse(readFileSync(meta, 'utf8')) as Prepared & { size: number };
  return got.size === size ? got : null;
}

/** Generate the store, link it, run the graph step over it; the result is copied to pristine.db. */
function prepare(store: ReturnType<typeof createStore>): Prepared {
  const c = corpus();
  const made = generate(store, c, size);
  log(
    `generated ${made.observations} memories in ${made.sessions} sessions (${(made.ms / 1000).toFixed(1)} s)`,
  );

  // Typed links: each memory relates to the previous memory of its project that shares a file with it.
  const linkStart = performance.now();
  let links = 0;
  store.transaction(() => {
    for (const projectId of store.graph.projectIds()) {
      const lastByFile = new Map<string, string>();
      for (const m of store.graph.memoriesOf(projectId)) {
        for (const f of m.filesModified) {
          const before = lastByFile.get(f);
          if (
            before &&
            before !== m.id &&
            store.memory.link(m.id, 'related', before, projectId, { origin: 'cli', at: 1 })
          )
            links++;
          lastByFile.set(f, m.id);
        }
      }
    }
  });
  const linkMs = performance.now() - linkStart;

  const graphStart = performance.now();
  let changes = 0;
  let edges = 0;
  for (;;) {
    const r = runGraphStep(store, {
      now: Date.now(),
      fileSummaryMinLines: 100,
      anchorMaxAgeMs: 0,
      batch: 2000,
    });
    changes += r.changes;
    edges += r.edges;
    if (r.changes === 0) break;
  }
  const graphMs = performance.now() - graphStart;
  log(
    `graph step: ${changes} changes read, ${edges} edges added (${(graphMs / 1000).toFixed(1)} s; ${links} related links made in ${linkMs.toFixed(0)} ms)`,
  );

  // The store as the first export meets it, for the export processes of each build.
  store.db.pragma('wal_checkpoint(TRUNCATE)');
  copyFileSync(join(work, 'engram.db'), join(work, 'pristine.db'));
  const prepared = { memories: made.observations, graphMs };
  if (keep !== null) writeFileSync(join(work, 'kept.json'), JSON.stringify({ ...prepared, size }));
  return prepared;
}

/** Every note and file of a vault (the lock folder apart): path → content hash. */
function vaultFiles(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const path of listNotes(dir))
    out.set(
      path,
      createHash('sha256')
        .update(readFileSync(join(dir, path)))
        .digest('hex'),
    );
  for (const path of listJson(dir))
    out.set(
      path,
      createHash('sha256')
        .update(readFileSync(join(dir, path)))
        .digest('hex'),
    );
  return out;
}

function listJson(dir: string): string[] {
  return listNotes(dir)
    .map((p) => p.split('/')[0] as string)
    .filter((p, i, all) => all.indexOf(p) === i)
    .map((folder) => `${folder}/graph.json`);
}

/** `engram vault export --all` of one build on a fresh copy of the store: the sync time it reports. */
function exportProcess(dist: string, store: string, work: string, label: string, keep: boolean) {
  const home = join(runDir, 'homes', label);
  const engramHome = join(home, '.engram');
  rmSync(home, { recursive: true, force: true });
  mkdirSync(engramHome, { recursive: true, mode: 0o700 });
  copyFileSync(store, join(engramHome, 'engram.db'));
  const vault = join(home, 'vault');
  const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home, ENGRAM_HOME: engramHome };
  const run = spawnSync(
    process.execPath,
    [
      '-r',
      join(import.meta.dirname, 'lib', 'cpu-at-exit.cjs'),
      join(dist, 'cli.mjs'),
      'vault',
      'export',
    ].concat(['--all', '--dir', vault, '--json']),
    { env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  if (run.status !== 0) throw new Error(`vault export (${dist}) failed: ${run.stderr}`);
  const report = JSON.parse(run.stdout) as { ms: number };
  const cpuMs = Number(/cpu-ms (\d+)\s*$/.exec(run.stderr)?.[1] ?? NaN);
  const userMs = Number(/user-ms (\d+)/.exec(run.stderr)?.[1] ?? NaN);
  const files = keep ? vaultFiles(vault) : null;
  return { ms: report.ms, cpuMs, userMs, files };
}

function exportSideBySide(pristine: string, work: string) {
  const thisDist = join(import.meta.dirname, '..', 'dist');
  const thisMs: number[] = [];
  const againstMs: number[] = [];
  const thisCpuMs: number[] = [];
  const againstCpuMs: number[] = [];
  const thisUserMs: number[] = [];
  const againstUserMs: number[] = [];
  let compared: { identical: boolean; files: number; firstDifference: string | null } | null = null;
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? (['against', 'this'] as const) : (['this', 'against'] as const);
    const got: Record<string, ReturnType<typeof exportProcess>> = {};
    for (const which of order) {
      got[which] = exportProcess(
        which === 'this' ? thisDist : (againstDist as string),
        pristine,
        work,
        `${which}-${round}`,
        round === 0,
      );
      (which === 'this' ? thisMs : againstMs).push(got[which].ms);
      (which === 'this' ? thisCpuMs : againstCpuMs).push(got[which].cpuMs);
      (which === 'this' ? thisUserMs : againstUserMs).push(got[which].userMs);
    }
    if (round === 0) {
      const a = got['against']?.files as Map<string, string>;
      const b = got['this']?.files as Map<string, string>;
      const paths = [...new Set([...a.keys(), ...b.keys()])].sort();
      const diff = paths.find((p) => a.get(p) !== b.get(p)) ?? null;
      compared = { identical: diff === null, files: b.size, firstDifference: diff };
    }
  }
  return {
    thisMs,
    againstMs,
    thisCpuMs,
    againstCpuMs,
    thisUserMs,
    againstUserMs,
    ...(compared as NonNullable<typeof compared>),
  };
}
