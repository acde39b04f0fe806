/**
 * The search verb: hybrid search (lexical alone without an embedder) over a project or every project,
 * each hit with the parts of its score, its project's name and who on the team wrote it. The CLI, MCP's
 * search tool, the viewer's search API and its search page all ask here, so one query finds the same
 * memories in the same order whichever surface asks.
 */
import { EngramError } from '../core/errors.ts';
import type { ProjectId } from '../core/ids.ts';
import { statusesOf, type MemoryFilter } from '../core/memory-filter.ts';
import type { Observation, ObservationType } from '../core/model.ts';
import type { Embedder } from '../core/ports.ts';
import { buildFtsQuery } from '../recall/fts-query.ts';
import { hybridSearch, type HybridHit } from '../recall/hybrid.ts';
import { recencyFactor, STATUS_WEIGHT, TYPE_WEIGHT } from '../recall/rank.ts';
import { STALE_WEIGHT } from '../recall/search.ts';
import { teamNotesOf, type TeamNote } from '../recall/team-notes.ts';
import type { Store } from '../store/store.ts';

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
  /** How it was found; `context`: lent its place by a neighbouring match in its session. */
  via: 'lexical' | 'vector' | 'both' | 'context';
  /** Cosine distance to the query when the vectors found it. */
  distance: number | null;
}

export interface SearchHit {
  memory: Observation;
  parts: ScoreParts;
  /** Its project's name (null when the project is unknown). */
  project: string | null;
  /** Who on the team wrote it and who disagrees (shared projects only). */
  team: TeamNote | undefined;
}

export interface SearchResult {
  query: string;
  mode: 'lexical' | 'hybrid';
  /** Why the vector half did not run. */
  vectorError: string | null;
  /** The embedder's id (null: lexical search only). */
  embedder: string | null;
  hits: SearchHit[];
}

export interface SearchDeps {
  store: Store;
  embedder: Embedder | null;
  /** Longest wait for the query's embedding before searching lexically only. */
  queryTimeoutMs?: number | undefined;
}

export interface SearchInput {
  query: string;
  /** null: every project. */
  projectId: ProjectId | null;
  limit: number;
  now: number;
  types?: readonly ObservationType[] | undefined;
  /** Also superseded, invalidated and archived memories. */
  includeHidden?: boolean | undefined;
  /** The viewer's list filters beyond project and type: statuses, sources, session, dates, staleness. */
  filter?: MemoryFilter | undefined;
  /** For the agent: a quarantined memory's text awaits a person and is left out. */
  forAgent?: boolean | undefined;
}

function partsOf(h: HybridHit, now: number): ScoreParts {
  const o = h.observation;
  const recency = recencyFactor(o.createdAt, { now });
  const typeWeight = TYPE_WEIGHT[o.type] ?? 1;
  const statusWeight = STATUS_WEIGHT[o.status] ?? 0;
  const staleWeight = h.stale ? STALE_WEIGHT : 1;
  const prior = recency * typeWeight * statusWeight * staleWeight;
  return {
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
  };
}

/** What a filter keeps of the hits (its statuses, sources, session, dates, staleness). */
function keeper(filter: MemoryFilter | undefined): (h: HybridHit) => boolean {
  if (!filter) return () => true;
  const statuses = statusesOf(filter);
  return ({ observation: o, stale }) =>
    (filter.stale === undefined || filter.stale === (stale !== null)) &&
    statuses.includes(o.status) &&
    (!filter.sources?.length || filter.sources.includes(o.source)) &&
    (!filter.sessionId || o.sessionId === filter.sessionId) &&
    (filter.from === undefined || o.createdAt >= filter.from) &&
    (filter.to === undefined || o.createdAt < filter.to);
}

/** The search verb. INPUT_INVALID when the query has no word to search for. */
export async function search(deps: SearchDeps, input: SearchInput): Promise<SearchResult> {
  const { store, embedder } = deps;
  if (!embedder && !buildFtsQuery(input.query))
    throw new EngramError('INPUT_INVALID', 'the query has no searchable words', {
      hint: 'Use content words, e.g. "token refresh bug".',
    });
  const filter = input.filter;
  const hidden =
    input.includeHidden === true || (filter ? statusesOf(filter).some((s) => s !== 'active') : false);
  // A filter past project and type is applied to the ranked hits: ask for more to keep enough.
  const narrowed =
    filter !== undefined &&
    (statusesOf(filter).some((s) => s !== 'active') ||
      Boolean(filter.sources?.length) ||
      Boolean(filter.sessionId) ||
      filter.from !== undefined ||
      filter.to !== undefined ||
      filter.stale !== undefined);
  const types = input.types?.length ? input.types : filter?.types;
  const result = await hybridSearch(store, embedder, {
    query: input.query,
    projectId: input.projectId,
    limit: narrowed ? Math.min(200, input.limit * 4) : input.limit,
    now: input.now,
    ...(types?.length ? { types: [...types] } : {}),
    includeHidden: hidden,
    ...(deps.queryTimeoutMs ? { queryTimeoutMs: deps.queryTimeoutMs } : {}),
  });
  const keep = keeper(filter);
  const found = result.hits
    .filter((h) => keep(h) && !(input.forAgent && h.observation.review === 'held'))
    .slice(0, input.limit);
  const names = projectNames(store, input.projectId);
  const team = teamNotesOf(
    store,
    found.map((h) => h.observation),
  );
  return {
    query: input.query,
    mode: result.mode,
    vectorError: result.vectorError,
    embedder: embedder?.id ?? null,
    hits: found.map((h) => ({
      memory: h.observation,
      parts: partsOf(h, input.now),
      project: names(h.observation.projectId),
      team: team.get(h.observation.id),
    })),
  };
}

/** Project names: the one project searched, or every project's (a scan) for a search over all. */
function projectNames(store: Store, projectId: ProjectId | null): (id: string) => string | null {
  if (projectId !== null) {
    const name = store.sessions.project(projectId)?.name ?? null;
    return (id) => (id === projectId ? name : (store.sessions.project(id as ProjectId)?.name ?? null));
  }
  const names = new Map(store.sessions.projectStats().map((p) => [p.id as string, p.name]));
  return (id) => names.get(id) ?? null;
}
