/**
 * User text → a safe FTS5 query. Every term is quoted, so operators, quotes, parentheses and column
 * filters in the input are just words; nothing a user types can break or steer the query.
 */

const STOPWORDS = new Set(
  `a about above after again all also am an and any are as at be because been before being below between both
  but by can could did do does doing done down during each few for from further had has have having he her here
  hers him his how i if in into is it its itself just let me more most my no nor not now of off on once only or
  other our out over own please same she should so some such than that the their them then there these they this
  those through to too under until up very was we were what when where which while who whom why will with would
  you your yours yourself can't don't won't isn't it's i'm let's could should make sure thing things want need
  use using used get got go going know like look see try way well also just really`.split(/\s+/),
);

/** Split text into search terms: words, identifiers and paths broken at punctuation; lower-cased. */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  for (const match of text.toLowerCase().matchAll(/[\p{L}\p{N}_]+/gu)) {
    const word = match[0];
    if (word.length > 64) continue;
    out.push(word);
  }
  return out;
}

/** Distinct content words of `text`, in order of first appearance, at most `max`. */
export function contentTerms(text: string, max = 16): string[] {
  const seen = new Set<string>();
  for (const word of tokenize(text)) {
    if (word.length < 2 || STOPWORDS.has(word) || /^\d{1,2}$/.test(word)) continue;
    seen.add(word);
    if (seen.size >= max) break;
  }
  return [...seen];
}

/** An FTS5 MATCH expression that ORs the quoted terms; null when there is nothing to search for. */
export function buildFtsQuery(text: string, max = 16): string | null {
  const terms = contentTerms(text.slice(0, 4000), max);
  if (terms.length === 0) return null;
  return terms.map((t) => `"${t.replace(/"/g, '""')}"`).join(' OR ');
}
