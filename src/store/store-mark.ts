/**
 * The change log's high-water mark, kept beside the database (`engram.db.mark`): the highest change
 * sequence number the database ever held, per store (its `store_id`). A database that holds less than
 * its own mark lost committed changes — its WAL was deleted, or an older copy was put back — which
 * nothing inside the file could tell. Written by the worker after each round and by every read-write
 * store when it closes; never lowered for the same store.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import type Database from 'better-sqlite3';

type Db = Database.Database;

export interface StoreMark {
  storeId: string;
  seq: number;
  at: number;
}

export const markPathOf = (dbPath: string): string => `${dbPath}.mark`;

export function readMark(dbPath: string): StoreMark | null {
  try {
    const v = JSON.parse(readFileSync(markPathOf(dbPath), 'utf8')) as Partial<StoreMark>;
    return typeof v.storeId === 'string' && typeof v.seq === 'number' && typeof v.at === 'number'
      ? { storeId: v.storeId, seq: v.seq, at: v.at }
      : null;
  } catch {
    return null; // no mark yet (or unreadable: it is rewritten at the next change)
  }
}

/** Raise the mark to `seq` (a new store replaces it; the same store's mark never goes down). */
export function raiseMark(dbPath: string, storeId: string, seq: number, at: number, force = false): void {
  const known = readMark(dbPath);
  if (!force && known && known.storeId === storeId && known.seq >= seq) return;
  const path = markPathOf(dbPath);
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify({ storeId, seq, at })}\n`, { mode: 0o600 });
  renameSync(tmp, path);
}

/** Where this database's change log stands: its store id and newest sequence number (null: unknown). */
export function highWaterOf(db: Db): { storeId: string; seq: number } | null {
  const storeId = db.prepare(`SELECT value FROM store_meta WHERE key = 'store_id'`).pluck().get();
  if (typeof storeId !== 'string') return null;
  const seq = db.prepare('SELECT COALESCE(MAX(seq), 0) FROM changes').pluck().get() as number;
  return { storeId, seq };
}

/**
 * Raise the mark to what a read-write connection's database holds now (before schema 11: nothing).
 * False when it could not be read (a damaged database has no mark to raise; closing goes on).
 */
export function noteHighWater(db: Db, at: number): boolean {
  if (db.readonly || !db.open || db.memory) return false;
  try {
    const hasMeta = db
      .prepare(`SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'store_meta'`)
      .pluck()
      .get();
    const now = hasMeta ? highWaterOf(db) : null;
    if (now) raiseMark(db.name, now.storeId, now.seq, at);
    return now !== null;
  } catch {
    return false;
  }
}
