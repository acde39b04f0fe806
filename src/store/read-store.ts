/**
 * The context hooks' store: the database opened for reading and the few repositories a SessionStart
 * or a prompt reads. Apart from `store.ts` and `database.ts` so the hook's bundle carries neither the
 * mutation path nor the migrations' SQL (it never writes and never migrates): a smaller bundle is
 * less to read and load on every SessionStart and prompt.
 */
import Database from 'better-sqlite3';
import { statSync } from 'node:fs';
import { EngramError } from '../core/errors.ts';
import { createAnchorsRepo } from './anchors-repo.ts';
import { damageOf } from './damage.ts';
import { requireOwnDatabase } from './database-identity.ts';
import { createGraphFilesRepo } from './graph-files-repo.ts';
import { createInjectionsRepo } from './injections-repo.ts';
import { SCHEMA_VERSION } from './migrations/version.ts';
import { createObservationsRepo } from './observations-repo.ts';
import type { Store } from './store.ts';
import { createSummariesRepo } from './summaries-repo.ts';
import { createTeamRepo } from './team-repo.ts';

/** What the context hooks read: the store's repositories of the same names. */
export type ReadStore = Pick<
  Store,
  'db' | 'observations' | 'summaries' | 'anchors' | 'graphFiles' | 'team' | 'injections'
>;

const MMAP_BYTES = 256 * 1024 * 1024;

/** The context hooks read; a prompt is recorded by the worker (and its scrubber stays out of their bundle). */
const recordsNoPrompt = (): string => {
  throw new EngramError('STORE_FAILED', 'the context hooks’ reading store records no prompts');
};

/**
 * Open engram's database at `path` to read: refused (STORE_FAILED) unless it is at this engram's
 * schema version — an upgrade is the worker's, never the agent's wait — and refused untouched when it
 * is another program's or damaged. No pragma that only matters to writers (WAL and sync modes are the
 * file's already; secure_delete is for deletes); the hook writes nothing through it.
 */
export function openReadStore(
  path: string,
  options: {
    busyTimeoutMs: number;
    nativeBinding?: string | undefined;
    /** A process that asks once and exits (a context hook): nothing is remembered between questions. */
    oneShot?: boolean;
  },
): ReadStore {
  if (statSync(path, { throwIfNoEntry: false })?.size === 0)
    throw new EngramError('STORE_FAILED', `the database at ${path} is empty`);
  let db: Database.Database;
  try {
    db = new Database(path, options.nativeBinding ? { nativeBinding: options.nativeBinding } : {});
  } catch (error) {
    throw new EngramError('STORE_FAILED', `cannot open the database at ${path}`, { cause: error });
  }
  try {
    db.pragma(`busy_timeout = ${options.busyTimeoutMs}`);
    requireOwnDatabase(db, path);
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version !== SCHEMA_VERSION)
      throw new EngramError(
        'STORE_FAILED',
        `the database is at schema ${version}, this engram reads ${SCHEMA_VERSION}`,
        { hint: 'The worker upgrades it; run "engram worker start" or any engram command.' },
      );
    // Reads through a memory map, as the full connection does (scattered index and row pages).
    db.pragma(`mmap_size = ${MMAP_BYTES}`);
  } catch (error) {
    db.close();
    throw damageOf(error, path) ?? error;
  }
  const made = new Map<string, unknown>();
  const lazy = <T>(key: string, make: () => T): T => {
    if (!made.has(key)) made.set(key, make());
    return made.get(key) as T;
  };
  return {
    db,
    get observations() {
      return lazy('observations', () => createObservationsRepo(db, { oneShot: options.oneShot === true }));
    },
    get summaries() {
      return lazy('summaries', () => createSummariesRepo(db, recordsNoPrompt));
    },
    get anchors() {
      return lazy('anchors', () => createAnchorsRepo(db));
    },
    get graphFiles() {
      return lazy('graphFiles', () => createGraphFilesRepo(db));
    },
    get team() {
      return lazy('team', () => createTeamRepo(db));
    },
    get injections() {
      return lazy('injections', () => createInjectionsRepo(db));
    },
  };
}
