import { describe, expect, it } from 'vitest';
import { identifierParts } from '../core/identifiers.ts';
import type { Observation } from '../core/model.ts';
import { searchableText, stem } from './coverage.ts';
import { relevanceMatcher, type WeightedTerm } from './prompt-relevance.ts';

/** A memory's words as relevance read them before it remembered stems and read ASCII text apart. */
function wordsBefore(o: Observation): Set<string> {
  const text = searchableText(o);
  const out = new Set<string>();
  for (const m of text.toLowerCase().matchAll(/[\p{L}\p{N}_]+/gu)) {
    const word = m[0];
    out.add(stem(word));
    if (word.includes('_')) for (const part of word.split('_')) if (part.length >= 2) out.add(stem(part));
  }
  for (const part of identifierParts(text)) out.add(stem(part));
  return out;
}

function relevanceBefore(terms: readonly WeightedTerm[], o: Observation) {
  const total = terms.reduce((n, t) => n + t.weight, 0);
  if (total === 0) return { share: 0, matched: 0 };
  const words = wordsBefore(o);
  let matched = 0;
  for (const t of terms) if (words.has(stem(t.term))) matched += t.weight;
  return { share: matched / total, matched };
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
});
