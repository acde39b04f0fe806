/**
 * The store: every repository over one connection. SQL lives only in this layer.
 */
import { noteHighWater } from './store-mark.ts';
import { scrubText } from '../core/scrub.ts';
import type { Db } from './database.ts';
import { writeTransaction } from './database.ts';
import { createAnchorsRepo } from './anchors-repo.ts';
import { createChangesRepo, type ChangesRepo } from './changes-repo.ts';
import { createContextLogRepo } from './context-log-repo.ts';
import { createEventsRepo } from './events-repo.ts';
import { createGraphFilesRepo } from './graph-files-repo.ts';
import { createGraphRepo } from './graph-repo.ts';
import { createInjectionsRepo } from './injections-repo.ts';
import { createLinkIndexes } from './link-indexes.ts';
import { createLlmLedgerRepo } from './llm-ledger-repo.ts';
import { createMemoryListRepo } from './memory-list-repo.ts';
import { createMemoryStatsRepo } from './memory-stats-repo.ts';
import { createMemoryWriter } from './memory-writer.ts';
import { createObservationsRepo } from './observations-repo.ts';
import { createPendingForgetsRepo } from './pending-forgets-repo.ts';
import { createSessionListRepo } from './session-list-repo.ts';
import { createSessionsRepo } from './sessions-repo.ts';
import { createSummariesRepo } from './summaries-repo.ts';
import { createTeamRepo } from './team-repo.ts';
import { createTranscriptsRepo } from './transcripts-repo.ts';
import { createVaultRepo } from './vault-repo.ts';
import { isSameProcess } from './process-identity.ts';
import { createVectorsRepo, type VectorExtensionLoader } from './vectors-repo.ts';
import { createWorkerLockRepo } from './worker-lock-repo.ts';

export interface StoreOptions {
  /** Loads sqlite-vec for vector search (CLI, MCP, worker); the hooks never pass it. */
  loadVectorExtension?: VectorExtensionLoader | undefined;
}

/**
 * `base` with one read-only property per maker, each made on first read and kept: a hook process uses
 * three or four repositories, and making all of them costs a context hook about 1.5 ms.
 */
function withLazy<B extends object, M extends Record<string, () => unknown>>(
  base: B,
  makers: M,
): B & { readonly [K in keyof M]: ReturnType<M[K]> } {
  for (const [key, make] of Object.entries(makers)) {
    let made: { value: unknown } | null = null;
    Object.defineProperty(base, key, { enumerable: true, get: () => (made ??= { value: make() }).value });
  }
  return base as B & { readonly [K in keyof M]: ReturnType<M[K]> };
}

export function createStore(db: Db, options: StoreOptions = {}) {
  const base = {
    db,
    /** Run `fn` atomically as one write transaction. */
    transaction<T>(fn: () => T): T {
      return writeTransaction(db, fn);
    },
    /** Close; a read-write store first raises the change log's high-water mark (store-mark.ts). */
    close(): void {
      noteHighWater(db, Date.now());
      db.close();
    },
  };
  let changeLog: ChangesRepo | null = null;
  const changes = (): ChangesRepo => (changeLog ??= createChangesRepo(db));
  return withLazy(base, {
    /** The change log every mutation appends to. */
    changes,
    /** The one way to change memories, summaries and links (scrubbed, versioned, logged). */
    memory: () => createMemoryWriter(db, changes()),
    events: () => createEventsRepo(db),
    sessions: () => createSessionsRepo(db),
    observations: () => createObservationsRepo(db),
    summaries: () => createSummariesRepo(db, scrubText),
    /** Team sync bookkeeping (outbox, cursors, authors, conflicts, teammates' project state). */
    team: () => createTeamRepo(db),
    injections: () => createInjectionsRepo(db),
    contextLog: () => createContextLogRepo(db),
    memoryList: () => createMemoryListRepo(db),
    memoryStats: () => createMemoryStatsRepo(db),
    sessionList: () => createSessionListRepo(db),
    pendingForgets: () => createPendingForgetsRepo(db),
    transcripts: () => createTranscriptsRepo(db),
    llmLedger: () => createLlmLedgerRepo(db),
    workerLock: () => createWorkerLockRepo(db, isSameProcess),
    vectors: () => createVectorsRepo(db, { loadExtension: options.loadVectorExtension }),
    /** The memory graph: reads over memories, edges and sessions; file nodes; anchors (staleness). */
    graph: () => createGraphRepo(db),
    graphFiles: () => createGraphFilesRepo(db),
    /** The links table's secondary indexes, put off while a one-shot catch-up fills a (nearly) empty table. */
    linkIndexes: () => createLinkIndexes(db),
    anchors: () => createAnchorsRepo(db),
    /** Obsidian vaults kept in step with the store. */
    vaults: () => createVaultRepo(db),
  });
}

export type Store = ReturnType<typeof createStore>;
