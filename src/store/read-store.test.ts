import Database from 'better-sqlite3';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { projectIdFromKey } from '../core/ids.ts';
import { openDatabase } from './database.ts';
import { openReadStore } from './read-store.ts';
import { createStore } from './store.ts';
import { insertMemory } from './store.test-support.ts';

describe('the context hooks\u2019 reading store', () => {
  let dir: string;
  let path: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'engram-read-store-'));
    path = join(dir, 'engram.db');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('reads what the store wrote, through the same repositories', () => {
    const store = createStore(openDatabase(path));
    const projectId = projectIdFromKey('path:/shop');
    const id = insertMemory(store, { projectId, title: 'Totals are kept in cents', createdAt: 5 });
    const read = openReadStore(path, { busyTimeoutMs: 100 });
    expect(read.observations.recent(projectId, 5).map((o) => o.id)).toEqual([id]);
    expect(read.observations.recent(projectId, 5)).toEqual(store.observations.recent(projectId, 5));
    read.db.close();
    store.close();
  });

  it('refuses a store at another schema version, an empty file and another program\u2019s database', () => {
    createStore(openDatabase(path)).close();
    const raw = new Database(path);
    raw.pragma('user_version = 3');
    raw.close();
    expect(() => openReadStore(path, { busyTimeoutMs: 100 })).toThrow(/schema 3/);
    const empty = join(dir, 'empty.db');
    writeFileSync(empty, '');
    expect(() => openReadStore(empty, { busyTimeoutMs: 100 })).toThrow(/empty/);
    const foreign = join(dir, 'foreign.db');
    const other = new Database(foreign);
    other.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)');
    other.close();
    expect(() => openReadStore(foreign, { busyTimeoutMs: 100 })).toThrow();
  });
});
