/**
 * What the viewer reads about memories, shared by the JSON API and the pages: the JSON shape of a
 * memory, a filtered page of the list (keyset cursor), and search hits with the parts of their score.
 */
import { EngramError } from '../../core/errors.ts';
import { statusesOf, type MemoryFilter } from '../../core/memory-filter.ts';
import type { Observation } from '../../core/model.ts';
import type { Embedder } from '../../core/ports.ts';
import { hybridSearch } from '../../recall/hybrid.ts';
import { recencyFactor, STATUS_WEIGHT, TYPE_WEIGHT } from '../../recall/rank.ts';
import { STALE_WEIGHT } from '../../recall/search.ts';
import type { ListCursor } from '../../store/memory-list-repo.ts';
import type { Store } from '../../store/store.ts';

/** Opaque page cursors: `<createdAt>.<rowid>` of the last memory shown. */
export function encodeCursor(c: ListCursor): string {
  return `${c.createdAt}.${c.rowid}`;
}

export function decodeCursor(text: string | undefined): ListCursor | undefined {
  if (text === undefined || text === '') return undefined;
  const m = /^(\d{1,15})\.(\d{1,15})$/.exec(text);
  if (!m)
    throw new EngramError('INPUT_INVALID', 'that page cursor is not valid', {
      hint: 'Start from the first page.',
    });
  return { createdAt: Number(m[1]), rowid: Number(m[2]) };
}

/** How many memories a count reads at most (a bigger total shows as "more than …"). */
export const COUNT_CAP = 10_000;

export interface MemoryPage {
  items: Observation[];
  /** The cursor of the next page, or null on the last one. */
  next: string | null;
  /** How many memories match, up to COUNT_CAP. */
  total: number;
  /** True when there are more than `total`. */
  capped: boolean;
}

/** One page of a filter's memories, newest first. */
export function listMemories(
  store: Store,
  filter: MemoryFilter,
  options: { cursor?: ListCursor | undefined; limit: number; count?: boolean },
): MemoryPage {
  const keys = store.memoryList.page(filter, options.limit + 1, options.cursor);
  const shown = keys.slice(0, options.limit);
  const items = shown.map((k) => store.observations.get(k.id)).filter((o): o is Observation => o !== null);
  const last = shown[shown.length - 1];
  const total = options.count === false ? -1 : store.memoryList.count(filter, COUNT_CAP);
  return {
    items,
    next: keys.length > options.limit && last ? encodeCursor(last) : null,
    total: Math.min(total, COUNT_CAP),
    capped: total > COUNT_CAP,
  };
}

/** Why a hit ranks where it does: score = relevance × recency × type × status × staleness. */
export interface ScoreParts {
  score: number;
  /** Lexical (and vector, fused) relevance, with what session neighbours lent. */
  relevance: number;
  /** Share of the query's words the memory holds (0..1). */
  coverage: number;
  /** FTS5 BM25 (lower is better; 0 when it did not match lexically). */
  bm25: number;
  recency: number;
  typeWeight: number;
  statusWeight: number;
  /** 1, or what a stale memory keeps of its score. */
  staleWeight: number;
  /** Since when and why its code changed, when it is stale. */
  stale: { since: number; reason: string } | null;
  via: 'lexical' | 'vector' | 'both' | 'context';
  /** Cosine distance to the query when the vectors found it. */
  distance: number | null;
}

export interface SearchPage {
  mode: 'lexical' | 'hybrid';
  vectorError: string | null;
  hits: { memory: Observation; parts: ScoreParts }[];
}

/** Search with a filter: ranked hits, each with the parts of its score. */
export async function searchWithParts(
  store: Store,
  embedder: Embedder | null,
  filter: MemoryFilter & { query: string },
  options: { limit: number; now: number; queryTimeoutMs: number },
): Promise<SearchPage> {
  const statuses = statusesOf(filter);
  const hidden = statuses.some((s) => s !== 'active');
  const narrowed =
    hidden ||
    filter.sources?.length ||
    filter.sessionId ||
    filter.from !== undefined ||
    filter.to !== undefined ||
    filter.stale !== undefined;
  const result = await hybridSearch(store, embedder, {
    query: filter.query,
    projectId: filter.projectId ?? null,
    limit: narrowed ? Math.min(200, options.limit * 4) : options.limit,
    now: options.now,
    ...(filter.types?.length ? { types: filter.types } : {}),
    includeHidden: hidden,
    queryTimeoutMs: options.queryTimeoutMs,
  });
  const keep = (o: Observation, stale: boolean) =>
    (filter.stale === undefined || filter.stale === stale) &&
    statuses.includes(o.status) &&
    (!filter.sources?.length || filter.sources.includes(o.source)) &&
    (!filter.sessionId || o.sessionId === filter.sessionId) &&
    (filter.from === undefined || o.createdAt >= filter.from) &&
    (filter.to === undefined || o.createdAt < filter.to);
  const hits = result.hits
    .filter((h) => keep(h.observation, h.stale !== null))
    .slice(0, options.limit)
    .map((h) => {
      const o = h.observation;
      const recency = recencyFactor(o.createdAt, { now: options.now });
      const typeWeight = TYPE_WEIGHT[o.type] ?? 1;
      const statusWeight = STATUS_WEIGHT[o.status] ?? 0;
      const staleWeight = h.stale ? STALE_WEIGHT : 1;
      const prior = recency * typeWeight * statusWeight * staleWeight;
      return {
        memory: o,
        parts: {
          score: h.score,
          relevance: prior > 0 ? h.score / prior : 0,
          coverage: h.coverage,
          bm25: h.bm25,
          recency,
          typeWeight,
          statusWeight,
          staleWeight,
          stale: h.stale,
          via: h.via,
          distance: h.distance,
        },
      };
    });
  return { mode: result.mode, vectorError: result.vectorError, hits };
}
