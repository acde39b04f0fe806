import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveConfig } from '../core/config.ts';
import { createGraphWorld, type GraphWorld } from '../graph/graph.test-support.ts';
import { runGraphStep } from '../graph/graph-step.ts';
import { catchUpGraph } from './graph-pass.ts';

let a: GraphWorld;
let b: GraphWorld;

beforeEach(() => {
  a = createGraphWorld('atlas');
  b = createGraphWorld('atlas');
  for (const w of [a, b]) {
    w.write('src/store.ts', '/** The store. */\nexport function createStore() {}\n');
    w.write('src/sync.ts', '/** The sync. */\nexport function sync() {}\n');
  }
});
afterEach(() => {
  a.cleanup();
  b.cleanup();
});

/** The graph's edges with each end named by what it is (ids differ between two worlds). */
const edges = (w: GraphWorld) => {
  const names = new Map<string, string>();
  for (const r of w.store.db.prepare('SELECT id, title FROM observations').all() as {
    id: string;
    title: string;
  }[])
    names.set(r.id, `memory ${r.title}`);
  for (const r of w.store.db.prepare('SELECT id, path FROM graph_files').all() as {
    id: string;
    path: string;
  }[])
    names.set(r.id, `file ${r.path}`);
  const rows = w.store.db.prepare('SELECT from_id, kind, to_id, origin FROM links').all() as {
    from_id: string;
    kind: string;
    to_id: string;
    origin: string;
  }[];
  const name = (id: string) => names.get(id) ?? id.replace(w.project.id.replace(/^prj_/, ''), 'P');
  return rows.map((r) => `${name(r.from_id)} ${r.kind} ${name(r.to_id)} (${r.origin})`).sort();
};

describe('catchUpGraph (one shot)', () => {
  it('makes the edges the worker makes in small steps, and leaves the connection as it found it', () => {
    for (const w of [a, b])
      for (let i = 0; i < 12; i++)
        w.remember(`Change ${i} to the store`, {
          type: 'change',
          filesModified: [i % 2 === 0 ? 'src/store.ts' : 'src/sync.ts'],
        });
    const config = resolveConfig({ env: {} });
    a.store.db.pragma('wal_autocheckpoint = 777');
    a.store.db.pragma('cache_size = -3000');
    catchUpGraph(a.store, config, Date.now());
    expect(a.store.db.pragma('wal_autocheckpoint', { simple: true })).toBe(777);
    expect(a.store.db.pragma('cache_size', { simple: true })).toBe(-3000);
    for (;;) {
      const r = runGraphStep(b.store, {
        now: Date.now(),
        fileSummaryMinLines: config['graph.fileSummaryMinLines'],
        anchorMaxAgeMs: config['graph.anchorMaxAgeHours'] * 3_600_000,
        batch: 3,
      });
      if (r.changes === 0) break;
    }
    expect(edges(a).length).toBeGreaterThan(12);
    expect(edges(a)).toEqual(edges(b));
  });

  it('fills a links table far behind before its indexes and builds them after, with the same edges', () => {
    for (const w of [a, b]) {
      const ids = [];
      for (let i = 0; i < 12; i++)
        ids.push(
          w.remember(`Change ${i} to the store`, {
            type: 'change',
            filesModified: [i % 2 === 0 ? 'src/store.ts' : 'src/sync.ts'],
          }),
        );
      // A link there already (an upgraded store's supersessions): still far fewer than the step adds.
      w.store.memory.link(ids[1] as string, 'related', ids[0] as string, w.project.id, {
        origin: 'cli',
        at: 1,
      });
    }
    const config = resolveConfig({ env: {} });
    const indexes = (w: GraphWorld) =>
      w.store.db
        .prepare(`SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'links' ORDER BY name`)
        .pluck()
        .all();
    const before = indexes(a);
    let during: unknown[] | null = null;
    const step = a.store.memory.linkAll.bind(a.store.memory);
    // What the table has while the step adds edges: no secondary index.
    a.store.memory.linkAll = (...args) => {
      during ??= indexes(a);
      return step(...args);
    };
    catchUpGraph(a.store, config, Date.now(), Number.POSITIVE_INFINITY, true, 5);
    catchUpGraph(b.store, config, Date.now(), Number.POSITIVE_INFINITY, true, 1_000_000);
    expect(during).toEqual([]);
    expect(indexes(a)).toEqual(before);
    expect(edges(a).length).toBeGreaterThan(12);
    expect(edges(a)).toEqual(edges(b));
  });

  it('keeps the indexes of a links table that has rows, and makes those a catch-up cut short left unbuilt', () => {
    a.remember('Change to the store', { type: 'change', filesModified: ['src/store.ts'] });
    const config = resolveConfig({ env: {} });
    catchUpGraph(a.store, config, Date.now());
    expect(a.store.linkIndexes.deferWhileFewerThan(1)).toBe(false);
    a.store.db.exec('DROP INDEX links_to');
    catchUpGraph(a.store, config, Date.now(), 20, false);
    expect(
      a.store.db
        .prepare(`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'links'`)
        .pluck()
        .all(),
    ).toEqual(expect.arrayContaining(['links_to', 'links_by_project']));
  });
});
