/**
 * Ranking: pure functions from candidate memories to an ordered list.
 *
 * score = relevance × recency × type weight × status weight, where relevance is the share of the
 * query's words a memory holds plus its BM25 (normalised to the best candidate), or, in a hybrid
 * search, the reciprocal-rank fusion of the lexical and vector rankings. A strong match then lends part
 * of its score to its neighbours in the same session (the step before it and the step after it), and
 * results are spread over sessions a little so one long session cannot fill the whole list.
 */
import type { Observation, ObservationStatus, ObservationType } from '../core/model.ts';

/** What ranking needs of a memory (a full observation, or a brief one from the store). */
export type RankItem = Pick<Observation, 'id' | 'projectId' | 'sessionId' | 'type' | 'status' | 'createdAt'>;

/** A full observation as a rank item. */
export function rankItem(o: Observation): RankItem {
  return {
    id: o.id,
    projectId: o.projectId,
    sessionId: o.sessionId,
    type: o.type,
    status: o.status,
    createdAt: o.createdAt,
  };
}

const DAY_MS = 86_400_000;

export interface RankingOptions {
  now: number;
  /** Days for the recency factor to lose half of its range (default 30). */
  halfLifeDays?: number;
  /** The recency factor never goes below this (default 0.75): old but relevant memories still rank. */
  recencyFloor?: number;
}

/** How much a memory's type matters when two are equally relevant. */
export const TYPE_WEIGHT: Readonly<Record<ObservationType, number>> = {
  correction: 1.15,
  decision: 1.15,
  preference: 1.1,
  convention: 1.1,
  gotcha: 1.1,
  bugfix: 1.05,
  failed_attempt: 1.05,
  feature: 1,
  refactor: 1,
  change: 1,
  discovery: 1,
  fact: 1,
  error: 0.95,
  task: 0.9,
};

/** Hidden memories (shown only when asked for) rank below live ones. */
export const STATUS_WEIGHT: Readonly<Record<ObservationStatus, number>> = {
  active: 1,
  superseded: 0.5,
  invalidated: 0.4,
  archived: 0.3,
  forgotten: 0,
};

/** 1 for a memory made now, falling towards `floor` with age. */
export function recencyFactor(createdAt: number, options: RankingOptions): number {
  const floor = options.recencyFloor ?? 0.75;
  const halfLife = (options.halfLifeDays ?? 30) * DAY_MS;
  const age = Math.max(0, options.now - createdAt);
  return floor + (1 - floor) * 2 ** (-age / halfLife);
}

export function priorFactor(o: RankItem, options: RankingOptions): number {
  return recencyFactor(o.createdAt, options) * (TYPE_WEIGHT[o.type] ?? 1) * (STATUS_WEIGHT[o.status] ?? 0);
}

/** Lexical relevance: coverage (0..1) plus BM25 relative to the best candidate (0..1). */
export function lexicalRelevance(coverage: number, bm25: number, bestBm25: number): number {
  const strength = bestBm25 < 0 ? Math.max(0, bm25 / bestBm25) : 0;
  return coverage + strength;
}

/** The active memories just before and just after one in its session (none, one or two). */
export type NeighbourLookup = (id: string) => readonly RankItem[];

export interface ContextOptions {
  /** How many of the best matches lend score to their neighbours (default 20). */
  sources?: number;
  /** Matches scoring under this share of the best lend nothing (default 0.25). */
  minShare?: number;
  /** Share of a match's score each of its neighbours gets (default 0.3). */
  share?: number;
}

/**
 * Lend part of the best matches' scores to their neighbours in the session, the memory before and the
 * memory after alike: the step that led to a match (the failure a fix answers, the request a change
 * carries out) and the step that followed it (the fix after a failure, the outcome after a plan) are
 * about the same thing in other words. A neighbour that did not match itself becomes a candidate. The
 * same share both ways, whatever a memory says: no rule reads a question or an answer.
 */
export function propagateContext(
  scores: Map<string, number>,
  items: Map<string, RankItem>,
  neighboursOf: NeighbourLookup,
  options: ContextOptions = {},
): Map<string, number> {
  const ranked = [...scores].sort((a, b) => b[1] - a[1]);
  const floor = (ranked[0]?.[1] ?? 0) * (options.minShare ?? 0.25);
  const sources = ranked.slice(0, options.sources ?? 20).filter(([, score]) => score > 0 && score >= floor);
  const share = options.share ?? 0.3;
  const out = new Map(scores);
  for (const [id, score] of sources) {
    const source = items.get(id);
    if (!source || source.sessionId === null) continue;
    for (const neighbour of neighboursOf(id)) {
      if (!items.has(neighbour.id)) items.set(neighbour.id, neighbour);
      out.set(neighbour.id, (out.get(neighbour.id) ?? 0) + share * score);
    }
  }
  return out;
}

/**
 * The best `limit` ids, each further pick from a session already picked multiplied by `spread` per
 * earlier pick (1 = plain order).
 */
export function pickDiverse(
  scores: Map<string, number>,
  sessionOf: (id: string) => string | null,
  limit: number,
  spread = 0.95,
): { id: string; score: number }[] {
  const rest = [...scores].sort((a, b) => b[1] - a[1]).slice(0, Math.max(limit * 8, 50));
  const picked: { id: string; score: number }[] = [];
  const perSession = new Map<string, number>();
  while (picked.length < limit && rest.length > 0) {
    let best = 0;
    let bestScore = -Infinity;
    for (let i = 0; i < rest.length; i++) {
      const [id, score] = rest[i] as [string, number];
      const session = sessionOf(id);
      const adjusted = session === null ? score : score * spread ** (perSession.get(session) ?? 0);
      if (adjusted > bestScore) {
        bestScore = adjusted;
        best = i;
      }
    }
    const [id, score] = rest.splice(best, 1)[0] as [string, number];
    const session = sessionOf(id);
    if (session !== null) perSession.set(session, (perSession.get(session) ?? 0) + 1);
    picked.push({ id, score });
  }
  return picked;
}
