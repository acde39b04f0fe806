import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { projectIdFromKey } from '../core/ids.ts';
import { openDatabase } from '../store/database.ts';
import { createStore, type Store } from '../store/store.ts';
import { draftOf } from '../store/store.test-support.ts';
import { answerPromptQuery, type PromptQuery } from './prompt-query.ts';
import { createStemMemo } from './prompt-relevance.ts';

const DAY = 86_400_000;

describe('a prompt query answered with stems kept across prompts', () => {
  let dir: string;
  let store: Store;
  const projectId = projectIdFromKey('path:/shop');
  const now = Date.now();
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'engram-prompt-query-'));
    store = createStore(openDatabase(join(dir, 'engram.db')));
  });
  afterEach(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const add = (title: string, narrative: string) =>
    store.memory.create(
      {
        projectId,
        sessionId: 'earlier',
        source: 'transcript',
        createdAt: now - 2 * DAY,
        provenance: [],
        draft: draftOf(title, { type: 'discovery', narrative }),
        pinned: false,
      },
      { origin: 'transcript', at: now - 2 * DAY },
    ).id;
  const query = (prompt: string): PromptQuery => ({
    projectId,
    root: '/shop',
    files: [],
    sessionId: 'now',
    prompt,
    now,
    budgetTokens: 500,
    maxItems: 3,
    minScore: 0.2,
  });

  it('gives the answer it gives without them, before and after a memory is edited', () => {
    const ledger = add(
      'ledgerTotals rounds each invoice line',
      'invoice rounding drifts by a cent in ledgerTotals',
    );
    add('flakyPaymentRetry backs off on stripe webhooks', 'exponential backoff, capped at 30 s');
    add('HasUncommittedChanges reads git status', 'uncommitted changes come from git status --porcelain');
    const prompts = [
      'why does the invoice rounding drift in ledgerTotals?',
      'how does flakyPaymentRetry back off for stripe?',
      'where do we detect uncommitted changes?',
      'nothing here matches zq4821xv',
    ];
    const memo = createStemMemo();
    const told = join(dir, 'told');
    for (const p of prompts)
      expect(answerPromptQuery(store, query(p), told, memo)).toEqual(
        answerPromptQuery(store, query(p), told),
      );
    expect(answerPromptQuery(store, query(prompts[0] ?? ''), told, memo).observationIds).toEqual([ledger]);
    // An edit changes the memory's words: the kept stems are of its old text, and are not used.
    store.memory.edit(
      ledger,
      { title: 'quarterlyReport totals are exported as CSV', narrative: 'the quarterly report export' },
      { origin: 'cli', at: now },
    );
    for (const p of [...prompts, 'how is the quarterlyReport exported?'])
      expect(answerPromptQuery(store, query(p), told, memo)).toEqual(
        answerPromptQuery(store, query(p), told),
      );
    expect(
      answerPromptQuery(store, query('how is the quarterlyReport exported?'), told, memo).observationIds,
    ).toEqual([ledger]);
  });
});
