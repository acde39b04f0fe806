import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { projectIdFromKey } from '../core/ids.ts';
import { openDatabase } from './database.ts';
import { createStore, type Store } from './store.ts';
import { insertMemory, TEST_CHANGE } from './store.test-support.ts';

describe('remembered match counts', () => {
  let dir: string;
  let store: Store;
  let other: Store;
  const pid = projectIdFromKey('p');
  const count = (s: Store) => s.observations.matchCount('"rebase"', 100);

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'engram-match-counts-'));
    store = createStore(openDatabase(join(dir, 'db')));
    other = createStore(openDatabase(join(dir, 'db')));
  });
  afterEach(() => {
    other.close();
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('are what the index holds after a write on this connection, another one, an edit and a forget', () => {
    insertMemory(store, { projectId: pid, title: 'Rebase onto main before pushing' });
    expect(count(store)).toBe(1);
    expect(count(store)).toBe(1);
    // A commit by another connection.
    const second = insertMemory(other, { projectId: pid, title: 'Interactive rebase squashes fixups' });
    expect(count(store)).toBe(2);
    // Writes on this connection, edits and forgets included.
    const third = insertMemory(store, { projectId: pid, title: 'Never rebase a shared branch' });
    expect(count(store)).toBe(3);
    store.memory.edit(third, { title: 'Never force-push a shared branch', narrative: '' }, TEST_CHANGE);
    expect(count(store)).toBe(2);
    other.memory.forget(second, TEST_CHANGE);
    expect(count(store)).toBe(1);
    expect(count(other)).toBe(1);
  });

  it('keep nothing from inside a transaction that rolls back', () => {
    insertMemory(store, { projectId: pid, title: 'Rebase onto main before pushing' });
    expect(() =>
      store.transaction(() => {
        insertMemory(store, { projectId: pid, title: 'Interactive rebase squashes fixups' });
        expect(count(store)).toBe(2);
        throw new Error('roll back');
      }),
    ).toThrow('roll back');
    expect(count(store)).toBe(1);
  });
});
