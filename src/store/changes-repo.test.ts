import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { projectIdFromKey } from '../core/ids.ts';
import { openDatabase } from './database.ts';
import { MIGRATIONS, SCHEMA_VERSION } from './migrations/index.ts';
import { insertMemory } from './store.test-support.ts';
import { createStore, type Store } from './store.ts';

const PROJECT = projectIdFromKey('path:/p');
const OTHER = projectIdFromKey('path:/q');
const HOOK = { origin: 'hook', at: 7 } as const;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'engram-changes-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const keys = (store: Store, after: number, limit = 1000) =>
  store.changes.since(after, limit).map((c) => `#${c.seq} ${c.entity} ${c.entityId} ${c.op}`);

describe('edges added from one node at once', () => {
  let store: Store;
  beforeEach(() => {
    store = createStore(openDatabase(join(dir, 'engram.db')));
  });
  afterEach(() => store.close());

  it('are one row of the log, read back by every reader as one change per edge', () => {
    const a = insertMemory(store, { projectId: PROJECT, title: 'a' });
    const b = insertMemory(store, { projectId: PROJECT, title: 'b' });
    store.memory.link(a, 'related', b, PROJECT, { origin: 'cli', at: 5 });
    const before = store.changes.lastSeq();
    const edges = [
      ['touches', 'fil_1'],
      ['part_of', 'ses_s1'],
      ['touches', 'fil_1'], // twice in one call: one edge
      ['related', b], // there already: not logged again
    ] as const;
    expect(store.memory.linkAll(a, edges, PROJECT, HOOK)).toBe(2);
    const seq = store.changes.lastSeq();
    expect(seq).toBe(before + 1);
    expect(keys(store, before)).toEqual([
      `#${seq} link ${a} touches fil_1 add`,
      `#${seq} link ${a} part_of ses_s1 add`,
    ]);
    expect(store.changes.since(before, 1)[1]).toEqual({
      seq,
      entity: 'link',
      entityId: `${a} part_of ses_s1`,
      projectId: PROJECT,
      op: 'add',
      origin: 'hook',
      actor: null,
      at: 7,
      version: null,
    });
    // Nothing new: no row at all.
    expect(store.memory.linkAll(a, edges, PROJECT, HOOK)).toBe(0);
    expect(store.changes.lastSeq()).toBe(seq);
    // A read that ends inside the log still gives the row whole, and the next one goes on after it.
    insertMemory(store, { projectId: OTHER, title: 'c' });
    expect(store.changes.since(before, 1)).toHaveLength(2);
    expect(keys(store, seq, 1)).toEqual([expect.stringMatching(/ memory obs_\w+ create$/)]);
    expect(store.changes.since(0, 1000, OTHER).map((c) => c.entity)).toEqual(['memory']);
    expect(store.changes.since(0, 1000, PROJECT).filter((c) => c.seq === seq)).toHaveLength(2);
    expect(store.changes.sinceOfKinds(0, seq, ['link add'], 10).map((c) => c.entityId)).toEqual([
      `${a} related ${b}`,
      `${a} touches fil_1`,
      `${a} part_of ses_s1`,
    ]);
    expect(store.changes.ofEntity(`${a} touches fil_1`).map((c) => c.seq)).toEqual([seq]);
    expect(store.changes.ofEntity(`${a} related ${b}`).map((c) => c.seq)).toEqual([before]);
    expect(store.changes.ofEntity(a).map((c) => `${c.entity} ${c.op}`)).toEqual(['memory create']);
    expect(store.changes.latest(['link'], 2).map((c) => c.entityId)).toEqual([
      `${a} touches fil_1`,
      `${a} part_of ses_s1`,
    ]);
    // Removing one of them is a change of that edge, as before.
    store.memory.unlink(a, 'touches', 'fil_1', PROJECT, HOOK);
    expect(store.changes.ofEntity(`${a} touches fil_1`).map((c) => c.op)).toEqual(['add', 'remove']);
  });
});

describe('a store made before edge sets (schema 16)', () => {
  it('is upgraded, reads its per-edge rows as before, and logs new edge sets as one row', () => {
    const path = join(dir, 'engram.db');
    const old = new Database(path);
    for (const m of MIGRATIONS.filter((m) => m.version <= 16)) {
      old.exec(m.sql);
      old.pragma(`user_version = ${m.version}`);
    }
    const add = old.prepare(
      `INSERT INTO changes (entity, entity_id, project_id, op, origin, actor, at, version) VALUES (?, ?, ?, ?, 'hook', NULL, 3, ?)`,
    );
    add.run('memory', 'obs_00000000000000000001', PROJECT, 'create', 1);
    add.run('link', 'obs_00000000000000000001 touches fil_1', PROJECT, 'add', null);
    add.run('link', 'obs_00000000000000000001 part_of ses_s1', PROJECT, 'add', null);
    old.close();

    const store = createStore(openDatabase(path));
    expect(store.db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(keys(store, 0)).toEqual([
      '#1 memory obs_00000000000000000001 create',
      '#2 link obs_00000000000000000001 touches fil_1 add',
      '#3 link obs_00000000000000000001 part_of ses_s1 add',
    ]);
    expect(store.changes.ofEntity('obs_00000000000000000001 touches fil_1').map((c) => c.seq)).toEqual([2]);
    const id = insertMemory(store, { projectId: PROJECT, title: 'after the upgrade' });
    expect(
      store.memory.linkAll(
        id,
        [
          ['touches', 'fil_1'],
          ['touches', 'fil_2'],
        ],
        PROJECT,
        HOOK,
      ),
    ).toBe(2);
    expect(keys(store, 4)).toEqual([`#5 link ${id} touches fil_1 add`, `#5 link ${id} touches fil_2 add`]);
    store.close();
  });
});
