/**
 * The sqlite-vec loader for composition roots that search vectors (CLI, MCP server, worker, bench).
 * Kept out of `store.ts` so the hook bundles never include or load the extension, and the package
 * itself is loaded only when a store first asks for vectors (not by every command that opens one).
 */
import { createRequire } from 'node:module';
import type * as SqliteVec from 'sqlite-vec';
import type { VectorExtensionLoader } from './vectors-repo.ts';

export const loadSqliteVec: VectorExtensionLoader = (db) =>
  (createRequire(import.meta.url)('sqlite-vec') as typeof SqliteVec).load(db);
