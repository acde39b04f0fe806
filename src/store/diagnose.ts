/**
 * What state the database file is in, found without changing it (no migration, no WAL switch): made
 * yet or not, engram's or another program's, readable, whole (SQLite's quick check), of a schema this
 * engram knows, and holding every change it ever held (the high-water mark beside it). `engram doctor`
 * and `engram status` show it; `engram doctor --repair` acts on it.
 */
import { statSync } from 'node:fs';
import Database from 'better-sqlite3';
import { identify } from './database-identity.ts';
import { listBackups, type BackupFile } from './backup.ts';
import { SCHEMA_VERSION } from './migrations/index.ts';
import { readMark, type StoreMark } from './store-mark.ts';

export type DatabaseState =
  /** Not made yet (the first capture makes it). */
  | 'missing'
  | 'ok'
  /** Another program's file: never touched. */
  | 'foreign'
  /** Unreadable, failing its integrity check, emptied or gone after holding changes. */
  | 'damaged'
  /** Whole, but holding fewer changes than it once did (a deleted WAL, an older copy put back). */
  | 'lost-changes'
  /** Made by a newer engram. */
  | 'newer'
  /** Not openable for another reason (permissions, a lock): not damage. */
  | 'unreadable';

export interface DatabaseDiagnosis {
  state: DatabaseState;
  /** What was found, in a sentence. */
  detail: string;
  path: string;
  /** The change log's newest sequence number in the file (null when unreadable). */
  seq: number | null;
  /** Active memories in the file (null when unreadable). */
  memories: number | null;
  mark: StoreMark | null;
  /** Backups on disk, newest first (not checked yet). */
  backups: BackupFile[];
}

const errorText = (error: unknown): string => (error as Error).message ?? String(error);

/** Diagnose the database at `path` (its backups in `backupDir`); reads only. */
export function diagnoseDatabase(path: string, backupDir: string): DatabaseDiagnosis {
  const mark = readMark(path);
  const base = { path, seq: null, memories: null, mark, backups: listBackups(backupDir) };
  const held = mark && mark.seq > 0 ? mark.seq : 0;
  let size: number;
  try {
    size = statSync(path).size;
  } catch {
    return held > 0
      ? { ...base, state: 'damaged', detail: `the database file is gone, but it held ${held} changes` }
      : { ...base, state: 'missing', detail: 'no database yet (the first capture makes it)' };
  }
  if (size === 0 && held > 0)
    return {
      ...base,
      state: 'damaged',
      detail: `the database file is empty (0 bytes), but it held ${held} changes`,
    };
  let db: Database.Database | null = null;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true });
    const who = identify(db);
    if (who.kind === 'foreign')
      return { ...base, state: 'foreign', detail: `not engram's database: it is ${who.found}` };
    if (who.kind === 'new')
      return { ...base, state: 'ok', detail: 'a new, empty database', seq: 0, memories: 0 };
    const check = db.pragma('quick_check(5)', { simple: false }) as { quick_check: string }[];
    const problems = check.map((r) => r.quick_check).filter((t) => t !== 'ok');
    if (problems.length > 0)
      return {
        ...base,
        state: 'damaged',
        detail: `the database fails its integrity check: ${problems.join('; ')}`,
      };
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version > SCHEMA_VERSION)
      return {
        ...base,
        state: 'newer',
        detail: `the database's schema (version ${version}) is newer than this engram's (${SCHEMA_VERSION})`,
      };
    const seq = db.prepare('SELECT COALESCE(MAX(seq), 0) FROM changes').pluck().get() as number;
    const memories = db
      .prepare(`SELECT count(*) FROM observations WHERE status = 'active'`)
      .pluck()
      .get() as number;
    const storeId =
      version >= 11
        ? (db.prepare(`SELECT value FROM store_meta WHERE key = 'store_id'`).pluck().get() as
            string | undefined)
        : undefined;
    const found = { ...base, seq, memories };
    if (mark && storeId === mark.storeId && seq < mark.seq)
      return {
        ...found,
        state: 'lost-changes',
        detail: `the database holds changes up to #${seq}, but it held up to #${mark.seq}: ${mark.seq - seq} committed changes are missing (its WAL was deleted, or an older copy was put back)`,
      };
    return {
      ...found,
      state: 'ok',
      detail: `schema ${version}, integrity ok, ${memories} active memories, changes up to #${seq}`,
    };
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const damaged = typeof code === 'string' && /^SQLITE_(CORRUPT|NOTADB)/.test(code);
    return {
      ...base,
      state: damaged ? 'damaged' : 'unreadable',
      detail: `${damaged ? 'the database is damaged' : 'the database cannot be opened'}: ${errorText(error)}`,
    };
  } finally {
    db?.close();
  }
}
