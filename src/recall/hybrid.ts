/**
 * Hybrid search: the lexical ranking (FTS5 + coverage, recall/search) fused with the nearest vectors
 * of the configured embedder by reciprocal rank fusion. Vectors only ever add: with no embedder, no
 * vectors yet, or an embedder that fails or is slow (past `queryTimeoutMs`), the result is the
 * lexical ranking and `vectorError` says why.
 */
import { describeError } from '../core/errors.ts';
import type { ProjectId } from '../core/ids.ts';
import type { Observation } from '../core/model.ts';
import type { Embedder } from '../core/ports.ts';
import type { Store } from '../store/store.ts';
import { searchMemories } from './search.ts';

/** The usual RRF constant: damps the head of each list so agreement between lists wins. */
export const RRF_K = 60;

export interface FusedId {
  id: string;
  score: number;
}

/**
 * Reciprocal rank fusion: score(id) = Σ over lists of 1 / (k + rank), rank from 1. Ties keep the order
 * of first appearance (earlier lists, then earlier ranks). Duplicates within a list count once.
 */
export function fuseRankings(lists: readonly (readonly string[])[], k = RRF_K): FusedId[] {
  const scores = new Map<string, number>();
  for (const list of lists) {
    const seen = new Set<string>();
    list.forEach((id, index) => {
      if (seen.has(id)) return;
      seen.add(id);
      scores.set(id, (scores.get(id) ?? 0) + 1 / (k + index + 1));
    });
  }
  return [...scores].map(([id, score]) => ({ id, score })).sort((a, b) => b.score - a.score);
}

export interface HybridOptions {
  query: string;
  projectId: ProjectId | null;
  limit: number;
  /** Longest wait for the query's embedding (default 3000 ms). */
  queryTimeoutMs?: number;
  /** Candidates taken from each list before fusion (default max(30, 3 × limit)). */
  candidates?: number;
  signal?: AbortSignal;
}

export interface HybridHit {
  observation: Observation;
  /** RRF score (higher is better). */
  score: number;
  /** 1-based rank in the lexical list, or null when only the vectors found it. */
  lexicalRank: number | null;
  /** 1-based rank among the vector neighbours, or null. */
  vectorRank: number | null;
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
  const { query, projectId, limit } = options;
  const candidates = options.candidates ?? Math.max(30, limit * 3);
  const lexical = searchMemories(store, query, projectId, candidates);
  const lexicalOnly = (why: string): HybridResult => ({
    hits: lexical.slice(0, limit).map((h, i) => ({
      observation: h.observation,
      score: 1 / (RRF_K + i + 1),
      lexicalRank: i + 1,
      vectorRank: null,
      distance: null,
    })),
    mode: 'lexical',
    vectorError: why,
  });
  if (!embedder) return lexicalOnly('no embedder configured');
  if (store.vectors.count(embedder.id) === 0)
    return lexicalOnly(`no memories embedded yet by ${embedder.id}`);

  let neighbours: { observationId: string; distance: number }[];
  try {
    const timeout = AbortSignal.timeout(options.queryTimeoutMs ?? 3000);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    const [vector] = await embedder.embed([query], 'query', signal);
    if (!vector) return lexicalOnly('the embedder returned no vector');
    neighbours = store.vectors.knn(embedder.id, vector, projectId, candidates);
  } catch (error) {
    return lexicalOnly(describeError(error));
  }

  const lexicalIds = lexical.map((h) => h.observation.id as string);
  const vectorIds = neighbours.map((n) => n.observationId);
  const known = new Map<string, Observation>(lexical.map((h) => [h.observation.id, h.observation]));
  const distance = new Map(neighbours.map((n) => [n.observationId, n.distance]));
  const hits: HybridHit[] = [];
  for (const { id, score } of fuseRankings([lexicalIds, vectorIds])) {
    if (hits.length >= limit) break;
    const observation = known.get(id) ?? store.observations.get(id);
    if (!observation || observation.status !== 'active') continue;
    const l = lexicalIds.indexOf(id);
    const v = vectorIds.indexOf(id);
    hits.push({
      observation,
      score,
      lexicalRank: l === -1 ? null : l + 1,
      vectorRank: v === -1 ? null : v + 1,
      distance: distance.get(id) ?? null,
    });
  }
  return { hits, mode: 'hybrid', vectorError: null };
}
