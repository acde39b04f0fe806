/**
 * Embed memories and store their vectors: one embedder call for the batch, one write transaction for
 * the vectors. What the worker does in the background, and what benches and tests do up front.
 */
import type { Embedder } from '../core/ports.ts';
import type { Store } from '../store/store.ts';
import type { EmbeddingSource } from '../store/vectors-repo.ts';
import { embeddingText } from './embedding-text.ts';

/** Returns how many vectors were stored. */
export async function embedMemories(
  store: Store,
  embedder: Embedder,
  batch: readonly EmbeddingSource[],
  options: { at: number; signal?: AbortSignal },
): Promise<number> {
  if (batch.length === 0) return 0;
  const vectors = await embedder.embed(batch.map(embeddingText), 'document', options.signal);
  return store.transaction(() =>
    store.vectors.upsert(
      embedder.id,
      batch.map((b, i) => ({
        observationId: b.observationId,
        projectId: b.projectId,
        vector: vectors[i] as Float32Array,
      })),
      options.at,
    ),
  );
}
