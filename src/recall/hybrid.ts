/**
 * Hybrid search: the query's nearest vectors from the configured embedder, fused with the lexical
 * candidates by reciprocal rank fusion inside the one ranking pipeline (recall/search). Vectors only
 * ever add: with no embedder, no vectors yet, or an embedder that fails or is slow (past
 * `queryTimeoutMs`), the result is the lexical ranking and `vectorError` says why.
 */
import { deadline } from '../core/deadline.ts';
import { describeError } from '../core/errors.ts';
import type { Embedder } from '../core/ports.ts';
import type { Store } from '../store/store.ts';
import { searchMemories, type RankedHit, type SearchOptions } from './search.ts';

export interface HybridOptions extends Omit<SearchOptions, 'vectorIds' | 'vectorDistances'> {
  /** Longest wait for the query's embedding (default 3000 ms). */
  queryTimeoutMs?: number;
  /** Nearest vectors taken before fusion (default max(30, 3 × limit)). */
  candidates?: number;
  signal?: AbortSignal;
}

export interface HybridHit extends RankedHit {
  /** Cosine distance to the query, when the vectors found it. */
  distance: number | null;
}

export interface HybridResult {
  hits: HybridHit[];
  /** What actually ran: both halves, or the lexical half alone. */
  mode: 'hybrid' | 'lexical';
  /** Why the vector half did not run (no embedder, nothing embedded yet, an error). */
  vectorError: string | null;
}

export async function hybridSearch(
  store: Store,
  embedder: Embedder | null,
  options: HybridOptions,
): Promise<HybridResult> {
  const { queryTimeoutMs, candidates, signal, ...search } = options;
  const lexicalOnly = (why: string): HybridResult => ({
    hits: searchMemories(store, search).map((h) => ({ ...h, distance: null })),
    mode: 'lexical',
    vectorError: why,
  });
  if (!embedder) return lexicalOnly('no embedder configured');
  if (store.vectors.count(embedder.id) === 0)
    return lexicalOnly(`no memories embedded yet by ${embedder.id}`);
  let neighbours: { observationId: string; distance: number }[];
  try {
    const limit = deadline(queryTimeoutMs ?? 3000, signal);
    const [vector] = await embedder.embed([search.query], 'query', limit.signal).finally(limit.clear);
    if (!vector) return lexicalOnly('the embedder returned no vector');
    neighbours = store.vectors.knn(
      embedder.id,
      vector,
      search.projectId,
      candidates ?? Math.max(30, search.limit * 3),
    );
  } catch (error) {
    return lexicalOnly(describeError(error));
  }
  const distance = new Map(neighbours.map((n) => [n.observationId, n.distance]));
  const hits = searchMemories(store, {
    ...search,
    vectorIds: neighbours.map((n) => n.observationId),
    vectorDistances: neighbours.map((n) => n.distance),
  });
  return {
    hits: hits.map((h) => ({ ...h, distance: distance.get(h.observation.id) ?? null })),
    mode: 'hybrid',
    vectorError: null,
  };
}
