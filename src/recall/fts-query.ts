/**
 * User text → a safe FTS5 query. Every term is quoted, so operators, quotes, parentheses and column
 * filters in the input are just words; nothing a user types can break or steer the query.
 *
 * What the user may say on purpose: `"a phrase"` (those words in that order) and `prefix*` (any word
 * that starts so). A path such as `src/auth/token.ts` or a name such as `parse_config` is searched by
 * its words (the index splits them the same way; coverage asks for the whole), and `camelCase` also
 * looks for its parts (the store indexes identifier parts beside the text; see `identifierParts`).
 */

import { identifierParts } from '../core/identifiers.ts';

/**
 * Function words of English (a general stopword list's), and the stems the tokenizer leaves of
 * contractions ("won't" is read as `won` and `t`).
 */
const STOPWORDS = new Set(
  `a about above after again all also am an and any are as at be because been before being below between both
  but by can could did do does doing done down during each few for from further had has have having he her here
  hers him his how i if in into is it its itself just let me more most my no nor not now of off on once only or
  other our out over own please same she should so some such than that the their them then there these they this
  those through to too under until up very was we were what when where which while who whom why will with would
  you your yours yourself can't don't won't isn't it's i'm let's could should make sure thing things want need
  use using used get got go going know like look see try way well also just really
  won don isn didn doesn wasn weren aren shouldn couldn wouldn haven hasn hadn ll ve
  actually already always another anyone anything anyway anywhere else ever every everyone everything
  last least less many maybe often perhaps quite rather someone something sometimes somewhere still
  though whatever whether yet kind kinds`.split(/\s+/),
);

/** A text without a character past ASCII. */
const ASCII_ONLY = /^[^\u0080-\uffff]*$/;

/** Longest query text read; the rest is ignored (a 10 KB paste is still a valid search). */
const MAX_QUERY_CHARS = 4000;
const MAX_WORD_CHARS = 64;

/** Split text into search terms: words, identifiers and paths broken at punctuation; lower-cased. */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  const lower = text.toLowerCase();
  // In ASCII text the Unicode classes are exactly the ASCII ones (a hook's process compiles neither
  // twice, and the ASCII pattern costs next to nothing to compile).
  for (const match of lower.matchAll(ASCII_ONLY.test(lower) ? /[A-Za-z0-9_]+/g : /[\p{L}\p{N}_]+/gu)) {
    const word = match[0];
    if (word.length > MAX_WORD_CHARS) continue;
    out.push(word);
  }
  return out;
}

const isContentWord = (word: string) => word.length >= 2 && !STOPWORDS.has(word) && !/^\d{1,2}$/.test(word);

/** Distinct content words of `text`, in order of first appearance, at most `max`. */
export function contentTerms(text: string, max = 16): string[] {
  const seen = new Set<string>();
  for (const word of tokenize(text)) {
    if (!isContentWord(word)) continue;
    seen.add(word);
    if (seen.size >= max) break;
  }
  return [...seen];
}

/** One unit of a parsed query: a word, a phrase of several words, or a prefix. */
export interface QueryTerm {
  /** The words, lower-cased (several for a phrase, a path or a dotted/underscored identifier). */
  words: string[];
  prefix: boolean;
}

export interface ParsedQuery {
  terms: QueryTerm[];
  /** Content words of the whole query (for coverage scoring), identifier parts included. */
  coverageTerms: string[];
  /** One FTS5 expression per term. */
  expressions: string[];
  /** The FTS5 MATCH expression (terms ORed), or null when there is nothing to search for. */
  fts: string | null;
}

const quote = (words: string[]) => `"${words.join(' ').replace(/"/g, '""')}"`;

function termExpression(t: QueryTerm): string {
  return t.prefix ? `${quote(t.words)}*` : quote(t.words);
}

/**
 * Whether a whitespace-free chunk is `prefix*`, and whether it joins words by `.`, `/`, `_` or `-`
 * (a path or a dotted name); ASCII chunks by the ASCII classes the Unicode ones equal there.
 */
export function chunkShape(chunk: string): { prefix: boolean; joined: boolean } {
  if (ASCII_ONLY.test(chunk))
    return {
      prefix: /^[A-Za-z0-9_][A-Za-z0-9_./-]*\*$/.test(chunk),
      joined: /[A-Za-z0-9][./_-][A-Za-z0-9]/.test(chunk),
    };
  return {
    prefix: /^[\p{L}\p{N}_][\p{L}\p{N}_./-]*\*$/u.test(chunk),
    joined: /[\p{L}\p{N}][./_-][\p{L}\p{N}]/u.test(chunk),
  };
}

/** Parse user text into quoted FTS5 terms; hostile input yields plain words or nothing, never an error. */
export function parseQuery(text: string, maxTerms = 16): ParsedQuery {
  const input = String(text ?? '').slice(0, MAX_QUERY_CHARS);
  const terms: QueryTerm[] = [];
  const seen = new Set<string>();
  const coverage = new Set<string>();
  const add = (t: QueryTerm) => {
    const key = `${t.words.join(' ')}${t.prefix ? '*' : ''}`;
    if (t.words.length === 0 || seen.has(key) || terms.length >= maxTerms) return;
    seen.add(key);
    terms.push(t);
  };
  // Quoted phrases first (an unbalanced quote is just a character).
  const rest = input.replace(/"([^"]{1,400})"/g, (_, phrase: string) => {
    const words = tokenize(phrase);
    if (words.length > 0) add({ words: words.slice(0, 12), prefix: false });
    for (const w of words) if (isContentWord(w)) coverage.add(w);
    return ' ';
  });
  // Then chunks separated by whitespace: a word, an identifier or path (a phrase of its parts), or `prefix*`.
  for (const chunk of rest.split(/\s+/)) {
    if (chunk === '') continue;
    const { prefix, joined } = chunkShape(chunk);
    const words = tokenize(chunk);
    if (words.length === 0) continue;
    if (joined && words.length > 1 && prefix) {
      add({ words: words.slice(0, 12), prefix });
      for (const w of words) if (isContentWord(w)) coverage.add(w);
    } else if (joined && words.length > 1) {
      // A path or dotted name: its words, each on its own (a phrase of common words such as
      // "src … ts" costs a walk over every memory holding them all); coverage ranks the whole.
      for (const w of words.slice(0, 12)) {
        if (!isContentWord(w)) continue;
        add({ words: [w], prefix: false });
        coverage.add(w);
      }
    } else {
      for (const w of words) {
        if (!prefix && !isContentWord(w)) continue;
        if (prefix && w.length < 2) continue;
        coverage.add(w);
        const parts = w.split('_').filter(isContentWord);
        // snake_case: the index holds its parts as words; matching each (not the phrase of them all)
        // keeps the cost bounded, and coverage still asks for the whole identifier.
        if (!prefix && parts.length > 1) for (const part of parts) add({ words: [part], prefix: false });
        else add({ words: [w], prefix });
      }
    }
    for (const part of identifierParts(chunk)) {
      if (!isContentWord(part)) continue;
      add({ words: [part], prefix: false });
    }
  }
  const expressions = terms.map(termExpression);
  return {
    terms,
    coverageTerms: [...coverage].slice(0, maxTerms),
    expressions,
    fts: expressions.length > 0 ? expressions.join(' OR ') : null,
  };
}

/** An FTS5 MATCH expression for user text (see `parseQuery`); null when there is nothing to search for. */
export function buildFtsQuery(text: string, max = 16): string | null {
  return parseQuery(text, max).fts;
}
