// A synthetic store of `size` memories written through the real store (bench/lib/synthetic-memories.ts),
// generated once into a file; with a cache directory it is kept there, keyed by size, generator version
// and the schema (a hash of the migrations' SQL, so a migration edited during development is a new
// key too), so later runs (bench:search, bench:hooks) skip generation.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { openDatabase } from '../../src/store/database.ts';
import { MIGRATIONS, SCHEMA_VERSION } from '../../src/store/migrations/index.ts';
import { createStore } from '../../src/store/store.ts';
import { generate, GENERATOR_VERSION, type Corpus } from './synthetic-memories.ts';

export interface SyntheticStore {
  path: string;
  /** How it was generated; null when it came from the cache. */
  generated: { ms: number; sessions: number } | null;
}

/** The path of a store of `size` memories: cached in `cacheDir` when given, else generated in `workDir`. */
export function syntheticStore(
  c: Corpus,
  size: number,
  dirs: { cacheDir: string | null; workDir: string },
): SyntheticStore {
  const dir = dirs.cacheDir ?? dirs.workDir;
  mkdirSync(dir, { recursive: true });
  const schema = createHash('sha256')
    .update(MIGRATIONS.map((m) => m.sql).join('\0'))
    .digest('hex')
    .slice(0, 8);
  const path = join(dir, `engram-search-g${GENERATOR_VERSION}-s${SCHEMA_VERSION}-${schema}-${size}.db`);
  if (dirs.cacheDir && existsSync(path)) return { path, generated: null };
  const partial = `${path}.partial`;
  for (const p of [partial, `${partial}-wal`, `${partial}-shm`]) rmSync(p, { force: true });
  const store = createStore(openDatabase(partial));
  // A throwaway file until it is renamed into place: no fsync at each WAL checkpoint (a crash leaves a
  // .partial that the next run deletes), and a page cache that holds the indexes a large store's inserts
  // touch at random (content hashes, FTS segments) instead of re-reading them. Neither changes what is
  // stored: every memory is still written through the store's mutation path.
  store.db.pragma('synchronous = OFF');
  store.db.pragma(`cache_size = ${-Math.min(512, Math.max(16, Math.ceil(size / 4000))) * 1024}`);
  const g = generate(store, c, size);
  store.db.pragma('wal_checkpoint(TRUNCATE)');
  store.close();
  renameSync(partial, path);
  return { path, generated: { ms: g.ms, sessions: g.sessions } };
}

/** `--keep [DIR]`: the cache directory (default `$TMPDIR/engram-bench-search`), or null without the flag. */
export function keepDirFrom(args: readonly string[], tmp: string): string | null {
  const i = args.indexOf('--keep');
  if (i === -1) return null;
  const given = args[i + 1];
  return given && !given.startsWith('--') ? given : join(tmp, 'engram-bench-search');
}
