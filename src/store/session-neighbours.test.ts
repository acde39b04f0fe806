import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { projectIdFromKey } from '../core/ids.ts';
import { openDatabase } from './database.ts';
import { createStore, type Store } from './store.ts';
import { insertMemory, TEST_CHANGE } from './store.test-support.ts';

describe('observations.neighboursInSession', () => {
  let dir: string;
  let store: Store;
  const pid = projectIdFromKey('p');

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'engram-neighbours-'));
    store = createStore(openDatabase(join(dir, 'db')));
  });
  afterEach(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('gives what a plain reading of the session gives: the active memory before and the one after, older first', () => {
    // Three sessions interleaved, equal times (the row order breaks ties), some memories hidden.
    const ids: { id: string; session: string | null }[] = [];
    for (let i = 0; i < 60; i++) {
      const session = i % 7 === 0 ? null : `s${i % 3}`;
      const id = insertMemory(store, {
        projectId: pid,
        sessionId: session,
        createdAt: 1_000 + Math.floor(i / 4) * 10,
        title: `memory number ${i}`,
      });
      ids.push({ id, session });
    }
    for (const [i, { id }] of ids.entries())
      if (i % 5 === 2) store.memory.invalidate(id, 'wrong', TEST_CHANGE);
    const active = (id: string) => store.observations.get(id)?.status === 'active';
    for (const [i, { id, session }] of ids.entries()) {
      // The slow path: every memory of the session, in time then insertion order, active ones only.
      const same = ids.filter(
        (x, j) => session !== null && x.session === session && (j === i || active(x.id)),
      );
      const at = same.findIndex((x) => x.id === id);
      const expected = session === null ? [] : [same[at - 1], same[at + 1]].flatMap((x) => (x ? [x.id] : []));
      expect(store.observations.neighboursInSession(id).map((n) => n.id as string)).toEqual(expected);
    }
  });
});
