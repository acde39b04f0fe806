/**
 * Search candidates at a bounded cost, whatever the size of the store.
 */
import type { ProjectId } from '../core/ids.ts';
import type { SearchHit } from '../store/observations-repo.ts';
import type { ReadStore } from '../store/read-store.ts';

/** A term found in more memories than this is "common": BM25 over it would read all its postings. */
const COMMON_AT = 300;
/** At most this many distinctive terms go into the BM25 query (the rarest ones). */
const MAX_SCORED_TERMS = 6;
/** How many of the newest memories stand in for BM25 when the distinctive terms find too little. */
const NEWEST = 50;

/**
 * Candidates at a bounded cost whatever the store's size: BM25 over the query's distinctive terms
 * (each found in at most COMMON_AT memories, counted by a capped probe; the rarest MAX_SCORED_TERMS of
 * them), and, when those find too
 * little, the newest memories (of the project, through its recency index; or, over every project, the
 * newest matching any term), unscored: their coverage ranks them, and those with none are dropped by
 * the caller. In a store of a few hundred memories few terms are common, so this is plain BM25 there.
 */
export function candidates(
  store: ReadStore,
  expressions: readonly string[],
  options: { projectId: ProjectId | null; limit: number; includeHidden?: boolean },
  pool: number,
  /** Counts already probed (with a cap above COMMON_AT) by expression: not probed again. */
  probed?: ReadonlyMap<string, number>,
): SearchHit[] {
  if (expressions.length === 0) return [];
  const includeHidden = options.includeHidden ?? false;
  const counts = expressions.map((e) => probed?.get(e) ?? store.observations.matchCount(e, COMMON_AT + 1));
  // The rarest few distinctive terms bound BM25's work; coverage still counts every term.
  const distinctive = expressions
    .map((e, i) => ({ e, n: counts[i] ?? 0 }))
    .filter(({ n }) => n > 0 && n <= COMMON_AT)
    .sort((a, b) => a.n - b.n)
    .slice(0, MAX_SCORED_TERMS)
    .map(({ e }) => e);
  const common = expressions.filter((_, i) => (counts[i] ?? 0) > COMMON_AT);
  const hits =
    distinctive.length > 0
      ? store.observations.search(distinctive.join(' OR '), options.projectId, pool, { includeHidden })
      : [];
  if (common.length === 0 || hits.length >= Math.min(pool, 2 * options.limit)) return hits;
  const seen = new Set(hits.map((h) => h.observation.id));
  const newest =
    options.projectId !== null && !includeHidden
      ? store.observations.recent(options.projectId, NEWEST).map((observation) => ({ observation, rank: 0 }))
      : store.observations.search(common.join(' OR '), options.projectId, NEWEST, {
          includeHidden,
          order: 'newest',
        });
  return [...hits, ...newest.filter((h) => !seen.has(h.observation.id))];
}
