/**
 * Opening the SQLite database: WAL, a busy timeout, foreign-key-free simple schema, migrations.
 * Constructors do no I/O; `openDatabase` is the one place a connection is made.
 */
import { chmodSync, statSync } from 'node:fs';
import Database from 'better-sqlite3';
import { EngramError, isEngramError } from '../core/errors.ts';
import { damageOf } from './damage.ts';
import { requireOwnDatabase } from './database-identity.ts';
import { MIGRATIONS, SCHEMA_VERSION } from './migrations/index.ts';
import { readMark } from './store-mark.ts';

export type Db = Database.Database;
export { damageOf };

const MMAP_BYTES = 256 * 1024 * 1024;

export interface OpenOptions {
  /** Milliseconds to wait for another writer before giving up. */
  busyTimeoutMs?: number;
  /** Path of better-sqlite3's native addon (lets a bundled hook skip the addon search). */
  nativeBinding?: string;
  readonly?: boolean;
  /**
   * When an existing database needs migrations, refuse (STORE_BUSY) instead of running them: the hooks
   * pass this so an upgrade that rebuilds an index never stalls the agent; the worker migrates.
   */
  deferUpgrade?: boolean;
}

/**
 * Open engram's database at `path` (made when missing): refused, untouched, when the file is another
 * program's (STORE_FOREIGN) or damaged (STORE_DAMAGED); otherwise WAL mode and migrations (unless
 * read-only).
 */
export function openDatabase(path: string, options: OpenOptions = {}): Db {
  refuseEmptied(path);
  let db: Db;
  try {
    db = new Database(path, {
      ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}),
      ...(options.readonly ? { readonly: true, fileMustExist: true } : {}),
    });
  } catch (error) {
    throw new EngramError('STORE_FAILED', `cannot open the database at ${path}`, { cause: error });
  }
  try {
    prepareConnection(db, path, options);
  } catch (error) {
    db.close();
    throw damageOf(error, path) ?? error;
  }
  return db;
}

/** A database emptied to 0 bytes that once held changes (its mark says so) is damage, not a new start. */
function refuseEmptied(path: string): void {
  let size: number;
  try {
    size = statSync(path).size;
  } catch {
    return; // no file: a new database
  }
  const mark = size === 0 ? readMark(path) : null;
  if (mark && mark.seq > 0)
    throw new EngramError(
      'STORE_DAMAGED',
      `the database at ${path} is empty (0 bytes), but it held ${mark.seq} changes`,
    );
}

function prepareConnection(db: Db, path: string, options: OpenOptions): void {
  db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 5000}`);
  // Before anything could write to it: a file engram did not make is left alone.
  requireOwnDatabase(db, path);
  // Deleted content is overwritten, not left in free pages: forgetting must not leave the text behind.
  db.pragma('secure_delete = ON');
  // Reads through a memory map: a page SQLite's own cache does not hold costs a memory access, not a
  // read() call (search touches scattered index and row pages). Only address space; nothing is copied.
  db.pragma(`mmap_size = ${MMAP_BYTES}`);
  if (!options.readonly) {
    // WAL lets many hook processes write while the worker reads; NORMAL sync keeps every committed
    // transaction across a process crash (the WAL is synced at checkpoints).
    if (db.pragma('journal_mode', { simple: true }) !== 'wal') db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    if (options.deferUpgrade) refuseUpgrade(db);
    migrate(db);
    keepPrivate(path);
  }
}

/** The database and its WAL are the user's alone (0600), whatever the umask they were made under. */
function keepPrivate(path: string): void {
  for (const file of [path, `${path}-wal`, `${path}-shm`]) {
    try {
      if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
    } catch {
      // A missing -wal/-shm is normal; a file we may not chmod is left as it is (doctor reports it).
      continue;
    }
  }
}

function refuseUpgrade(db: Db): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > 0 && current < SCHEMA_VERSION) {
    db.close();
    throw new EngramError(
      'STORE_FAILED',
      `the database needs an upgrade (schema ${current} → ${SCHEMA_VERSION})`,
      {
        hint: 'The worker upgrades it; run "engram worker start" or any engram command.',
      },
    );
  }
}

/** Bring the schema up to date. Each migration runs in its own transaction with its version bump. */
export function migrate(db: Db): number {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current === SCHEMA_VERSION) return current;
  if (current > SCHEMA_VERSION) {
    throw new EngramError(
      'STORE_FAILED',
      `the database schema (version ${current}) is newer than this engram (version ${SCHEMA_VERSION})`,
      { hint: 'Upgrade engram.' },
    );
  }
  const run = db.transaction(() => {
    // Re-read inside the write transaction: another process may have migrated meanwhile.
    const version = db.pragma('user_version', { simple: true }) as number;
    for (const migration of MIGRATIONS) {
      if (migration.version <= version) continue;
      db.exec(migration.sql);
      db.pragma(`user_version = ${migration.version}`);
    }
  });
  run.immediate();
  return SCHEMA_VERSION;
}

/** Whether an error means "another connection holds the database" (retry later, not a failure). */
export function isStoreBusy(error: unknown): boolean {
  if (isEngramError(error, 'STORE_BUSY')) return true;
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^SQLITE_(BUSY|LOCKED)/.test(code);
}

/**
 * Copy the write-ahead log into the database file and empty it, so pages rewritten since (with
 * secure_delete, the old content zeroed) replace the old ones on disk. Best effort: a reader still on
 * an older snapshot keeps the log as it is until a later checkpoint; returns whether it was emptied.
 */
export function checkpointWal(db: Db): boolean {
  const result = db.pragma('wal_checkpoint(TRUNCATE)') as { busy: number }[];
  return result[0]?.busy === 0;
}

/** Run `fn` in a write transaction taken at once (BEGIN IMMEDIATE), so readers never upgrade locks. */
export function writeTransaction<T>(db: Db, fn: () => T): T {
  return db.transaction(fn).immediate();
}
