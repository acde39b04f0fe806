/**
 * SessionStart snapshots on file: per project, what the index reads from the store (recall/
 * session-snapshot.ts says what), written by the worker and read by the context hook, with the store's
 * context epoch (migration 0015: a value every change to what the index reads replaces, in the change's
 * own transaction) it was read at. One small JSON file per project under `$ENGRAM_HOME/snapshots/`,
 * 0600, written to a temporary name and renamed into place (a reader sees a whole file or none).
 * Memory text lives in these files as it does in the database: a forget removes them all.
 */
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import type { Db } from './database.ts';

const SAFE_NAME = /^[A-Za-z0-9_-]{1,100}$/;

function fileOf(dir: string, projectId: string): string | null {
  return SAFE_NAME.test(projectId) ? join(dir, `${projectId}.json`) : null;
}

/**
 * The store's context epoch now (a read of one row; its own transaction unless the caller is in one),
 * as text: a 64-bit value kept whole. Null when the schema has no epoch yet.
 */
export function readContextEpoch(db: Db): string | null {
  try {
    const row = db.prepare('SELECT CAST(n AS TEXT) AS n FROM context_epoch WHERE id = 1').get() as
      { n: string } | undefined;
    return row?.n ?? null;
  } catch {
    return null; // a store before migration 0015: no snapshot can be trusted
  }
}

/** Write a project's snapshot (a JSON value) atomically; never throws (a snapshot only saves time). */
export function writeContextSnapshot(dir: string, projectId: string, value: unknown): boolean {
  const file = fileOf(dir, projectId);
  if (!file) return false;
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(tmp, JSON.stringify(value), { mode: 0o600 });
    renameSync(tmp, file);
    return true;
  } catch {
    rmSync(tmp, { force: true });
    return false;
  }
}

/** A project's snapshot as parsed JSON, or null when there is none (or it cannot be read). */
export function readContextSnapshot(dir: string, projectId: string): unknown {
  const file = fileOf(dir, projectId);
  if (!file) return null;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as unknown;
  } catch {
    return null;
  }
}

/**
 * The snapshot folder of an on-disk database: `snapshots/` beside it (ENGRAM_HOME's, for engram.db);
 * null for an in-memory one.
 */
export function snapshotDirBeside(db: Db): string | null {
  return db.memory || !isAbsolute(db.name) ? null : join(dirname(db.name), 'snapshots');
}

/** Remove a project's snapshot (or every snapshot): the next hook renders live. */
export function removeContextSnapshots(dir: string, projectId?: string): void {
  if (projectId === undefined) {
    rmSync(dir, { recursive: true, force: true });
    return;
  }
  const file = fileOf(dir, projectId);
  if (file) rmSync(file, { force: true });
}
