/**
 * FTS5 match counts (capped) remembered by a connection while its database is unchanged.
 */
import type { Db } from './database.ts';
import { lazyStatement } from './statements.ts';

/** Capped match counts remembered per connection (a search probes the same common words again and again). */
const MATCH_COUNTS_KEPT = 4_096;

/**
 * Capped match counts of a long-lived connection (the MCP server, the worker, the viewer), kept while
 * nothing in the database changed: not this connection (`total_changes()`), nor a commit by another
 * (`data_version`). Nothing is kept inside a transaction, which could still roll back.
 */
export function matchCounts(db: Db): (ftsQuery: string, cap: number, count: () => number) => number {
  const generation = lazyStatement(
    db,
    `SELECT total_changes() AS c, (SELECT data_version FROM pragma_data_version) AS v`,
  );
  const kept = new Map<string, number>();
  let at = '';
  return (ftsQuery, cap, count) => {
    if (db.inTransaction) return count();
    const g = generation().get() as { c: number; v: number };
    const now = `${g.c}/${g.v}`;
    if (now !== at) {
      kept.clear();
      at = now;
    }
    const key = `${cap} ${ftsQuery}`;
    const known = kept.get(key);
    if (known !== undefined) return known;
    const n = count();
    if (kept.size >= MATCH_COUNTS_KEPT) kept.clear();
    kept.set(key, n);
    return n;
  };
}
