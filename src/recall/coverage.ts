/**
 * Coverage: the share of a query's words a memory holds, word families included ("painted" counts for
 * "painting"). Compiled once per query, applied to many memories.
 */
import type { Observation } from '../core/model.ts';

/** A light suffix stripper, so "studies"/"study" and "painted"/"painting"/"paint" compare equal. */
export function stem(word: string): string {
  if (word.length <= 3) return word;
  return word
    .replace(/(?:ies|ied)$/, 'y')
    .replace(/(?:ing|ed|es|s|ly|er)$/, '')
    .replace(/([^aeiou])\1$/, '$1')
    .replace(/e$/, '');
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A pattern for the words whose `stem` equals the term's: the root, perhaps its last consonant doubled
 * or an "e", then one of the suffixes `stem` strips ("paint" finds painted, painting, paints).
 */
function termPattern(term: string): RegExp {
  const root = stem(term);
  const last = root.at(-1) ?? '';
  const body =
    root.endsWith('y') && root.length > 3 ? `${escapeRegExp(root.slice(0, -1))}(?:y|i)` : escapeRegExp(root);
  const double = /[a-z]/.test(last) && !/[aeiou]/.test(last) ? `${last}?` : '';
  return new RegExp(
    `(?<![\\p{L}\\p{N}])${body}${double}e?(?:ies|ied|ing|ed|es|s|ly|er|e|y)?(?![\\p{L}\\p{N}])`,
    'iu',
  );
}

/** Every text of a memory a query's words are looked for in (content, concepts, files). */
export function searchableText(o: Observation): string {
  return [
    o.title,
    o.subtitle,
    o.narrative,
    ...o.facts,
    ...o.concepts,
    ...o.filesModified,
    ...o.filesRead,
  ].join('\n');
}

/**
 * Compiled term patterns kept between searches: compiling one costs about a millisecond (the Unicode
 * letter and number classes), testing it microseconds, and the same words come back query after query.
 */
const PATTERNS = new Map<string, RegExp>();
const PATTERNS_KEPT = 2000;

function cachedPattern(term: string): RegExp {
  let pattern = PATTERNS.get(term);
  if (pattern === undefined) {
    if (PATTERNS.size >= PATTERNS_KEPT) PATTERNS.clear();
    PATTERNS.set(term, (pattern = termPattern(term)));
  }
  return pattern;
}

/** Share of `terms` found in a memory (0..1); compile once per query, apply to many memories. */
export function coverageMatcher(terms: readonly string[]): (o: Observation) => number {
  // Each term's root as plain text first: a cheap substring test rules most memories out before any
  // regular expression runs (and the expression is compiled only once a memory gets that far).
  const checks = terms.map((t) => {
    const root = stem(t.toLowerCase());
    return {
      term: t,
      probe: root.endsWith('y') && root.length > 3 ? root.slice(0, -1) : root,
      pattern: null as RegExp | null,
    };
  });
  return (o) => {
    if (checks.length === 0) return 0;
    const text = searchableText(o).toLowerCase();
    let hit = 0;
    for (const c of checks)
      if (text.includes(c.probe) && (c.pattern ??= cachedPattern(c.term)).test(text)) hit++;
    return hit / checks.length;
  };
}
