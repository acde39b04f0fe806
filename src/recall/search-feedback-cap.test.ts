/**
 * Feedback's document-frequency probes stop one past half the store it weighs against: on a store of
 * realistic coding memories, where the feedback memories' words are often in most memories, the
 * expansion they give (and the search's ranked ids) equals what exact counts give.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpus, generate, queries } from '../../bench/lib/synthetic-memories.ts';
import { openDatabase } from '../store/database.ts';
import { createStore, type Store } from '../store/store.ts';
import { parseQuery } from './fts-query.ts';
import { expansionTerms } from './feedback.ts';
import { searchMemories } from './search.ts';

const quote = (term: string) => `"${term.replace(/"/g, '""')}"`;

describe('feedback probes capped at half the store', () => {
  let dir: string;
  let store: Store;
  const c = corpus();
  const project = c.projects[0]!.project;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'engram-feedback-cap-'));
    store = createStore(openDatabase(join(dir, 'db')));
    generate(store, c, 3_000);
  });
  afterAll(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('gives the expansion exact counts give, for every kind of query', () => {
    const size = Math.min(2_000, store.observations.sizeEstimate());
    let pastHalf = 0;
    let expanded = 0;
    for (const q of queries(c, 0, 60)) {
      // The search's own feedback memories: its best lexical matches.
      const feedback = searchMemories(store, {
        query: q.text,
        projectId: project.id,
        limit: 5,
        now: Date.UTC(2026, 0, 1),
        feedback: false,
        context: false,
      }).map((h) => ({ observation: h.observation, score: h.score }));
      const terms = parseQuery(q.text).coverageTerms;
      const exact = (term: string) => store.observations.matchCount(quote(term), Number.MAX_SAFE_INTEGER);
      const capped = (term: string, atMost: number) => {
        if (exact(term) > atMost) pastHalf++;
        return store.observations.matchCount(quote(term), atMost);
      };
      const full = expansionTerms(feedback, terms, exact, size);
      expect(expansionTerms(feedback, terms, capped, size), q.text).toEqual(full);
      if (full.length > 0) expanded++;
    }
    // The cap mattered (many probed words are in most memories), and some queries did expand.
    expect(pastHalf).toBeGreaterThan(50);
    expect(expanded).toBeGreaterThan(0);
  });
});
