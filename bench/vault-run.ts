// npm run bench:vault [-- --size 10000] [--json]
// The memory graph and the Obsidian vault at scale: a synthetic store of realistic memories
// (bench/lib/synthetic-memories.ts, 20 projects, one dominant) written through the real store, some
// typed links between memories of a project, then: the graph step over the whole change log (file
// nodes, touches / part_of / links_to edges), a first export (every note written), a sync with nothing
// changed (the quiet path), a full sync that renders and compares every note and writes nothing, and a
// sync after 100 notes were edited by hand and 100 memories changed in the store. Prints notes, links
// and each time; --json prints one object.
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runGraphStep } from '../src/graph/graph-step.ts';
import { projectsOfScope } from '../src/graph/vault-scope.ts';
import { syncVault, type VaultSyncReport } from '../src/graph/vault-sync.ts';
import { openDatabase } from '../src/store/database.ts';
import { createStore } from '../src/store/store.ts';
import { corpus, generate } from './lib/synthetic-memories.ts';
import { describeLoad } from './lib/machine.ts';

const args = process.argv.slice(2);
const flag = (name: string) => {
  const i = args.indexOf(name);
  return i === -1 ? undefined : args[i + 1];
};
const size = Number(flag('--size') ?? 10_000);
const json = args.includes('--json');
const log = (s: string) => {
  if (!json) console.log(s);
};

const work = mkdtempSync(join(tmpdir(), 'engram-bench-vault-'));
try {
  const store = createStore(openDatabase(join(work, 'engram.db')));
  const c = corpus();
  const t0 = performance.now();
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

  const dir = join(work, 'vault');
  const projects = projectsOfScope(store, 'all');
  const sync = (full = false): VaultSyncReport =>
    syncVault(store, { dir, projects, now: () => Date.now(), full });
  const exported = sync();
  const quiet = sync();
  const full = sync(true);

  // 100 notes edited by hand, 100 memories changed in the store (different ones).
  const rows = store.vaults.notes(dir).filter((n) => n.nodeId.startsWith('obs_'));
  for (const n of rows.slice(0, 100)) appendFileSync(join(dir, n.path), '\nA line added in Obsidian.\n');
  for (const n of rows.slice(100, 200))
    store.memory.edit(n.nodeId, { subtitle: 'changed in engram' }, { origin: 'cli', at: Date.now() });
  const edited = sync();

  const result = {
    memories: made.observations,
    projects: projects.length,
    notes: exported.notes,
    links: exported.links,
    exportMs: Math.round(exported.ms),
    exportWritten: exported.written,
    quietSyncMs: Math.round(quiet.ms),
    fullSyncMs: Math.round(full.ms),
    fullSyncWritten: full.written,
    editedSyncMs: Math.round(edited.ms),
    editedIngested: edited.ingested,
    editedWritten: edited.written,
    graphStepMs: Math.round(graphMs),
    totalMs: Math.round(performance.now() - t0),
  };
  if (json) console.log(JSON.stringify(result));
  else {
    log(
      `\nvault of ${result.memories} memories in ${result.projects} projects: ${result.notes} notes, ${result.links} links`,
    );
    log(
      `  export (first sync, every note written):        ${result.exportMs} ms (${result.exportWritten} files)`,
    );
    log(`  (${describeLoad()}, after the runs)`);
    log(`  sync, nothing changed (quiet path):              ${result.quietSyncMs} ms`);
    log(
      `  sync, full render and compare, nothing to write: ${result.fullSyncMs} ms (${result.fullSyncWritten} files)`,
    );
    log(
      `  sync after 100 vault edits + 100 store edits:    ${result.editedSyncMs} ms (${result.editedIngested} edits brought back, ${result.editedWritten} files written)`,
    );
  }
  store.close();
} finally {
  rmSync(work, { recursive: true, force: true });
}
