import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { projectIdFromKey } from '../core/ids.ts';
import { createMemoryLogger } from '../core/ports.ts';
import { listBackups } from '../store/backup.ts';
import { openDatabase } from '../store/database.ts';
import { readMark } from '../store/store-mark.ts';
import { createStore, type Store } from '../store/store.ts';
import { insertMemory } from '../store/store.test-support.ts';
import { createBackupScheduler } from './backup-scheduler.ts';

const PROJECT = projectIdFromKey('path:/p');
const HOUR = 3_600_000;

describe('the worker’s backups', () => {
  let dir: string;
  let store: Store;
  let now: number;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'engram-backups-'));
    store = createStore(openDatabase(join(dir, 'engram.db')));
    now = 1_700_000_000_000;
  });
  afterEach(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('backs up when due, keeps the newest few, re-makes one after a forget, and keeps the mark', async () => {
    const scheduler = createBackupScheduler({
      store,
      dir: join(dir, 'backups'),
      logger: createMemoryLogger(),
      clock: { now: () => now },
      intervalMs: 24 * HOUR,
      keep: 2,
    });
    const id = insertMemory(store, { projectId: PROJECT, title: 'Deploys go through CI' });
    const tick = async () => {
      scheduler.tick(now);
      await scheduler.settled();
    };
    await tick();
    expect(listBackups(join(dir, 'backups')).map((b) => b.at)).toEqual([now]);
    expect(readMark(join(dir, 'engram.db'))?.seq).toBe(1);
    now += HOUR;
    await tick(); // not due
    expect(listBackups(join(dir, 'backups'))).toHaveLength(1);
    for (let day = 1; day <= 3; day++) {
      now += 24 * HOUR;
      await tick();
    }
    expect(listBackups(join(dir, 'backups'))).toHaveLength(2);
    store.memory.forget(id, { origin: 'cli', at: now });
    now += 1000;
    await tick();
    const left = listBackups(join(dir, 'backups'));
    expect(left.map((b) => b.at)).toEqual([now]);
    expect(left[0]?.seq).toBe(2);
    expect(readMark(join(dir, 'engram.db'))?.seq).toBe(2);
  });
});
