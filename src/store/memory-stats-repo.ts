/**
 * Counts the metrics page charts: memories made per day (by source), memories by type and status,
 * prompts per day. Token usage and the LLM ledger have their own repositories.
 */
import type { Db } from './database.ts';
import { lazyStatement } from './statements.ts';

export interface DayCount {
  day: string;
  key: string;
  count: number;
}

export function createMemoryStatsRepo(db: Db) {
  const perDay = lazyStatement(
    db,
    `SELECT date(created_at / 1000, 'unixepoch') AS day, source AS key, COUNT(*) AS count
     FROM observations INDEXED BY observations_by_time WHERE created_at >= ?
     GROUP BY day, source ORDER BY day`,
  );
  const byType = lazyStatement(
    db,
    `SELECT type, status, COUNT(*) AS count FROM observations GROUP BY type, status ORDER BY type`,
  );
  const promptsPerDay = lazyStatement(
    db,
    `SELECT date(at / 1000, 'unixepoch') AS day, 'prompt' AS key, COUNT(*) AS count
     FROM prompts WHERE at >= ? GROUP BY day ORDER BY day`,
  );
  return {
    /** Memories made per UTC day since `since`, per source. */
    createdPerDay(since: number): DayCount[] {
      return perDay().all(since) as DayCount[];
    },
    /** Every memory counted by type and status. */
    byTypeAndStatus(): { type: string; status: string; count: number }[] {
      return byType().all() as { type: string; status: string; count: number }[];
    },
    promptsPerDay(since: number): DayCount[] {
      return promptsPerDay().all(since) as DayCount[];
    },
  };
}

export type MemoryStatsRepo = ReturnType<typeof createMemoryStatsRepo>;
