/**
 * Background embedding: active memories without a vector for the configured embedder are embedded in
 * small batches, after distillation and never in its way. The task runs beside the worker loop (it is
 * never awaited by a round); a failed or timed-out batch is logged and retried after a growing pause
 * (5 s doubling to 5 min). Nothing is lost on failure: "missing" is read from the store each time.
 */
import { describeError } from '../core/errors.ts';
import type { Clock, Embedder, Logger } from '../core/ports.ts';
import { embeddingText } from '../recall/embedding-text.ts';
import type { Store } from '../store/store.ts';

export interface EmbedPendingDeps {
  store: Store;
  embedder: Embedder;
  logger: Logger;
  clock: Clock;
  batchSize: number;
  timeoutMs: number;
  signal: AbortSignal;
}

/** Embed one batch of missing memories; returns how many got a vector (0: nothing was missing). */
export async function embedOneBatch(deps: EmbedPendingDeps): Promise<number> {
  const { store, embedder } = deps;
  const batch = store.vectors.missing(embedder.id, deps.batchSize);
  if (batch.length === 0) return 0;
  const signal = AbortSignal.any([deps.signal, AbortSignal.timeout(deps.timeoutMs)]);
  const vectors = await embedder.embed(batch.map(embeddingText), 'document', signal);
  const at = deps.clock.now();
  return store.transaction(() =>
    store.vectors.upsert(
      embedder.id,
      batch.map((b, i) => ({
        observationId: b.observationId,
        projectId: b.projectId,
        vector: vectors[i] as Float32Array,
      })),
      at,
    ),
  );
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
  const pass = async (): Promise<void> => {
    let total = 0;
    try {
      while (!deps.signal.aborted) {
        const n = await embedOneBatch(deps);
        if (n === 0) break;
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
      running = pass().finally(() => {
        running = null;
      });
    },
    lastProgressAt: () => progressAt,
    settled: () => running ?? Promise.resolve(),
  };
}
