/**
 * What every CLI command gets: the runtime, output streams, and a lazily opened store.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDatabase } from '../../store/database.ts';
import { loadSqliteVec } from '../../store/sqlite-vec-loader.ts';
import { createStore, type Store } from '../../store/store.ts';
import { ensureHome, type Runtime } from '../runtime.ts';

export interface CliIo {
  out: (text: string) => void;
  err: (text: string) => void;
  isTTY: boolean;
  /** Ask the user yes or no (only when a person is at a terminal; absent otherwise). */
  confirm?: (question: string) => Promise<boolean>;
}

export interface CliContext {
  runtime: Runtime;
  io: CliIo;
  cwd: string;
  now: () => number;
  /** Open (and migrate) the database; the caller closes it. */
  openStore: () => Store;
  /** Directory holding the built entry points (dist/). */
  distDir: string;
}

export function defaultDistDir(): string {
  // The CLI runs from dist/cli.mjs when built; from src/surfaces/cli when run from source in tests.
  const here = dirname(fileURLToPath(import.meta.url));
  return here.endsWith('dist') ? here : join(here, '..', '..', '..', 'dist');
}

export function createCliContext(runtime: Runtime, io: CliIo, cwd: string): CliContext {
  return {
    runtime,
    io,
    cwd,
    now: Date.now,
    openStore: () => {
      ensureHome(runtime.paths);
      return createStore(openDatabase(runtime.paths.db), { loadVectorExtension: loadSqliteVec });
    },
    distDir: defaultDistDir(),
  };
}

/** Open the store, run `fn`, always close. */
export function withStore<T>(ctx: CliContext, fn: (store: Store) => T): T {
  const store = ctx.openStore();
  try {
    return fn(store);
  } finally {
    store.close();
  }
}

export function printJson(ctx: CliContext, value: unknown): void {
  ctx.io.out(`${JSON.stringify(value, null, 2)}\n`);
}
