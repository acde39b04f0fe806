/**
 * Search over memories: FTS5 BM25 candidates (field-weighted, identifier-aware, sanitised query),
 * optionally fused with vector neighbours, then ranked (see rank.ts): relevance × recency × type ×
 * status, context from session neighbours (before and after a match), a little spread over sessions. Project-scoped unless asked
 * for every project; superseded and invalidated memories only when asked for; forgotten ones never.
 */
import type { StaleMark } from '../core/graph.ts';
import type { ProjectId } from '../core/ids.ts';
import type { Observation, ObservationType } from '../core/model.ts';
import type { Store } from '../store/store.ts';
import { parseQuery } from './fts-query.ts';
import {
  lexicalRelevance,
  pickDiverse,
  priorFactor,
  propagateContext,
  rankItem,
  type RankItem,
} from './rank.ts';
import { candidates } from './candidates.ts';
import { coverageMatcher } from './coverage.ts';
import { expansionTerms } from './feedback.ts';

/** What the nearest vector neighbour adds to a memory's score, against up to 2 for a full lexical match. */
const VECTOR_WEIGHT = 0.5;

export interface SearchOptions {
  query: string;
  /** null = every project. */
  projectId: ProjectId | null;
  limit: number;
  now: number;
  /** Only memories of these types. */
  types?: readonly ObservationType[];
  /** Superseded and invalidated memories too (ranked lower). */
  includeHidden?: boolean;
  /** Vector neighbours of the query, best first (from an embedder; see hybrid search). */
  vectorIds?: readonly string[];
  /** Each neighbour's cosine distance, in the order of vectorIds (absent: closeness by rank). */
  vectorDistances?: readonly number[];
  /** Lend score to session neighbours of strong matches (default true). */
  context?: boolean;
  /** Expand the query with words of its best matches (pseudo-relevance feedback; default true). */
  feedback?: boolean;
}

export interface RankedHit {
  observation: Observation;
  /** Final score (higher is better; comparable within one search only). */
  score: number;
  /** Share of the query's words the memory contains (0..1). */
  coverage: number;
  /** BM25 from FTS5 (lower is better); 0 when the memory did not match lexically. */
  bm25: number;
  /** How the memory was found. */
  via: 'lexical' | 'vector' | 'both' | 'context';
  /** The code it describes changed since (ranked down, shown as stale); null when current. */
  stale: StaleMark | null;
}

/** How much a stale memory's score keeps (the code it describes changed since). */
export const STALE_WEIGHT = 0.6;

/** BM25 candidates read per search (more when many results or a type filter are asked for). */
const CANDIDATES = 100;

export function searchMemories(store: Store, options: SearchOptions): RankedHit[] {
  const limit = Math.max(1, Math.min(200, Math.floor(options.limit)));
  const parsed = parseQuery(options.query);
  const wanted = (o: Pick<RankItem, 'type' | 'status' | 'projectId'>) =>
    (!options.types || options.types.length === 0 || options.types.includes(o.type)) &&
    (options.includeHidden ? o.status !== 'forgotten' : o.status === 'active') &&
    (options.projectId === null || o.projectId === options.projectId);
  const pool = Math.max(CANDIDATES, limit * 5) * (options.types && options.types.length > 0 ? 4 : 1);
  const hits = candidates(store, parsed.expressions, options, pool);
  const coverage = coverageMatcher(parsed.coverageTerms);
  const byId = new Map<string, Observation>();
  const lexical = new Map<string, { bm25: number; coverage: number }>();
  for (const h of hits) {
    const share = coverage(h.observation);
    // A newest-memories candidate (no BM25) that holds none of the words is no match.
    if (h.rank === 0 && share === 0) continue;
    byId.set(h.observation.id, h.observation);
    lexical.set(h.observation.id, { bm25: h.rank, coverage: share });
  }
  const best = hits[0]?.rank ?? 0;
  const base = new Map<string, number>();
  for (const [id, l] of lexical) base.set(id, lexicalRelevance(l.coverage, l.bm25, best));
  if (options.feedback !== false)
    expandFromFeedback(store, options, parsed.coverageTerms, pool, {
      byId,
      lexical,
      base,
      coverage,
    });

  const vectorIds = (options.vectorIds ?? []).filter((id) => {
    const o = byId.get(id) ?? store.observations.get(id);
    if (!o || !wanted(o)) return false;
    byId.set(id, o);
    return true;
  });
  // The vector half adds each neighbour's closeness (1 for the nearest found, 0 for the farthest) to
  // its lexical score at VECTOR_WEIGHT: a memory found in other words comes in, and one both halves
  // find goes up, but the lexical order is never replaced. (Fusing reciprocal ranks instead cost the
  // lexical ranking even with the vector list weighed at nothing: LoCoMo turn R@10 0.690 → 0.614.)
  if (vectorIds.length > 0) {
    const given = new Map((options.vectorIds ?? []).map((id, i) => [id, options.vectorDistances?.[i]]));
    const distances = vectorIds.map((id) => given.get(id)).filter((d): d is number => d !== undefined);
    const near = Math.min(...distances);
    const far = Math.max(...distances);
    vectorIds.forEach((id, i) => {
      const d = given.get(id);
      const closeness =
        d === undefined || distances.length < vectorIds.length
          ? 1 - i / vectorIds.length
          : far > near
            ? (far - d) / (far - near)
            : 1;
      base.set(id, (base.get(id) ?? 0) + VECTOR_WEIGHT * closeness);
    });
  }
  if (base.size === 0) return [];

  const items = new Map<string, RankItem>([...byId].map(([id, o]) => [id, rankItem(o)]));
  const scored =
    options.context === false
      ? base
      : propagateContext(base, items, (id) => store.observations.neighboursInSession(id));
  const ranking = { now: options.now };
  const final = new Map<string, number>();
  const stale = store.anchors.staleOf([...scored.keys()]);
  for (const [id, s] of scored) {
    const o = items.get(id);
    if (!o || !wanted(o)) continue;
    final.set(id, s * priorFactor(o, ranking) * (stale.has(id) ? STALE_WEIGHT : 1));
  }
  const vectorSet = new Set(vectorIds);
  const picked = pickDiverse(final, (id) => items.get(id)?.sessionId ?? null, limit);
  const out: RankedHit[] = [];
  for (const { id, score } of picked) {
    // Neighbours brought in by context were read briefly: read them whole now, only the few shown.
    const o = byId.get(id) ?? store.observations.get(id);
    if (!o) continue;
    const l = lexical.get(id);
    out.push({
      observation: o,
      score,
      coverage: l?.coverage ?? coverage(o),
      bm25: l?.bm25 ?? 0,
      via: l && vectorSet.has(id) ? 'both' : l ? 'lexical' : vectorSet.has(id) ? 'vector' : 'context',
      stale: stale.get(id) ?? null,
    });
  }
  return out;
}

/**
 * At most this many of the best matches are read as feedback, and at most one in
 * FEEDBACK_SHARE_OF_MATCHES of what the query matched: feedback from half of a tiny result set is the
 * result set itself, and its words only reorder it. The expansion words count FEEDBACK_SHARE as much
 * as the query's own; document frequencies are probed against at most FEEDBACK_DF_CAP memories (the
 * probe itself stops at half of that: see expansionTerms).
 */
const FEEDBACK_MEMORIES = 5;
const FEEDBACK_SHARE_OF_MATCHES = 8;
const FEEDBACK_SHARE = 0.5;
const FEEDBACK_DF_CAP = 2_000;
/** Memories read for the expanded query (fewer than for the query itself: they only add). */
const FEEDBACK_POOL = 20;

/**
 * Pseudo-relevance feedback (see feedback.ts): the words the best matches share, added with a smaller
 * weight; memories that hold them gain, and memories found only through them become candidates.
 */
function expandFromFeedback(
  store: Store,
  options: SearchOptions,
  queryTerms: readonly string[],
  pool: number,
  state: {
    byId: Map<string, Observation>;
    lexical: Map<string, { bm25: number; coverage: number }>;
    base: Map<string, number>;
    coverage: (o: Observation) => number;
  },
): void {
  const top = [...state.base]
    .sort((a, b) => b[1] - a[1])
    .slice(0, Math.min(FEEDBACK_MEMORIES, Math.floor(state.base.size / FEEDBACK_SHARE_OF_MATCHES)))
    .flatMap(([id, score]) => {
      const observation = state.byId.get(id);
      return observation ? [{ observation, score }] : [];
    });
  const size = Math.max(1, Math.min(FEEDBACK_DF_CAP, store.observations.sizeEstimate()));
  const df = (term: string, atMost: number) => store.observations.matchCount(quoteTerm(term), atMost);
  const expansion = expansionTerms(top, queryTerms, df, size);
  if (expansion.length === 0) return;
  const more = candidates(
    store,
    expansion.map((e) => quoteTerm(e.term)),
    options,
    Math.min(pool, Math.max(FEEDBACK_POOL, 2 * options.limit)),
  );
  const expanded = coverageMatcher(
    expansion.map((e) => e.term),
    expansion.map((e) => e.weight),
  );
  for (const h of more) {
    if (state.byId.has(h.observation.id)) continue;
    state.byId.set(h.observation.id, h.observation);
    const share = state.coverage(h.observation);
    state.lexical.set(h.observation.id, { bm25: 0, coverage: share });
    state.base.set(h.observation.id, lexicalRelevance(share, 0, 0));
  }
  for (const [id, score] of state.base) {
    const o = state.byId.get(id);
    if (o) state.base.set(id, score + FEEDBACK_SHARE * expanded(o));
  }
}

const quoteTerm = (term: string) => `"${term.replace(/"/g, '""')}"`;
