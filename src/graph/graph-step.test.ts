import { copyFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ProjectId } from '../core/ids.ts';
import { openDatabase } from '../store/database.ts';
import { createStore, type Store } from '../store/store.ts';
import { createGraphWorld, type GraphWorld } from './graph.test-support.ts';
import { GRAPH_CURSOR, runGraphStep } from './graph-step.ts';

let w: GraphWorld;
const opened: Store[] = [];
beforeEach(() => {
  w = createGraphWorld('atlas');
  w.write('src/store.ts', 'export function createStore() {}\n');
  w.write('src/search.ts', 'export function search() {}\n');
});
afterEach(() => {
  for (const s of opened.splice(0)) s.close();
  w.cleanup();
});

/** Everything the graph step wrote, in a stable order (ranks apart: they depend on the clock). */
function graphOf(store: Store) {
  const all = (sql: string) => store.db.prepare(sql).raw().all() as unknown[][];
  return {
    links: all(`SELECT from_id, kind, to_id, project_id, origin FROM links ORDER BY from_id, kind, to_id`),
    files: all(
      `SELECT id, path, lines, blob_hash, summarized, purpose, deleted_at FROM graph_files ORDER BY id`,
    ),
    anchors: all(
      `SELECT memory_id, first_path, blob_hash, scope FROM anchors ORDER BY memory_id, first_path`,
    ),
    linkChanges: all(`SELECT entity_id, op, origin FROM changes WHERE entity = 'link' ORDER BY seq`),
  };
}

/** A copy of the world's store as it is now (another database file). */
function copyOfStore(name: string): Store {
  w.store.db.pragma('wal_checkpoint(TRUNCATE)');
  const path = join(w.dir, `${name}.db`);
  copyFileSync(join(w.dir, 'engram.db'), path);
  const store = createStore(openDatabase(path));
  opened.push(store);
  return store;
}

function catchUp(store: Store, batch: number): number {
  let steps = 0;
  for (;;) {
    steps++;
    const r = runGraphStep(store, {
      now: 1_800_000_000_000,
      fileSummaryMinLines: 1,
      anchorMaxAgeMs: 0,
      batch,
    });
    if (r.changes === 0) return steps;
  }
}

describe('graph step', () => {
  it('builds the same graph whatever its batch, reading only the changes it acts on', () => {
    const a = w.remember('Store opens one connection', { filesModified: ['src/store.ts'] });
    const b = w.remember('Search reads the FTS index', {
      filesRead: ['src/search.ts', 'src/store.ts'],
      narrative: 'See [[Store opens one connection]].',
    });
    w.store.memory.link(b, 'related', a, w.project.id, { origin: 'cli', at: 1 });
    for (let i = 0; i < 12; i++)
      w.remember(`Change ${i} to the store`, { filesModified: [i % 2 ? 'src/store.ts' : 'src/gone.ts'] });
    w.store.memory.saveSummary(
      's1',
      w.project.id as ProjectId,
      {
        request: 'tidy the store',
        investigated: '',
        learned: '',
        completed: '',
        nextSteps: '',
        filesRead: [],
        filesEdited: ['src/store.ts'],
        notes: '',
      },
      true,
      { origin: 'hook', at: 2 },
    );
    const oneByOne = copyOfStore('one-by-one');
    const inOneGo = copyOfStore('in-one-go');
    const steps = catchUp(oneByOne, 1);
    expect(catchUp(inOneGo, 2000)).toBe(2);
    // One step per change it acts on (14 memories made, the session's end) and the one that finds none:
    // the link changes among them (its own edges, the related link) are never read into a step's batch,
    // and memories the log holds are not walked again as older than the log.
    expect(steps).toBe(15 + 1);
    const g = graphOf(inOneGo);
    expect(graphOf(oneByOne)).toEqual(g);
    expect(g.links.map((l) => l[1])).toEqual(
      expect.arrayContaining(['touches', 'part_of', 'links_to', 'related']),
    );
    for (const s of [oneByOne, inOneGo]) expect(s.graph.state(GRAPH_CURSOR)).toBe(s.changes.lastSeq());
  });
});

describe("the change log's rows for derived edges", () => {
  it('are one per memory, and readers still get each edge as its own change', () => {
    const a = w.remember('Store opens one connection', { filesModified: ['src/store.ts'] });
    const b = w.remember('Search reads the FTS index', {
      filesRead: ['src/search.ts', 'src/store.ts'],
      narrative: 'See [[Store opens one connection]].',
    });
    catchUp(w.store, 100);
    const edgesOf = (id: string) =>
      w.store.graph
        .around(id)
        .out.map((e) => `${e.from} ${e.kind} ${e.to}`)
        .sort();
    expect(edgesOf(b)).toHaveLength(4); // two files, the session, the wiki-link
    const rows = w.store.db
      .prepare(`SELECT seq, entity_id, op, origin FROM changes WHERE entity = 'link' ORDER BY seq`)
      .all() as { seq: number; entity_id: string; op: string; origin: string }[];
    expect(rows.map((r) => [r.entity_id, r.op, r.origin])).toEqual([
      [a, 'add', 'hook'],
      [b, 'add', 'hook'],
    ]);
    // Every reader of the log: each edge a `link add` change of its own, at its memory's row.
    const linkChanges = w.store.changes.since(0, 1000).filter((c) => c.entity === 'link');
    expect(linkChanges.map((c) => c.entityId).sort()).toEqual([...edgesOf(a), ...edgesOf(b)].sort());
    for (const c of linkChanges) {
      expect(c).toMatchObject({ op: 'add', origin: 'hook', projectId: w.project.id, version: null });
      expect(c.seq).toBe(rows.find((r) => c.entityId.startsWith(`${r.entity_id} `))?.seq);
    }
    const seqOfB = rows[1]?.seq ?? 0;
    expect(
      w.store.changes
        .sinceOfKinds(seqOfB - 1, seqOfB, ['link add'], 1)
        .map((c) => c.entityId)
        .sort(),
    ).toEqual(edgesOf(b));
    const wiki = `${b} links_to ${a}`;
    expect(w.store.changes.ofEntity(wiki).map((c) => [c.entityId, c.seq])).toEqual([[wiki, seqOfB]]);
    expect(w.store.changes.ofEntity(b).map((c) => `${c.entity} ${c.op}`)).toEqual(['memory create']);
    // A step that finds every edge there already logs nothing.
    const last = w.store.changes.lastSeq();
    w.store.memory.edit(b, { subtitle: 'ranked by BM25' }, { origin: 'hook', at: 5 });
    catchUp(w.store, 100);
    expect(w.store.changes.since(last, 100).map((c) => `${c.entity} ${c.op}`)).toEqual(['memory edit']);
  });
});

describe('files of a project not on this machine', () => {
  it('are gone from the key files once a memory says they were removed, and back when changed again', () => {
    rmSync(w.root, { recursive: true, force: true });
    const day = 86_400_000;
    const t0 = 1_800_000_000_000 - 10 * day;
    w.remember(
      'Read the Python sources',
      {
        filesRead: ['src/dict_utils.py', 'src/math_utils.py', 'tests/test_dict.py', 'Justfile'],
      },
      { at: t0 },
    );
    w.remember(
      'Port the library to Rust',
      {
        filesModified: ['src/lib.rs', 'src/dict_utils.rs', 'Justfile'],
        facts: ['removed: src/dict_utils.py, tests (+1 more)'],
      },
      { at: t0 + day },
    );
    catchUp(w.store, 100);
    const keys = () =>
      w.store.graphFiles
        .keyFiles(w.project.id, 20)
        .map((f) => f.path)
        .sort();
    expect(keys()).toEqual(['Justfile', 'src/dict_utils.rs', 'src/lib.rs', 'src/math_utils.py']);

    w.remember('Bring back the Python shim', { filesModified: ['src/dict_utils.py'] }, { at: t0 + 2 * day });
    catchUp(w.store, 100);
    expect(keys()).toContain('src/dict_utils.py');
    expect(keys()).not.toContain('tests/test_dict.py');
  });

  it('come out the same whether their removals and returns fall in one step or in many', () => {
    rmSync(w.root, { recursive: true, force: true });
    const day = 86_400_000;
    const at = (n: number) => ({ at: 1_800_000_000_000 - (10 - n) * day });
    w.remember(
      'Read the Python sources',
      { filesRead: ['src/dict_utils.py', 'tests/test_dict.py', 'Justfile'] },
      at(0),
    );
    w.remember(
      'Port the library to Rust',
      { filesModified: ['src/lib.rs', 'Justfile'], facts: ['removed: src/dict_utils.py, tests'] },
      at(1),
    );
    // Read, not changed: still removed. Changed: there again, until its folder is removed.
    w.remember('Look at the old shim', { filesRead: ['src/dict_utils.py'] }, at(2));
    w.remember('Bring back the Python shim', { filesModified: ['src/dict_utils.py'] }, at(3));
    w.remember('Drop the sources', { filesModified: ['Justfile'], facts: ['removed: src'] }, at(4));
    w.remember('Restore the tests', { filesModified: ['tests/test_dict.py'] }, at(5));
    const stepwise = copyOfStore('stepwise');
    catchUp(w.store, 100);
    catchUp(stepwise, 1);
    expect(graphOf(w.store)).toEqual(graphOf(stepwise));
    const deleted = w.store.graphFiles
      .ofProject(w.project.id)
      .filter((f) => f.deletedAt !== null)
      .map((f) => f.path);
    expect(deleted).toEqual(['src/dict_utils.py', 'src/lib.rs']);
  });

  it('follow the disk, not the memory, when the project is here', () => {
    w.write('src/dict_utils.py', 'def invert(d):\n    return {v: k for k, v in d.items()}\n');
    w.remember('Port the library to Rust', {
      filesModified: ['src/dict_utils.py'],
      facts: ['removed: src/dict_utils.py'],
    });
    catchUp(w.store, 100);
    expect(w.store.graphFiles.keyFiles(w.project.id, 20).map((f) => f.path)).toEqual(['src/dict_utils.py']);
  });
});
