import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from './database.ts';
import type { LedgerEntry } from './llm-ledger-repo.ts';
import { createStore, type Store } from './store.ts';

const entry = (over: Partial<LedgerEntry>): LedgerEntry => ({
  at: 1,
  day: '2026-11-23',
  sessionId: 's1',
  projectId: 'prj_1',
  provider: 'anthropic',
  model: 'claude-haiku-4-5',
  inputTokens: 1000,
  outputTokens: 200,
  costUsd: 0.0016,
  latencyMs: 900,
  outcome: 'ok',
  detail: null,
  inputChars: 4000,
  ...over,
});

describe('the LLM ledger', () => {
  let dir: string;
  let store: Store;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'engram-ledger-'));
    store = createStore(openDatabase(join(dir, 'engram.db')));
  });
  afterEach(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('sums spend per day and per session, refused calls costing nothing', () => {
    const a = store.llmLedger.add(entry({}));
    store.llmLedger.add(
      entry({ sessionId: 's2', outcome: 'malformed', inputTokens: 500, outputTokens: 50, costUsd: 0.0006 }),
    );
    store.llmLedger.add(
      entry({ outcome: 'budget_skip', inputTokens: 0, outputTokens: 0, costUsd: 0, detail: 'cap' }),
    );
    store.llmLedger.add(entry({ day: '2026-11-22', sessionId: 's3', costUsd: null, model: 'llama3' }));
    expect(store.llmLedger.spentOnDay('2026-11-23')).toEqual({
      calls: 2,
      tokens: 1750,
      costUsd: expect.closeTo(0.0022, 6),
    });
    expect(store.llmLedger.spentOnSession('s1')).toMatchObject({ calls: 1, tokens: 1200 });
    expect(store.llmLedger.spentOnDay('2026-11-21')).toEqual({ calls: 0, tokens: 0, costUsd: 0 });
    store.llmLedger.setObservations(a, 2);
    const [all] = store.llmLedger.totals('all');
    expect(all).toMatchObject({
      calls: 4,
      inputTokens: 2500,
      outputTokens: 450,
      observations: 2,
      outcomes: { ok: 2, malformed: 1, budget_skip: 1 },
    });
    expect(store.llmLedger.totals('day').map((d) => [d.key, d.calls])).toEqual([
      ['2026-11-22', 1],
      ['2026-11-23', 3],
    ]);
    expect(store.llmLedger.latest(1)[0]).toMatchObject({ outcome: 'ok', model: 'llama3', costUsd: null });
  });

  it('rejects an unknown outcome (the schema checks it)', () => {
    expect(() => store.llmLedger.add(entry({ outcome: 'great' as never }))).toThrow(/CHECK constraint/);
  });
});
