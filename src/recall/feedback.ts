/**
 * Query expansion from the store itself (pseudo-relevance feedback): the best few memories a query
 * finds are read as if the user had marked them relevant, and the words they share — weighed by how
 * often they occur there and how rare they are in the store — are added to the query with a smaller
 * weight. A question asked in other words ("why does the push fail?") then also finds the memory that
 * uses the stored words ("rejected: no upstream branch") when a first match holds both.
 *
 * Pure over what the caller gives (the feedback memories, a document-frequency probe); no SQL here.
 */
import type { Observation } from '../core/model.ts';
import { identifierParts } from '../core/identifiers.ts';
import { searchableText, stem } from './coverage.ts';
import { contentTerms } from './fts-query.ts';

export interface FeedbackOptions {
  /** Expansion words kept (default 8). */
  terms?: number;
  /** A word must occur in at least this many of the feedback memories (default 2). */
  minDocs?: number;
  /** Words looked at per memory (default 64). */
  wordsPerMemory?: number;
}

export interface ExpansionTerm {
  term: string;
  /** Relative weight, 0..1 (the best expansion word is 1). */
  weight: number;
}

/** Words probed for their document frequency per expansion word kept. */
const PROBED_PER_KEPT = 3;

/** Inverse document frequency of a word held by `df` of `n` memories. */
const idf = (df: number, n: number) => Math.log(1 + n / (df + 1));

/**
 * Expansion words from the feedback memories (best first, each with its relevance share `score`):
 * words held by at least `minDocs` of them, not already in the query (by stem), weighed by
 * Σ score × presence, times their rarity in the store (`df`, `size`). Words found in more than half of
 * the store weigh nothing, so `df` is asked to count only up to `atMost` (one past that half): a probe
 * of a word found in most memories stops there, and the weights are what an exact count gives.
 */
export function expansionTerms(
  feedback: readonly { observation: Observation; score: number }[],
  queryTerms: readonly string[],
  df: (term: string, atMost: number) => number,
  size: number,
  options: FeedbackOptions = {},
): ExpansionTerm[] {
  const minDocs = options.minDocs ?? 2;
  if (feedback.length < minDocs) return [];
  const inQuery = new Set(queryTerms.map((t) => stem(t.toLowerCase())));
  const top = Math.max(...feedback.map((f) => f.score));
  if (!(top > 0)) return [];
  const mass = new Map<string, { term: string; weight: number; docs: number }>();
  for (const { observation, score } of feedback) {
    const text = searchableText(observation);
    const words = new Set([
      ...contentTerms(text, options.wordsPerMemory ?? 64),
      ...identifierParts(text).filter((p) => p.length >= 3),
    ]);
    const seenStems = new Set<string>();
    for (const word of words) {
      if (word.length < 3 || /^\d+$/.test(word) || word.includes('_')) continue;
      const s = stem(word);
      if (inQuery.has(s) || seenStems.has(s)) continue;
      seenStems.add(s);
      const entry = mass.get(s) ?? { term: word, weight: 0, docs: 0 };
      entry.weight += score / top;
      entry.docs++;
      mass.set(s, entry);
    }
  }
  const n = Math.max(1, size);
  const kept = options.terms ?? 8;
  const atMost = Math.floor(n / 2) + 1;
  // Only the words with the most feedback mass are probed for their rarity (one capped count each).
  const weighed = [...mass.values()]
    .filter((e) => e.docs >= minDocs)
    .sort((a, b) => b.weight - a.weight || (a.term < b.term ? -1 : 1))
    .slice(0, kept * PROBED_PER_KEPT)
    .map((e) => {
      const count = Math.min(df(e.term, atMost), atMost);
      // A word in more than half of the store says nothing about this query.
      const rarity = count > n / 2 ? 0 : idf(count, n);
      return { term: e.term, weight: e.weight * rarity };
    })
    .filter((e) => e.weight > 0)
    .sort((a, b) => b.weight - a.weight || (a.term < b.term ? -1 : 1))
    .slice(0, kept);
  const best = weighed[0]?.weight ?? 0;
  return best > 0 ? weighed.map((e) => ({ term: e.term, weight: e.weight / best })) : [];
}
