import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ProjectId } from '../core/ids.ts';
import { phrasePattern, phraseWordsPattern } from '../core/phrase.ts';
import { openDatabase } from '../store/database.ts';
import { insertMemory, TEST_CHANGE } from '../store/store.test-support.ts';
import { createStore, type Store } from '../store/store.ts';
import { recordHash } from '../team/record-hash.ts';
import { erasureBetween } from './team-erasure.ts';
import { applyPulled, memoryBody } from './team-records.ts';

const PROJECT = 'prj_0000000000000abc' as ProjectId;

describe('what a pulled text erased', () => {
  it('reads the phrase back where every erased span is the same', () => {
    expect(
      erasureBetween(
        { title: 'Mail Jane Doe daily', narrative: 'jane doe reads it' },
        { title: 'Mail [erased] daily', narrative: '[erased] reads it' },
      ),
    ).toEqual({ kind: 'phrase', phrase: 'Jane Doe' });
    // A span erased earlier is not a new one.
    expect(
      erasureBetween({ narrative: 'a [erased] b Jane Doe c' }, { narrative: 'a [erased] b [erased] c' }),
    ).toEqual({ kind: 'phrase', phrase: 'Jane Doe' });
  });

  it('cannot tell when the spans differ, the texts differ elsewhere, or a span is too short', () => {
    expect(erasureBetween({ n: 'Jane and Bob' }, { n: '[erased] and [erased]' })).toEqual({
      kind: 'unknown',
    });
    expect(
      erasureBetween({ t: 'old title', n: 'to Jane Doe' }, { t: 'new title', n: 'to [erased]' }),
    ).toEqual({
      kind: 'unknown',
    });
    expect(erasureBetween({ n: 'key is ab ok' }, { n: 'key is [erased] ok' })).toEqual({ kind: 'unknown' });
  });

  it('finds nothing when the pulled text erased nothing new', () => {
    expect(erasureBetween({ n: 'a [erased] b' }, { n: 'a [erased] b, edited' })).toBeNull();
    expect(erasureBetween({ n: 'same' }, { n: 'same' })).toBeNull();
  });
});

describe('erasure on this machine', () => {
  let dir: string;
  let store: Store;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'engram-erase-'));
    store = createStore(openDatabase(join(dir, 'engram.db')));
    store.team.share({ id: PROJECT, name: 'shop', root: dir }, 1);
  });
  afterEach(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a pulled version that erased what cannot be told drops every earlier version here', () => {
    const id = insertMemory(store, {
      projectId: PROJECT,
      title: 'Call the vendor',
      draft: { narrative: 'ask for Jane Doe' },
    });
    store.memory.edit(id, { narrative: 'ask for Jane Doe or Bob Roe' }, TEST_CHANGE);
    expect(store.observations.history(id).length).toBe(1);
    const o = store.observations.get(id);
    if (!o) throw new Error('no memory');
    const body = { ...memoryBody(o, null), narrative: 'ask for [erased] or [erased]' };
    const outcome = store.transaction(() =>
      applyPulled(
        store,
        {
          seq: 1,
          kind: 'memory',
          id,
          version: 3,
          hash: recordHash('memory', id, false, body),
          deleted: false,
          body,
          author: 'alice',
          device: 'alice-laptop',
          at: 2,
        },
        { projectId: PROJECT, me: 'bob', at: 2 },
      ),
    );
    expect(outcome).toBe('erased');
    expect(store.observations.get(id)?.narrative).toBe('ask for [erased] or [erased]');
    expect(store.observations.history(id)).toEqual([]);
  });

  it("a teammate's erasure reaches what the team shares here, never this machine's own memories", () => {
    const shared = insertMemory(store, { projectId: PROJECT, title: 'Build with pnpm' });
    store.memory.edit(shared, { narrative: 'pnpm -r build' }, TEST_CHANGE);
    const own = insertMemory(store, { projectId: PROJECT, title: 'I prefer pnpm over npm' });
    const pulled = (id: string, title: string, narrative: string, version: number) => {
      const o = store.observations.get(id);
      if (!o) throw new Error('no memory');
      const body = { ...memoryBody(o, null), title, narrative };
      return store.transaction(() =>
        applyPulled(
          store,
          {
            seq: version,
            kind: 'memory',
            id,
            version,
            hash: recordHash('memory', id, false, body),
            deleted: false,
            body,
            author: 'mallory',
            device: 'm-box',
            at: 2,
          },
          { projectId: PROJECT, me: 'bob', at: 2 },
        ),
      );
    };
    expect(pulled(shared, 'Build with pnpm', 'pnpm -r build', 1)).toBe('updated');
    expect(pulled(shared, 'Build with [erased]', '[erased] -r build', 2)).toBe('erased');
    expect(JSON.stringify(store.observations.history(shared))).not.toContain('pnpm');
    expect(store.observations.get(own)?.title).toBe('I prefer pnpm over npm');
  });

  it("redacting a phrase takes its words out of earlier versions' keywords too", () => {
    const id = insertMemory(store, {
      projectId: PROJECT,
      title: 'Mail Jane Doe',
      draft: { concepts: ['mail', 'jane', 'doe'] },
    });
    store.memory.pin(id, true, TEST_CHANGE);
    store.memory.redact(id, phrasePattern('Jane Doe'), TEST_CHANGE, phraseWordsPattern('Jane Doe'));
    const [earlier] = store.observations.history(id);
    expect(earlier?.snapshot.title).toBe('Mail [erased]');
    expect(earlier?.snapshot.concepts).toEqual(['mail']);
  });
});
