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

const SUFFIXES = 'e?(?:ies|ied|ing|ed|es|s|ly|er|e|y)?';

/** The part of a term's pattern between the word boundaries: its root, a doubled consonant, a suffix. */
function wordBody(term: string): { root: string; middle: string } {
  const root = stem(term);
  const last = root.at(-1) ?? '';
  const body =
    root.endsWith('y') && root.length > 3 ? `${escapeRegExp(root.slice(0, -1))}(?:y|i)` : escapeRegExp(root);
  const double = /[a-z]/.test(last) && !/[aeiou]/.test(last) ? `${last}?` : '';
  return { root, middle: `${body}${double}${SUFFIXES}` };
}

/**
 * A pattern for the words whose `stem` equals the term's: the root, perhaps its last consonant doubled
 * or an "e", then one of the suffixes `stem` strips ("paint" finds painted, painting, paints).
 */
export function termPattern(term: string): RegExp {
  return new RegExp(`(?<![\\p{L}\\p{N}])${wordBody(term).middle}(?![\\p{L}\\p{N}])`, 'iu');
}

/** A letter or digit as the patterns' case-insensitive Unicode classes see one (compiled once). */
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/iu;
const WORD_REST = /[\p{L}\p{N}]*/iuy;

function startsWord(text: string, at: number): boolean {
  if (at === 0) return true;
  const before = text.charCodeAt(at - 1);
  const pair = before >= 0xdc00 && before <= 0xdfff && at >= 2 && /[\uD800-\uDBFF]/.test(text[at - 2] ?? '');
  return !LETTER_OR_DIGIT.test(text.slice(pair ? at - 2 : at - 1, at));
}

/**
 * What `termPattern(term).test` answers, without compiling the Unicode classes per term (about a
 * millisecond each): for a root of ASCII letters and digits every character a match holds is a letter,
 * so a match is a whole word — found where the root occurs, at a word start, up to the word's end.
 * Other roots use the pattern itself.
 */
export function termTest(term: string): { test(text: string): boolean } {
  const { root, middle } = wordBody(term);
  if (!/^[a-z0-9]+$/i.test(root)) return termPattern(term);
  const find = new RegExp(middle, 'giu');
  const whole = new RegExp(`^(?:${middle})$`, 'iu');
  return {
    test(text) {
      find.lastIndex = 0;
      for (let m = find.exec(text); m !== null; m = find.exec(text)) {
        const at = m.index;
        if (startsWord(text, at)) {
          WORD_REST.lastIndex = at;
          WORD_REST.exec(text);
          if (whole.test(text.slice(at, WORD_REST.lastIndex))) return true;
        }
        find.lastIndex = at + 1;
      }
      return false;
    },
  };
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
 * Compiled term tests kept between searches: the same words come back query after query, and a
 * pattern of a root that is not plain ASCII still compiles the Unicode classes (about a millisecond).
 */
const PATTERNS = new Map<string, { test(text: string): boolean }>();
const PATTERNS_KEPT = 2000;

function cachedPattern(term: string): { test(text: string): boolean } {
  let pattern = PATTERNS.get(term);
  if (pattern === undefined) {
    if (PATTERNS.size >= PATTERNS_KEPT) PATTERNS.clear();
    PATTERNS.set(term, (pattern = termTest(term)));
  }
  return pattern;
}

/**
 * Share of `terms` found in a memory (0..1); compile once per query, apply to many memories. With
 * `weights` (one per term, e.g. how rare the word is in the store) the share is weighted: a memory that
 * holds the query's rare words covers more of it than one that holds only its common ones.
 */
export function coverageMatcher(
  terms: readonly string[],
  weights?: readonly number[],
): (o: Observation) => number {
  // Each term's root as plain text first: a cheap substring test rules most memories out before any
  // regular expression runs (and the expression is compiled only once a memory gets that far).
  const checks = terms.map((t, i) => {
    const root = stem(t.toLowerCase());
    return {
      term: t,
      weight: weights?.[i] ?? 1,
      probe: root.endsWith('y') && root.length > 3 ? root.slice(0, -1) : root,
      pattern: null as { test(text: string): boolean } | null,
    };
  });
  const total = checks.reduce((n, c) => n + c.weight, 0);
  return (o) => {
    if (checks.length === 0 || total <= 0) return 0;
    const text = searchableText(o).toLowerCase();
    let hit = 0;
    for (const c of checks)
      if (text.includes(c.probe) && (c.pattern ??= cachedPattern(c.term)).test(text)) hit += c.weight;
    return hit / total;
  };
}
