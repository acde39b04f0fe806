/**
 * Finding and erasing a phrase (a leaked secret, a name) in stored text, whatever its letter case, in
 * plain text and inside JSON (where quotes, backslashes and control characters are escaped).
 */

/** What an erased phrase is replaced with. */
export const ERASED = '[erased]';

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The forms a phrase takes in stored text: as written, and as it appears inside a JSON string. */
export function phraseForms(phrase: string): string[] {
  const json = JSON.stringify(phrase).slice(1, -1);
  return json === phrase ? [phrase] : [phrase, json];
}

/** A matcher for every form of the phrase, case-insensitive. */
export function phrasePattern(phrase: string): RegExp {
  return new RegExp(phraseForms(phrase).map(escapeRe).join('|'), 'gi');
}

/** How many times the phrase occurs in `text`. */
export function countPhrase(text: string, pattern: RegExp): number {
  pattern.lastIndex = 0;
  let n = 0;
  while (pattern.exec(text) !== null) n++;
  return n;
}

/** `text` with every occurrence replaced by ERASED. */
export function erasePhrase(text: string, pattern: RegExp): string {
  pattern.lastIndex = 0;
  return text.replace(pattern, ERASED);
}

/**
 * A matcher for the phrase's words (3 letters or more), for lists of keywords derived from text
 * (concepts): a name erased from the text must not stay behind as "jane" and "doe".
 */
export function phraseWordsPattern(phrase: string): RegExp | null {
  const words = phrase.split(/[^\p{L}\p{N}_]+/u).filter((w) => w.length >= 3);
  return words.length === 0 ? null : new RegExp(words.map(escapeRe).join('|'), 'i');
}

/** Refuses phrases too short to erase safely (a letter or two would wreck unrelated text). */
export function checkPhrase(phrase: string): string | null {
  const trimmed = phrase.trim();
  if (trimmed.length < 3) return 'the phrase must be at least 3 characters';
  if (trimmed === ERASED.slice(1, -1) || ERASED.toLowerCase().includes(trimmed.toLowerCase()))
    return `the phrase may not be part of "${ERASED}"`;
  return null;
}
