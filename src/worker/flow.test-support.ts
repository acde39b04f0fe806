/**
 * Test support for the worker's end-to-end flows: a real SQLite store in a temporary folder for each
 * test (made before it, removed after it), and the worker's drain over it with the heuristic distiller
 * reading transcripts, as the worker runs it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { createMemoryLogger } from '../core/ports.ts';
import { createHeuristicDistiller } from '../distill/heuristic-distiller.ts';
import { openDatabase } from '../store/database.ts';
import { createStore, type Store } from '../store/store.ts';
import { drainOnce } from './drain.ts';

/** One drain round over `store` at `now` (`force`: turns still open count as finished). */
export const drainStore = (store: Store, now: number, force = false) =>
  drainOnce(
    { store, distiller: createHeuristicDistiller(), logger: createMemoryLogger(), readTranscripts: true },
    { force, now, staleTurnMs: 15 * 60_000, maxAttempts: 3 },
  );

/** A fresh store and folder for each test of the calling suite; read them inside a test. */
export function useFlowStore(prefix: string): { readonly store: Store; readonly dir: string } {
  const current: { store: Store | null; dir: string } = { store: null, dir: '' };
  beforeEach(() => {
    current.dir = mkdtempSync(join(tmpdir(), `engram-${prefix}-`));
    current.store = createStore(openDatabase(join(current.dir, 'engram.db')));
  });
  afterEach(() => {
    current.store?.close();
    rmSync(current.dir, { recursive: true, force: true });
  });
  return {
    get store() {
      if (!current.store) throw new Error('the flow store is made before each test');
      return current.store;
    },
    get dir() {
      return current.dir;
    },
  };
}
