import { describe, expect, it } from 'vitest';
import { identifierParts } from '../core/identifiers.ts';
import type { Observation } from '../core/model.ts';
import { stem } from './coverage.ts';
import { createStemMemo, relevanceMatcher, relevanceText, type WeightedTerm } from './prompt-relevance.ts';

/**
 * A memory's words as relevance read them before it remembered stems and read ASCII text apart: the
 * stems of its words, and apart those of its identifiers' parts that are not also words of it.
 */
function wordsBefore(o: Observation): { words: Set<string>; parts: Set<string> } {
  const text = relevanceText(o);
  const words = new Set<string>();
  const parts = new Set<string>();
  for (const m of text.toLowerCase().matchAll(/[\p{L}\p{N}_]+/gu)) {
    const word = m[0];
    words.add(stem(word));
    if (word.includes('_')) for (const part of word.split('_')) if (part.length >= 2) parts.add(stem(part));
  }
  for (const part of identifierParts(text)) parts.add(stem(part));
  for (const word of words) parts.delete(word);
  return { words, parts };
}

function relevanceBefore(terms: readonly WeightedTerm[], o: Observation) {
  const total = terms.reduce((n, t) => n + t.weight, 0);
  if (total === 0) return { share: 0, matched: 0, words: 0, named: false };
  const { words, parts } = wordsBefore(o);
  const held = (t: WeightedTerm | undefined) =>
    t !== undefined && (words.has(stem(t.term)) || parts.has(stem(t.term)));
  let matched = 0;
  let count = 0;
  terms.forEach((t, i) => {
    const s = stem(t.term);
    if (words.has(s)) matched += t.weight;
    else if (parts.has(s)) matched += held(terms[i - 1]) || held(terms[i + 1]) ? t.weight : t.weight / 2;
    else return;
    count++;
  });
  return { share: matched / total, matched, words: count, named: false };
}

const memory = (title: string, narrative: string, facts: string[] = []): Observation =>
  ({
    title,
    subtitle: '',
    narrative,
    facts,
    concepts: ['auth_flow', 'ÉTÉ'],
    filesModified: ['src/auth/TokenStore.ts'],
    filesRead: ['docs/Straße.md'],
  }) as unknown as Observation;

const TEXTS = [
  'HasUncommittedChanges was painted studies',
  'Café déjà vu — the İstanbul KELVIN sign K and ﬁle ligatures',
  'retry_count_limit and __dunder__ names, MAX_RETRIES=3',
  'plain ascii text about tokens, tests and the build',
  '日本語のテキスト and parseJSONResponse in 東京',
  'ΣΊΣΥΦΟΣ σίσυφος, ǅungla, ﬀ',
];
const TERMS = [
  'uncommitted',
  'changes',
  'paint',
  'study',
  'cafe',
  'café',
  'istanbul',
  'kelvin',
  'retry',
  'count',
  'dunder',
  'max',
  'token',
  'test',
  'json',
  'response',
  '東京',
  'σίσυφος',
  'file',
  'auth',
  'flow',
  'store',
  'straße',
  'été',
];

describe('prompt relevance reads a memory\u2019s words as it did before it got faster', () => {
  it('gives the same share and evidence for ASCII and non-ASCII memories', () => {
    const terms: WeightedTerm[] = TERMS.map((term, i) => ({ term, weight: 1 + (i % 5), df: i }));
    const relevance = relevanceMatcher(terms);
    for (const a of TEXTS)
      for (const b of TEXTS) {
        const o = memory(a, b, [`${a} ${b}`]);
        expect(relevance(o), `${a} / ${b}`).toEqual(relevanceBefore(terms, o));
      }
    // and some memory matched something, so the comparison is not between two zeros
    expect(TEXTS.some((t) => relevance(memory(t, t)).matched > 0)).toBe(true);
  });

  it('gives the same answer in the hook (only the words that can match are stemmed) as with the worker’s memo', () => {
    // Words built to meet every rewrite of `stem`: -ies/-ied to y, the suffixes it cuts (after a y:
    // "applies" -> "apply" -> "app"), a doubled consonant, a final e, short words it keeps whole.
    const roots = ['app', 'stud', 'pain', 'plan', 'tok', 'fil', 'stor', 'ru', 'a', 'hop', 'cop', 'yy'];
    const ends = [
      '',
      'ies',
      'ied',
      'lies',
      'lied',
      'ing',
      'ed',
      'es',
      's',
      'ly',
      'er',
      'e',
      'y',
      'ning',
      'ped',
      'yies',
    ];
    const words = roots.flatMap((r) => ends.map((e) => `${r}${e}`));
    const texts = [
      ...TEXTS,
      ...Array.from({ length: 40 }, (_, i) =>
        words
          .filter((_, k) => (k * 7 + i) % 5 === 0)
          .map((w, k) =>
            k % 3 === 0
              ? `${w[0]?.toUpperCase()}${w.slice(1)}Store`
              : k % 3 === 1
                ? `${w}_${w}`
                : `get${w}Of`,
          )
          .join(i % 2 === 0 ? ' ' : '-'),
      ),
    ];
    // Every other word, and the words alone whose stem ends in y (no shorter root among the terms).
    const termSets = [
      [...TERMS, ...words.filter((_, k) => k % 2 === 0)],
      words.filter((w) => stem(w).endsWith('y')),
    ];
    let matched = 0;
    for (const set of termSets) {
      const terms: WeightedTerm[] = set.map((term, i) => ({ term, weight: 1 + (i % 7) / 3, df: i }));
      const inHook = relevanceMatcher(terms);
      const inWorker = relevanceMatcher(terms, createStemMemo());
      for (const a of texts)
        for (const b of texts.slice(0, 8)) {
          const o = set === termSets[1] ? { ...memory(a, b), concepts: [], filesRead: [] } : memory(a, b);
          const before = relevanceBefore(terms, o);
          expect(inHook(o), `${a} / ${b}`).toEqual(before);
          expect(inWorker(o), `${a} / ${b}`).toEqual(before);
          if (before.matched > 0) matched++;
        }
    }
    expect(matched).toBeGreaterThan(100);
    // A word held only as the first part of an identifier, alone in its memory.
    let alone = 0;
    for (const w of words) {
      const terms: WeightedTerm[] = [{ term: w, weight: 1, df: 1 }];
      // ASCII alone: the hook then looks for identifiers only in the runs that hold a root.
      const o = { ...memory(`${w[0]?.toUpperCase()}${w.slice(1)}Store`, 'x'), concepts: [], filesRead: [] };
      const before = relevanceBefore(terms, o);
      expect(relevanceMatcher(terms)(o), w).toEqual(before);
      if (before.matched > 0) alone++;
    }
    expect(alone).toBeGreaterThan(50);
  });
});
