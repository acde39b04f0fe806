import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from './database.ts';
import { LINK_INDEXES } from './link-indexes.ts';
import { createStore, type Store } from './store.ts';

let dir: string;
let store: Store;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'engram-link-indexes-'));
  store = createStore(openDatabase(join(dir, 'engram.db')));
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

const indexes = () =>
  store.db
    .prepare(`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'links' ORDER BY name`)
    .pluck()
    .all();

describe('the links table secondary indexes', () => {
  it('are the ones the migrations make, so a bulk catch-up builds them again as they were', () => {
    const made = store.db
      .prepare(
        `SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'links' AND sql IS NOT NULL`,
      )
      .all() as { name: string; sql: string }[];
    expect(Object.fromEntries(made.map((r) => [r.name, r.sql]))).toEqual(LINK_INDEXES);
  });

  it('are dropped only while the table holds fewer rows than asked, and built again when missing', () => {
    const all = indexes();
    expect(store.linkIndexes.deferWhileFewerThan(1)).toBe(true);
    expect(indexes()).toEqual([]);
    expect(store.linkIndexes.build().sort()).toEqual(Object.keys(LINK_INDEXES).sort());
    expect(indexes()).toEqual(all);
    expect(store.linkIndexes.build()).toEqual([]);
    store.memory.link('obs_a', 'related', 'obs_b', 'prj_p', { origin: 'cli', at: 1 });
    expect(store.linkIndexes.deferWhileFewerThan(1)).toBe(false);
    expect(indexes()).toEqual(all);
    expect(store.linkIndexes.deferWhileFewerThan(2)).toBe(true);
    expect(indexes()).toEqual([]);
    expect(store.linkIndexes.build().sort()).toEqual(Object.keys(LINK_INDEXES).sort());
    expect(store.graph.around('obs_b').in).toHaveLength(1);
  });
});
