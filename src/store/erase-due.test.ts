import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { projectIdFromKey } from '../core/ids.ts';
import { openDatabase } from './database.ts';
import { eraseDueForgets } from './erase-due.ts';
import { createStore, type Store } from './store.ts';
import { insertMemory } from './store.test-support.ts';

const projectId = projectIdFromKey('p');

describe('forgets with an undo window', () => {
  let dir: string;
  let store: Store;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'engram-erase-due-'));
    store = createStore(openDatabase(join(dir, 'engram.db')));
  });
  afterEach(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const requested = (title: string, dueAt: number) => {
    const id = insertMemory(store, { projectId, title, draft: { narrative: `${title}: secret plan` } });
    store.memory.archive(id, 'forget requested', { origin: 'viewer', at: 10 });
    store.pendingForgets.add({ observationId: id, batch: 'fgt_1', archived: true, requestedAt: 10, dueAt });
    return id;
  };

  it('erases what is due and still archived, keeps the rest waiting, drops a forget cancelled by a restore', () => {
    const due = requested('Due one', 100);
    const later = requested('Later one', 500);
    const restored = requested('Restored one', 100);
    store.memory.restore(restored, { origin: 'cli', at: 20 });
    expect(store.pendingForgets.any()).toBe(true);

    expect(eraseDueForgets(store, 200, () => ({ origin: 'viewer', at: 200 }))).toEqual([due]);
    expect(store.observations.get(due)?.status).toBe('forgotten');
    expect(store.observations.get(due)?.narrative ?? '').not.toContain('secret plan');
    expect(store.observations.get(restored)?.status).toBe('active');
    expect(store.observations.get(later)?.status).toBe('archived');
    expect(store.pendingForgets.get(restored)).toBeNull();
    expect(store.pendingForgets.get(later)).not.toBeNull();
    const forgets = store.changes.since(0, 100).filter((c) => c.op === 'forget');
    expect(forgets.map((c) => [c.entityId, c.origin])).toEqual([[due, 'viewer']]);

    expect(eraseDueForgets(store, 600, () => ({ origin: 'viewer', at: 600 }))).toEqual([later]);
    expect(store.pendingForgets.any()).toBe(false);
  });
});
