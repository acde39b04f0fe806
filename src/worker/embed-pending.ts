/**
 * Background embedding: active memories without a vector for the configured embedder are embedded in
 * small batches, after distillation and never in its way. The task runs beside the worker loop (it is
 * never awaited by a round); a failed or timed-out batch is logged and retried after a growing pause
 * (5 s doubling to 5 min). Nothing is lost on failure: "missing" is read from the store each time.
 * A batch the embedder refuses (EMBED_REJECTED: a text it will never take) is retried one memory at a
 * time, and a memory refused on its own is skipped for the life of the worker, so one bad text never
 * holds the others back.
 */
import { deadline } from '../core/deadline.ts';
import { describeError, isEngramError } from '../core/errors.ts';
import type { Clock, Embedder, Logger } from '../core/ports.ts';
import { embedMemories } from '../recall/embed-memories.ts';
import type { Store } from '../store/store.ts';
import type { EmbeddingSource } from '../store/vectors-repo.ts';

export interface EmbedPendingDeps {
  store: Store;
  embedder: Embedder;
  logger: Logger;
  clock: Clock;
  batchSize: number;
  timeoutMs: number;
  signal: AbortSignal;
}

/** The next memories to embed: missing ones, newest first, leaving out `skip`. */
export function pickBatch(
  deps: EmbedPendingDeps,
  size: number,
  skip: ReadonlySet<string>,
): EmbeddingSource[] {
  return deps.store.vectors
    .missing(deps.embedder.id, size + skip.size)
    .filter((m) => !skip.has(m.observationId))
    .slice(0, size);
}

/** Embed a batch and store its vectors in one transaction; returns how many were stored. */
export async function embedBatch(deps: EmbedPendingDeps, batch: readonly EmbeddingSource[]): Promise<number> {
  const limit = deadline(deps.timeoutMs, deps.signal);
  return embedMemories(deps.store, deps.embedder, batch, {
    at: deps.clock.now(),
    signal: limit.signal,
  }).finally(limit.clear);
}

const FIRST_BACKOFF_MS = 5000;
const MAX_BACKOFF_MS = 300_000;

export interface EmbedScheduler {
  /** Start a background pass if none runs and no back-off is in force. Never throws, never waits. */
  tick(now: number): void;
  /** Time of the last batch that embedded something (0: none yet). */
  lastProgressAt(): number;
  /** Resolves when the pass in flight (if any) has ended. */
  settled(): Promise<void>;
}

export function createEmbedScheduler(deps: EmbedPendingDeps): EmbedScheduler {
  let running: Promise<void> | null = null;
  let retryAt = 0;
  let backoff = FIRST_BACKOFF_MS;
  let progressAt = 0;
  let failures = 0;
  /** Memories the embedder refused on their own: never sent again by this worker. */
  const refused = new Set<string>();
  /** After a refused batch, memories go one by one until the refused one is found. */
  let oneByOne = 0;
  /**
   * The change log's newest entry when a pass last found nothing left to embed: until memory changes
   * (a memory added, edited or restored), the search for missing vectors (a walk over every memory once
   * all are embedded) is not run again.
   */
  let doneUpTo = -1;
  const pass = async (): Promise<void> => {
    let total = 0;
    const newest = deps.store.changes.lastSeq();
    try {
      while (!deps.signal.aborted) {
        const batch = pickBatch(deps, oneByOne > 0 ? 1 : deps.batchSize, refused);
        if (batch.length === 0) {
          doneUpTo = newest;
          break;
        }
        let n: number;
        try {
          n = await embedBatch(deps, batch);
        } catch (error) {
          if (!isEngramError(error, 'EMBED_REJECTED')) throw error;
          if (batch.length > 1) {
            oneByOne = batch.length;
            continue;
          }
          const bad = (batch[0] as EmbeddingSource).observationId;
          refused.add(bad);
          deps.logger.warn('the embedder refuses this memory; skipped', {
            embedder: deps.embedder.id,
            observation: bad,
            error: describeError(error),
          });
          continue;
        }
        if (oneByOne > 0) oneByOne--;
        total += n;
        progressAt = deps.clock.now();
      }
      if (failures > 0) deps.logger.info('embedder reachable again', { embedder: deps.embedder.id });
      failures = 0;
      backoff = FIRST_BACKOFF_MS;
    } catch (error) {
      if (deps.signal.aborted) return;
      failures++;
      retryAt = deps.clock.now() + backoff;
      deps.logger.warn('embedding failed; will retry', {
        embedder: deps.embedder.id,
        error: describeError(error),
        retryInMs: backoff,
        failures,
      });
      backoff = Math.min(MAX_BACKOFF_MS, backoff * 2);
    } finally {
      if (total > 0) {
        deps.logger.info('embedded memories', { embedder: deps.embedder.id, count: total });
        try {
          const id = deps.embedder.id;
          if (deps.store.transaction(() => deps.store.vectors.prepareIndex(id)))
            deps.logger.info('built the vector index', { embedder: id });
        } catch (error) {
          // Search builds the index itself when it needs it; this is only done ahead of time.
          deps.logger.warn('could not build the vector index', { error: describeError(error) });
        }
      }
    }
  };
  return {
    tick(now: number): void {
      if (running || now < retryAt || deps.signal.aborted) return;
      if (doneUpTo >= 0 && deps.store.changes.lastSeq() === doneUpTo) return;
      running = pass().finally(() => {
        running = null;
      });
    },
    lastProgressAt: () => progressAt,
    settled: () => running ?? Promise.resolve(),
  };
}
