/**
 * The context log: exactly what each SessionStart / UserPromptSubmit hook call injected, with each
 * memory's score and token cost, and how long the hook had taken. The hook appends one row per call.
 */
import type { Db } from './database.ts';
import { lazyStatement } from './statements.ts';

import type { DroppedLine, InjectedItem } from '../core/model.ts';

export type { InjectedItem } from '../core/model.ts';

export interface ContextLogEntry {
  sessionId: string;
  projectId: string;
  hook: string;
  startSource: string | null;
  eventSeq: number | null;
  at: number;
  text: string;
  tokens: number;
  items: InjectedItem[];
  latencyMs: number | null;
  /** Lines the injection gate dropped (absent: none). */
  dropped?: DroppedLine[];
}

export interface ContextLogRow extends ContextLogEntry {
  id: number;
}

interface Row {
  id: number;
  session_id: string;
  project_id: string;
  hook: string;
  start_source: string | null;
  event_seq: number | null;
  at: number;
  text: string;
  tokens: number;
  items: string;
  latency_ms: number | null;
  dropped: string;
}

function parseItems<T = InjectedItem>(text: string): T[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? (value as T[]) : [];
  } catch {
    // A damaged row shows its text without the per-memory breakdown rather than failing the page.
    return [];
  }
}

const toRow = (r: Row): ContextLogRow => ({
  id: r.id,
  sessionId: r.session_id,
  projectId: r.project_id,
  hook: r.hook,
  startSource: r.start_source,
  eventSeq: r.event_seq,
  at: r.at,
  text: r.text,
  tokens: r.tokens,
  items: parseItems(r.items),
  latencyMs: r.latency_ms,
  dropped: parseItems<DroppedLine>(r.dropped ?? '[]'),
});

/** Hook latency over a period, per hook: calls, median and 95th percentile. */
export interface HookLatency {
  hook: string;
  calls: number;
  p50: number;
  p95: number;
}

export function createContextLogRepo(db: Db) {
  const insert = lazyStatement(
    db,
    `INSERT INTO context_log (session_id, project_id, hook, start_source, event_seq, at, text, tokens, items, latency_ms, dropped)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const ofSession = lazyStatement(
    db,
    `SELECT * FROM context_log WHERE session_id = ? ORDER BY at, id LIMIT ?`,
  );
  const latencies = lazyStatement(
    db,
    `SELECT hook, latency_ms FROM context_log WHERE at >= ? AND latency_ms IS NOT NULL ORDER BY hook, latency_ms`,
  );
  const prune = lazyStatement(db, `DELETE FROM context_log WHERE at < ?`);
  const perDay = lazyStatement(
    db,
    `SELECT date(at / 1000, 'unixepoch') AS day, COUNT(*) AS calls, SUM(tokens) AS tokens,
       SUM(CASE WHEN tokens > 0 THEN 1 ELSE 0 END) AS injected
     FROM context_log WHERE at >= ? GROUP BY day ORDER BY day`,
  );
  const drops = lazyStatement(
    db,
    `SELECT session_id, hook, at, dropped FROM context_log WHERE at >= ? AND dropped <> '[]' ORDER BY at DESC LIMIT ?`,
  );
  return {
    /** Lines the injection gate dropped since `since`, newest first (at most `limit` hook calls). */
    drops(
      since: number,
      limit = 50,
    ): { sessionId: string; hook: string; at: number; dropped: DroppedLine[] }[] {
      return (
        drops().all(since, limit) as { session_id: string; hook: string; at: number; dropped: string }[]
      ).map((r) => ({
        sessionId: r.session_id,
        hook: r.hook,
        at: r.at,
        dropped: parseItems<DroppedLine>(r.dropped),
      }));
    },
    add(e: ContextLogEntry): void {
      insert().run(
        e.sessionId,
        e.projectId,
        e.hook,
        e.startSource,
        e.eventSeq,
        e.at,
        e.text,
        e.tokens,
        JSON.stringify(e.items),
        e.latencyMs,
        JSON.stringify(e.dropped ?? []),
      );
    },
    /** A session's injections, oldest first. */
    /** Delete what was logged before `before`; how many rows went. */
    pruneBefore(before: number): number {
      return prune().run(before).changes;
    },
    ofSession(sessionId: string, limit = 500): ContextLogRow[] {
      return (ofSession().all(sessionId, limit) as Row[]).map(toRow);
    },
    /** Context hook latency since `since`, per hook. */
    latency(since: number): HookLatency[] {
      const byHook = new Map<string, number[]>();
      for (const r of latencies().all(since) as { hook: string; latency_ms: number }[]) {
        const list = byHook.get(r.hook) ?? [];
        list.push(r.latency_ms);
        byHook.set(r.hook, list);
      }
      const at = (xs: number[], q: number) => xs[Math.min(xs.length - 1, Math.floor(q * xs.length))] ?? 0;
      return [...byHook].map(([hook, xs]) => ({
        hook,
        calls: xs.length,
        p50: at(xs, 0.5),
        p95: at(xs, 0.95),
      }));
    },
    /** Per UTC day since `since`: context hook calls, those that injected something, tokens injected. */
    perDay(since: number): { day: string; calls: number; injected: number; tokens: number }[] {
      return perDay().all(since) as { day: string; calls: number; injected: number; tokens: number }[];
    },
  };
}

export type ContextLogRepo = ReturnType<typeof createContextLogRepo>;
