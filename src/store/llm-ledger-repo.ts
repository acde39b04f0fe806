/**
 * The LLM ledger: every distillation call (or refused call) with its tokens, cost, latency and outcome;
 * the sums the budgets are checked against; the totals `engram status` and `engram metrics` show.
 */
import type { LlmOutcome } from '../core/llm.ts';
import type { Db } from './database.ts';
import { lazyStatement } from './statements.ts';

export interface LedgerEntry {
  at: number;
  day: string;
  sessionId: string | null;
  projectId: string | null;
  provider: string;
  model: string;
  inputTokens: number;
  outputTokens: number;
  costUsd: number | null;
  latencyMs: number;
  outcome: LlmOutcome;
  detail: string | null;
  inputChars: number;
}

export interface LedgerRow extends LedgerEntry {
  id: number;
  observations: number;
}

export interface LedgerSpend {
  calls: number;
  tokens: number;
  costUsd: number;
}

export interface LedgerTotals {
  key: string;
  calls: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  observations: number;
  outcomes: Record<string, number>;
}

interface Row {
  id: number;
  at: number;
  day: string;
  session_id: string | null;
  project_id: string | null;
  provider: string;
  model: string;
  input_tokens: number;
  output_tokens: number;
  cost_usd: number | null;
  latency_ms: number;
  outcome: string;
  detail: string | null;
  input_chars: number;
  observations: number;
}

const toRow = (r: Row): LedgerRow => ({
  id: r.id,
  at: r.at,
  day: r.day,
  sessionId: r.session_id,
  projectId: r.project_id,
  provider: r.provider,
  model: r.model,
  inputTokens: r.input_tokens,
  outputTokens: r.output_tokens,
  costUsd: r.cost_usd,
  latencyMs: r.latency_ms,
  outcome: r.outcome as LlmOutcome,
  detail: r.detail,
  inputChars: r.input_chars,
  observations: r.observations,
});

export function createLlmLedgerRepo(db: Db) {
  const insert = lazyStatement(
    db,
    `INSERT INTO llm_ledger (at, day, session_id, project_id, provider, model, input_tokens, output_tokens,
       cost_usd, latency_ms, outcome, detail, input_chars) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const spendSql = `SELECT COUNT(*) AS calls, COALESCE(SUM(input_tokens + output_tokens), 0) AS tokens,
       COALESCE(SUM(cost_usd), 0) AS cost FROM llm_ledger WHERE outcome <> 'budget_skip' AND `;
  const byDay = lazyStatement(db, `${spendSql} day = ?`);
  const bySession = lazyStatement(db, `${spendSql} session_id = ?`);
  const setObservations = lazyStatement(db, `UPDATE llm_ledger SET observations = ? WHERE id = ?`);
  const latest = lazyStatement(db, `SELECT * FROM llm_ledger ORDER BY id DESC LIMIT ?`);
  const totalsSql = (key: string) =>
    `SELECT ${key} AS key, outcome, COUNT(*) AS calls, SUM(input_tokens) AS input, SUM(output_tokens) AS output,
       COALESCE(SUM(cost_usd), 0) AS cost, SUM(observations) AS observations
     FROM llm_ledger GROUP BY ${key}, outcome ORDER BY ${key}`;
  const totals = {
    day: lazyStatement(db, totalsSql('day')),
    model: lazyStatement(db, totalsSql(`provider || ' ' || model`)),
    all: lazyStatement(db, totalsSql(`'all'`)),
  };
  const spend = (r: { calls: number; tokens: number; cost: number }): LedgerSpend => ({
    calls: r.calls,
    tokens: r.tokens,
    costUsd: r.cost,
  });

  return {
    /** Record one call; returns its id. Run it in its own transaction: the spending happened anyway. */
    add(e: LedgerEntry): number {
      const info = insert().run(
        e.at,
        e.day,
        e.sessionId,
        e.projectId,
        e.provider,
        e.model,
        e.inputTokens,
        e.outputTokens,
        e.costUsd,
        e.latencyMs,
        e.outcome,
        e.detail,
        e.inputChars,
      );
      return Number(info.lastInsertRowid);
    },
    /** What was spent on a UTC day (refused calls cost nothing). */
    spentOnDay(day: string): LedgerSpend {
      return spend(byDay().get(day) as { calls: number; tokens: number; cost: number });
    },
    spentOnSession(sessionId: string): LedgerSpend {
      return spend(bySession().get(sessionId) as { calls: number; tokens: number; cost: number });
    },
    /** How many observations a call's answer became (inside the turn's write transaction). */
    setObservations(id: number, count: number): void {
      setObservations().run(count, id);
    },
    latest(limit: number): LedgerRow[] {
      return (latest().all(limit) as Row[]).map(toRow);
    },
    /** Calls, tokens, cost, stored observations and outcome counts per day, per model, or overall. */
    totals(by: 'day' | 'model' | 'all'): LedgerTotals[] {
      const out = new Map<string, LedgerTotals>();
      for (const r of totals[by]().all() as {
        key: string;
        outcome: string;
        calls: number;
        input: number;
        output: number;
        cost: number;
        observations: number;
      }[]) {
        const t = out.get(r.key) ?? {
          key: r.key,
          calls: 0,
          inputTokens: 0,
          outputTokens: 0,
          costUsd: 0,
          observations: 0,
          outcomes: {},
        };
        t.calls += r.calls;
        t.inputTokens += r.input;
        t.outputTokens += r.output;
        t.costUsd += r.cost;
        t.observations += r.observations;
        t.outcomes[r.outcome] = (t.outcomes[r.outcome] ?? 0) + r.calls;
        out.set(r.key, t);
      }
      return [...out.values()];
    },
  };
}

export type LlmLedgerRepo = ReturnType<typeof createLlmLedgerRepo>;
