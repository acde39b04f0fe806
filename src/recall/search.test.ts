import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectIdFromKey } from '../core/ids.ts';
import { openDatabase } from '../store/database.ts';
import { createStore } from '../store/store.ts';
import { searchMemories } from './search.ts';

describe('searchMemories', () => {
  it('ranks a memory that holds every query word above one that repeats a single word', () => {
    const dir = mkdtempSync(join(tmpdir(), 'engram-search-'));
    const store = createStore(openDatabase(join(dir, 'db')));
    const pid = projectIdFromKey('p');
    const add = (title: string, narrative: string, at: number) =>
      store.observations.insert({
        projectId: pid,
        sessionId: null,
        source: 'manual',
        createdAt: at,
        provenance: [],
        draft: {
          type: 'fact',
          title,
          subtitle: '',
          narrative,
          facts: [],
          concepts: [],
          filesRead: [],
          filesModified: [],
        },
      });
    add('Cache cache cache', 'cache warming, cache eviction, cache keys', 1);
    const both = add('Cache invalidation on deploy', 'The deploy step clears the cache', 2);
    add('Deploy pipeline', 'Deploys run on merge', 3);
    const hits = searchMemories(store, 'cache deploy', pid, 3);
    expect(hits[0]?.observation.id).toBe(both);
    expect(hits[0]?.coverage).toBe(1);
    expect(searchMemories(store, 'the of and', pid, 3)).toEqual([]);
    store.observations.setStatus(both as string, 'invalidated', 'outdated', 4);
    expect(searchMemories(store, 'cache deploy', pid, 3).map((h) => h.observation.id)).not.toContain(both);
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });
});
