/**
 * The sqlite-vec loader for composition roots that search vectors (CLI, MCP server, worker, bench).
 * Kept out of `store.ts` so the hook bundles never include or load the extension.
 */
import * as sqliteVec from 'sqlite-vec';
import type { VectorExtensionLoader } from './vectors-repo.ts';

export const loadSqliteVec: VectorExtensionLoader = (db) => sqliteVec.load(db);
