/**
 * Online backups of the database: SQLite's backup API (better-sqlite3's `db.backup`, page by page,
 * while the database stays in use) into `<dir>/engram-<time>-<seq>.db` — written under a temporary
 * name, made 0600, then renamed into place, so a listed backup is always whole. `<seq>` is the change
 * log's sequence number when the copy began: what it holds at least. The newest few are kept.
 *
 * A backup must not keep what the user erased: once a forget or a phrase erasure is in the change log
 * after a backup began, that backup is deleted (`dropErasedBackups`), and the next one is taken anew.
 */
import { chmodSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Db } from './database.ts';
import { ENGRAM_APPLICATION_ID } from './database-identity.ts';
import { makeDirs } from './make-dirs.ts';

export interface BackupFile {
  path: string;
  /** When the copy began (ms). */
  at: number;
  /** The change log's newest sequence number when the copy began. */
  seq: number;
  bytes: number;
}

const NAME = /^engram-(\d{13})-(\d+)\.db$/;

/** The backups in `dir`, newest first. */
export function listBackups(dir: string): BackupFile[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return []; // no backups yet
  }
  const out: BackupFile[] = [];
  for (const name of names) {
    const m = NAME.exec(name);
    if (!m) continue;
    const path = join(dir, name);
    try {
      out.push({ path, at: Number(m[1]), seq: Number(m[2]), bytes: statSync(path).size });
    } catch {
      continue; // removed meanwhile
    }
  }
  return out.sort((a, b) => b.at - a.at || b.seq - a.seq);
}

const lastSeqOf = (db: Db): number =>
  db.prepare('SELECT COALESCE(MAX(seq), 0) FROM changes').pluck().get() as number;

/** Copy the open database into `dir` (made if missing); resolves with the new backup. */
export async function backupDatabase(db: Db, dir: string, at: number): Promise<BackupFile> {
  makeDirs(dir, { what: 'the backups folder' });
  const seq = lastSeqOf(db);
  const path = join(dir, `engram-${String(at).padStart(13, '0')}-${seq}.db`);
  const tmp = `${path}.${process.pid}.tmp`;
  try {
    await db.backup(tmp);
    // A file of its own: rollback journal, not WAL (it opens read-only with no -wal or -shm beside it).
    const copy = new Database(tmp);
    copy.pragma('journal_mode = DELETE');
    copy.close();
    chmodSync(tmp, 0o600);
    renameSync(tmp, path);
  } finally {
    rmSync(tmp, { force: true });
  }
  return { path, at, seq, bytes: statSync(path).size };
}

/** Delete all but the newest `keep` backups; returns how many were deleted. */
export function pruneBackups(dir: string, keep: number): number {
  const old = listBackups(dir).slice(Math.max(1, keep));
  for (const b of old) rmSync(b.path, { force: true });
  return old.length;
}

/**
 * Delete every backup that began before the latest erasure (a forget, a phrase erased) after `after`:
 * it could bring erased text back. Returns how many were deleted.
 */
export function dropErasedBackups(db: Db, dir: string, after = 0): number {
  const backups = listBackups(dir);
  if (backups.length === 0) return 0;
  // Changes up to `after` were looked at before (the worker passes where its last look ended).
  const from = Math.max(after, Math.min(...backups.map((b) => b.seq)));
  const erasedAt = db
    .prepare(`SELECT MAX(seq) FROM changes WHERE seq > ? AND op IN ('forget', 'redact')`)
    .pluck()
    .get(from) as number | null;
  if (erasedAt === null) return 0;
  const stale = backups.filter((b) => b.seq < erasedAt);
  for (const b of stale) rmSync(b.path, { force: true });
  return stale.length;
}

/** Whether a backup is whole: engram's, readable, and passing SQLite's integrity check. */
export function checkBackup(path: string): { ok: true; seq: number } | { ok: false; reason: string } {
  let db: Db | null = null;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true });
    if (db.pragma('application_id', { simple: true }) !== ENGRAM_APPLICATION_ID)
      return { ok: false, reason: 'not an engram database' };
    const integrity = db.pragma('integrity_check(1)', { simple: true }) as string;
    if (integrity !== 'ok') return { ok: false, reason: `integrity check: ${integrity}` };
    return { ok: true, seq: lastSeqOf(db) };
  } catch (error) {
    return { ok: false, reason: (error as Error).message };
  } finally {
    db?.close();
  }
}
