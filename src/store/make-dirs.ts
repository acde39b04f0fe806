/**
 * Making a folder and its parents (`mkdir -p`) with a clear answer when it cannot be: a parent that
 * is a file, a place nothing can be created in (`/proc`), no permission. Node's own recursive
 * `mkdirSync` spins forever on procfs (it retries a parent that exists but refuses children), so
 * each missing level is made on its own.
 */
import { mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { EngramError, type ErrorCode } from '../core/errors.ts';

export interface MakeDirsOptions {
  /** What the folder is, for messages: "the vault folder", "ENGRAM_HOME". */
  what: string;
  mode?: number;
  /** The error code of a refusal (default INPUT_INVALID: exit 2, HTTP 400). */
  code?: ErrorCode;
  hint?: string;
}

const errno = (error: unknown): string => (error as NodeJS.ErrnoException).code ?? 'EIO';

const REASONS: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'not permitted',
  EROFS: 'the file system is read-only',
  ENOENT: 'nothing can be created there',
  ENOSPC: 'the disk is full',
  ENAMETOOLONG: 'the path is too long',
};

/** The first ancestor of `path` (itself included) that exists and is not a folder, or null. */
export function fileInTheWay(path: string): string | null {
  for (let at = resolve(path); ; at = dirname(at)) {
    try {
      return statSync(at).isDirectory() ? null : at;
    } catch (error) {
      if (!['ENOENT', 'ENOTDIR'].includes(errno(error))) return null;
    }
    if (dirname(at) === at) return null;
  }
}

/** Make `path` and every missing parent; throws an EngramError saying why when it cannot. */
export function makeDirs(path: string, options: MakeDirsOptions): void {
  const fail = (message: string, cause?: unknown): never => {
    throw new EngramError(options.code ?? 'INPUT_INVALID', `${options.what} ${path}: ${message}`, {
      hint: options.hint ?? 'Choose a folder you can write to.',
      ...(cause === undefined ? {} : { cause }),
    });
  };
  const missing: string[] = [];
  for (let at = resolve(path); ; at = dirname(at)) {
    try {
      if (statSync(at).isDirectory()) break;
      fail(at === resolve(path) ? 'is a file, not a folder' : `${at} is a file, not a folder`);
    } catch (error) {
      if (error instanceof EngramError) throw error;
      if (!['ENOENT', 'ENOTDIR'].includes(errno(error))) fail(REASONS[errno(error)] ?? errno(error), error);
    }
    missing.push(at);
    if (dirname(at) === at) fail('no part of it exists');
  }
  for (const dir of missing.reverse()) {
    try {
      mkdirSync(dir, { mode: options.mode ?? 0o700 });
    } catch (error) {
      if (errno(error) === 'EEXIST' && statSync(dir).isDirectory()) continue;
      fail(`cannot create ${dir} (${REASONS[errno(error)] ?? errno(error)})`, error);
    }
  }
}
