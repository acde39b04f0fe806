/**
 * Prepared statements created on first use, so a short-lived hook prepares only what it runs.
 */
import type Database from 'better-sqlite3';
import type { Db } from './database.ts';

export type Stmt = Database.Statement<unknown[], unknown>;

export function lazyStatement(db: Db, sql: string): () => Stmt {
  let stmt: Stmt | undefined;
  return () => (stmt ??= db.prepare(sql));
}

export function parseJsonList(text: unknown): string[] {
  if (typeof text !== 'string') return [];
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    // A damaged list column is shown as empty rather than failing a whole read.
    return [];
  }
}
