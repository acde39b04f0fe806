import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { projectIdFromKey } from '../core/ids.ts';
import type { ObservationDraft } from '../core/model.ts';
import { openDatabase } from '../store/database.ts';
import { createStore, type Store } from '../store/store.ts';
import { insertMemory, TEST_CHANGE } from '../store/store.test-support.ts';
import { expansionTerms } from './feedback.ts';
import { searchMemories } from './search.ts';

const NOW = Date.UTC(2026, 10, 20);
const pid = projectIdFromKey('feedback');

describe('pseudo-relevance feedback', () => {
  let dir: string;
  let store: Store;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'engram-feedback-'));
    store = createStore(openDatabase(join(dir, 'engram.db')));
  });
  afterEach(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  let at = NOW - 100_000;
  const add = (title: string, draft: Partial<ObservationDraft> = {}) =>
    insertMemory(store, { projectId: pid, title, createdAt: (at += 1_000), draft });
  const ids = (query: string, feedback?: boolean) =>
    searchMemories(store, {
      query,
      projectId: pid,
      limit: 30,
      now: NOW,
      context: false,
      ...(feedback === undefined ? {} : { feedback }),
    }).map((h) => h.observation.id as string);

  /** Two memories about a staging deploy naming kubectl's rollout, and sixteen other deploy notes. */
  const seed = () => {
    add('Deploy to staging hangs', { narrative: 'kubectl rollout status never returns on staging' });
    add('Staging deploy timeout', { narrative: 'the kubectl rollout waits for a readiness probe' });
    const fillers =
      'alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa';
    for (const word of fillers.split(' '))
      add(`Deploy note ${word}`, { narrative: `release ${word} shipped` });
  };

  it('finds a memory that shares no word with the query but the words of its best matches', () => {
    seed();
    const target = add('Raise progressDeadlineSeconds', {
      narrative: 'a kubectl rollout that stalls needs a longer progress deadline',
    });
    expect(ids('deploy staging', false)).not.toContain(target);
    const found = ids('deploy staging');
    expect(found).toContain(target);
    // The query's own matches stay first: expansion words count for less than the query's words.
    expect(found.indexOf(target)).toBeGreaterThanOrEqual(2);
  });

  it('never brings back a memory that was invalidated or superseded', () => {
    seed();
    const refuted = add('Rollout stalls because of kubectl version', {
      narrative: 'a kubectl rollout stalls on an old client',
    });
    store.memory.invalidate(refuted, 'refuted by a later run', TEST_CHANGE);
    const old = add('Rollout fix: restart the kubectl proxy', { narrative: 'kubectl rollout proxy restart' });
    const replacement = add('Rollout fix: bump the deadline', { narrative: 'kubectl rollout deadline bump' });
    store.memory.supersede(old, replacement, TEST_CHANGE);
    const found = ids('deploy staging');
    expect(found).toContain(replacement);
    expect(found).not.toContain(refuted);
    expect(found).not.toContain(old);
  });

  it('drags in nothing through words most of the store holds: a query with no telling match stays as it was', () => {
    seed();
    // Shares the deploy notes' common words (release, shipped) but not the query's.
    const noise = add('Weekly retro', { narrative: 'release shipped, retro reviewed' });
    const found = ids('deploy note');
    expect(found).not.toContain(noise);
    expect(found).toEqual(ids('deploy note', false));
  });

  it('leaves a search with few matches as it was (feedback from half the results only reorders them)', () => {
    add('Deploy to staging hangs', { narrative: 'kubectl rollout status never returns on staging' });
    add('Staging deploy timeout', { narrative: 'the kubectl rollout waits for a readiness probe' });
    add('Raise progressDeadlineSeconds', { narrative: 'a kubectl rollout that stalls needs more time' });
    expect(ids('deploy staging')).toEqual(ids('deploy staging', false));
  });
});

describe('expansionTerms', () => {
  const memory = (title: string, narrative: string) =>
    ({
      title,
      subtitle: '',
      narrative,
      facts: [],
      concepts: [],
      filesRead: [],
      filesModified: [],
    }) as unknown as Parameters<typeof expansionTerms>[0][number]['observation'];

  it('keeps words held by several feedback memories, not in the query by stem, rare in the store first', () => {
    const feedback = [
      {
        observation: memory('Push rejected', 'no upstream branch; git push --set-upstream origin'),
        score: 2,
      },
      {
        observation: memory('Pushing a new branch', 'configure the upstream branch first, then push'),
        score: 1.5,
      },
      { observation: memory('Lint errors', 'eslint flags unused imports'), score: 0.5 },
    ];
    const df = (term: string) => ({ upstream: 2, branch: 40, origin: 30 })[term] ?? 1;
    const terms = expansionTerms(feedback, ['pushes', 'fail'], df, 100);
    expect(terms.map((t) => t.term)).toEqual(['upstream', 'branch']);
    expect(terms[0]?.weight).toBe(1);
    expect(terms[1]?.weight).toBeLessThan(1);
    // A word in more than half of the store says nothing.
    expect(
      expansionTerms(feedback, ['fail'], (t) => (t === 'upstream' ? 1 : 80), 100).map((t) => t.term),
    ).toEqual(['upstream']);
    expect(expansionTerms(feedback.slice(0, 1), ['fail'], df, 100)).toEqual([]);
  });

  it('asks for counts only up to one past half the store, and weighs as exact counts would', () => {
    const feedback = [
      { observation: memory('Push rejected', 'no upstream branch; origin remote push'), score: 2 },
      { observation: memory('Pushing a new branch', 'upstream branch origin remote first'), score: 1.5 },
    ];
    const exact: Record<string, number> = { upstream: 3, branch: 49, origin: 50, remote: 51, pushing: 90 };
    const asked: number[] = [];
    const capped = (term: string, atMost: number) => {
      asked.push(atMost);
      return Math.min(exact[term] ?? 1, atMost);
    };
    const full = expansionTerms(feedback, ['fail'], (t) => exact[t] ?? 1, 100);
    expect(expansionTerms(feedback, ['fail'], capped, 100)).toEqual(full);
    expect(new Set(asked)).toEqual(new Set([51]));
    // 50 of 100 is not more than half: still weighed; 51 is.
    expect(full.map((t) => t.term)).toContain('origin');
    expect(full.map((t) => t.term)).not.toContain('remote');
  });
});
