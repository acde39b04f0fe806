/**
 * Lexical search: FTS5 BM25 candidates, re-ranked by the share of the query's distinct terms each
 * memory contains (a memory that answers every word beats one that repeats a single word), then by
 * BM25. Hidden statuses (superseded, invalidated, forgotten) are never returned.
 */
import type { ProjectId } from '../core/ids.ts';
import type { Observation } from '../core/model.ts';
import type { Store } from '../store/store.ts';
import { buildFtsQuery, contentTerms } from './fts-query.ts';
import { termCoverage } from './render-context.ts';

export interface RankedHit {
  observation: Observation;
  /** Share of the query's terms the memory contains (0..1). */
  coverage: number;
  /** BM25 from FTS5 (lower is better). */
  bm25: number;
}

export function searchMemories(
  store: Store,
  query: string,
  projectId: ProjectId | null,
  limit: number,
): RankedHit[] {
  const fts = buildFtsQuery(query);
  if (!fts) return [];
  const terms = contentTerms(query);
  return store.observations
    .search(fts, projectId, Math.max(50, limit * 5))
    .map((h) => ({ observation: h.observation, bm25: h.rank, coverage: termCoverage(terms, h.observation) }))
    .sort((a, b) => b.coverage - a.coverage || a.bm25 - b.bm25)
    .slice(0, limit);
}
