import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { projectIdFromKey } from '../core/ids.ts';
import { backupDatabase, checkBackup, dropErasedBackups, listBackups, pruneBackups } from './backup.ts';
import { openDatabase } from './database.ts';
import { createStore, type Store } from './store.ts';
import { insertMemory } from './store.test-support.ts';

const PROJECT = projectIdFromKey('path:/p');
const CLI = { origin: 'cli' as const, at: 1 };

describe('online backups', () => {
  let dir: string;
  let store: Store;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'engram-backup-'));
    store = createStore(openDatabase(join(dir, 'engram.db')));
  });
  afterEach(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const backups = () => join(dir, 'backups');

  it('copies the live database into a whole, private file that opens on its own', async () => {
    const id = insertMemory(store, { projectId: PROJECT, title: 'Backups run daily' });
    const b = await backupDatabase(store.db, backups(), 1_700_000_000_000);
    insertMemory(store, { projectId: PROJECT, title: 'Written after the backup' });
    expect(statSync(b.path).mode & 0o777).toBe(0o600);
    expect(b.seq).toBe(1);
    expect(checkBackup(b.path)).toEqual({ ok: true, seq: 1 });
    const copy = createStore(openDatabase(b.path, { readonly: true }));
    expect(copy.observations.get(id)?.title).toBe('Backups run daily');
    expect(copy.db.prepare('SELECT count(*) FROM observations').pluck().get()).toBe(1);
    copy.close();
    expect(existsSync(`${b.path}-wal`)).toBe(false);
  });

  it('keeps the newest few, and drops every backup taken before an erasure', async () => {
    const a = insertMemory(store, { projectId: PROJECT, title: 'The staging host is db-7' });
    for (const at of [1, 2, 3, 4]) await backupDatabase(store.db, backups(), 1_700_000_000_000 + at);
    expect(pruneBackups(backups(), 3)).toBe(1);
    expect(listBackups(backups()).map((b) => b.at % 10)).toEqual([4, 3, 2]);
    expect(dropErasedBackups(store.db, backups())).toBe(0);
    store.memory.forget(a, CLI);
    expect(dropErasedBackups(store.db, backups())).toBe(3);
    expect(listBackups(backups())).toEqual([]);
    const fresh = await backupDatabase(store.db, backups(), 1_700_000_000_010);
    expect(dropErasedBackups(store.db, backups())).toBe(0);
    expect(listBackups(backups()).map((b) => b.path)).toEqual([fresh.path]);
  });
});
