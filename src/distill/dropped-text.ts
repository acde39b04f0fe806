/**
 * What a document stopped saying: the word pairs an edit took out of it ("arb bot", "1inch v3", "DEX
 * Trades") and did not write back. A claim the session made earlier about that file — a commit
 * message's account, a report's sentence — that names such a pair no longer describes the file: the
 * session itself took it back (a user's correction acted on, a review fix). Evidence from the edit,
 * not from how anyone phrased the correction.
 */
import type { ObservationDraft } from '../core/model.ts';

/** Words too common to make a pair telling ("in the", "of a"). */
const COMMON = new Set(
  'a an the of to in on at by for with from and or but nor is are was were be been being it its this that these those as if then than so not no yes do does did has have had will would can could should may might must we you they he she i our your their his her them us me my'.split(
    ' ',
  ),
);

/** A document: prose whose sentences are claims (code is told by its symbols; see staleFinding). */
export const isDocument = (path: string): boolean =>
  /\.(?:md|mdx|markdown|rst|adoc|txt)$/i.test(path) || /(?:^|\/)(?:README|CHANGELOG|NOTES)[^/]*$/i.test(path);

/** The pairs a file may hold at most before the rest are left out (a whole rewrite drops many). */
const MAX_PAIRS = 400;

/** The text's words in order: lower-case, letters and digits with inner `-` or `_`. */
const wordsOf = (text: string): string[] => text.toLowerCase().match(/[a-z0-9]+(?:[-_][a-z0-9]+)*/g) ?? [];

/** A pair worth comparing: neither word common, and one of them a word of three letters or more. */
const telling = (a: string, b: string) =>
  !COMMON.has(a) && !COMMON.has(b) && (/[a-z]{3}/.test(a) || /[a-z]{3}/.test(b));

/** The text's telling word pairs ("arb bot"), each within a clause (no pair across a comma or a stop). */
export function pairsOf(text: string): Set<string> {
  const out = new Set<string>();
  for (const clause of text.split(/[.,;:!?()[\]{}"“”'`|*#>\n]+/)) {
    const words = wordsOf(clause);
    for (let i = 0; i + 1 < words.length; i++) {
      const [a, b] = [words[i] as string, words[i + 1] as string];
      if (telling(a, b)) out.add(`${a} ${b}`);
    }
  }
  return out;
}

/**
 * The pairs `before` held that `after` does not: what an edit took out and did not write back. Both
 * are the whole file where it is known, else the replaced text and its replacement.
 */
export function droppedPairs(before: string, after: string): string[] {
  if (before === '') return [];
  const kept = pairsOf(after);
  return [...pairsOf(before)].filter((p) => !kept.has(p)).slice(0, MAX_PAIRS);
}

/** The first of `pairs` that `text` says, word after word; '' when none. */
export function saysAny(text: string, pairs: ReadonlySet<string>): string {
  if (pairs.size === 0) return '';
  for (const p of pairsOf(text)) if (pairs.has(p)) return p;
  return '';
}

/**
 * An earlier memory about `path` without the claims the file no longer supports: its commit
 * message's account ("commit says: …") and its narrative's sentences that name a dropped pair, with a
 * note of what the file stopped saying. Null when it claims none of them.
 */
export function withoutDroppedClaims(
  memory: Pick<ObservationDraft, 'facts' | 'narrative'>,
  path: string,
  dropped: ReadonlySet<string>,
): Pick<ObservationDraft, 'facts' | 'narrative'> | null {
  const named: string[] = [];
  const facts = memory.facts.filter((f) => {
    const pair = f.startsWith('commit says:') ? saysAny(f, dropped) : '';
    if (pair !== '') named.push(pair);
    return pair === '';
  });
  const sentences = memory.narrative.split(/(?<=[.!?])\s+/);
  const kept = sentences.filter((s) => {
    const pair = saysAny(s, dropped);
    if (pair !== '') named.push(pair);
    return pair === '';
  });
  if (named.length === 0) return null;
  const note = `later in the session: ${path} no longer says “${named[0]}”`;
  return {
    facts: facts.includes(note) ? facts : [...facts, note],
    // A narrative is never emptied: with every sentence taken back, the note says what no longer holds.
    narrative: kept.length === sentences.length || kept.length === 0 ? memory.narrative : kept.join(' '),
  };
}
