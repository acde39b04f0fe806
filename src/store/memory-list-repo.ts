/**
 * Listing memories by filter, newest first, a page at a time (keyset paging on created_at and rowid,
 * so page 1,000 costs what page 1 does), counting them (capped), and the ids a bulk action is about.
 * Reads only: memories change through the store's mutation path.
 */
import { statusesOf, type MemoryFilter } from '../core/memory-filter.ts';
import type { Db } from './database.ts';
import type { Stmt } from './statements.ts';

/** Where a page starts: after this memory (exclusive), newest first. */
export interface ListCursor {
  createdAt: number;
  rowid: number;
}

export interface ListedKey {
  id: string;
  createdAt: number;
  rowid: number;
}

/** The WHERE clause of a filter, with its parameters (only fixed fragments; values are bound). */
function whereOf(filter: MemoryFilter): { sql: string; params: unknown[] } {
  const clauses: string[] = [];
  const params: unknown[] = [];
  const oneOrMany = (column: string, values: readonly string[]) => {
    if (values.length === 1) {
      clauses.push(`${column} = ?`);
      params.push(values[0]);
    } else {
      clauses.push(`${column} IN (${values.map(() => '?').join(', ')})`);
      params.push(...values);
    }
  };
  if (filter.projectId) oneOrMany('project_id', [filter.projectId]);
  oneOrMany('status', statusesOf(filter));
  if (filter.types?.length) oneOrMany('type', filter.types);
  if (filter.sources?.length) oneOrMany('source', filter.sources);
  if (filter.sessionId) oneOrMany('session_id', [filter.sessionId]);
  if (filter.from !== undefined) {
    clauses.push('created_at >= ?');
    params.push(filter.from);
  }
  if (filter.to !== undefined) {
    clauses.push('created_at < ?');
    params.push(filter.to);
  }
  // Stale: some anchor of the memory changed (through the partial index of stale anchors).
  if (filter.stale !== undefined)
    clauses.push(
      `id ${filter.stale ? '' : 'NOT '}IN (SELECT memory_id FROM anchors WHERE stale_since IS NOT NULL)`,
    );
  return { sql: clauses.join(' AND '), params };
}

export function createMemoryListRepo(db: Db) {
  // Statements by SQL text: a filter's shape (which fields it has) decides the text, not its values.
  const cache = new Map<string, Stmt>();
  const statement = (sql: string): Stmt => {
    let stmt = cache.get(sql);
    if (!stmt) {
      if (cache.size > 200) cache.clear();
      stmt = db.prepare(sql);
      cache.set(sql, stmt);
    }
    return stmt;
  };

  return {
    /** One page of a filter's memories, newest first, after `cursor` when given. */
    page(filter: MemoryFilter, limit: number, cursor?: ListCursor): ListedKey[] {
      const where = whereOf(filter);
      const after = cursor ? ' AND (created_at, rowid) < (?, ?)' : '';
      const params = cursor ? [...where.params, cursor.createdAt, cursor.rowid] : where.params;
      const rows = statement(
        `SELECT id, created_at, rowid FROM observations WHERE ${where.sql}${after}
         ORDER BY created_at DESC, rowid DESC LIMIT ?`,
      ).all(...params, limit) as { id: string; created_at: number; rowid: number }[];
      return rows.map((r) => ({ id: r.id, createdAt: r.created_at, rowid: r.rowid }));
    },
    /** How many memories a filter matches, counted up to `cap` (cap + 1 means "more than cap"). */
    count(filter: MemoryFilter, cap: number): number {
      const where = whereOf(filter);
      const row = statement(
        `SELECT COUNT(*) AS n FROM (SELECT 1 FROM observations WHERE ${where.sql} LIMIT ?)`,
      ).get(...where.params, cap + 1) as { n: number };
      return row.n;
    },
  };
}

export type MemoryListRepo = ReturnType<typeof createMemoryListRepo>;
