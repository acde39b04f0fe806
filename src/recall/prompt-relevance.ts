/**
 * How much a memory answers a prompt, weighing each of the prompt's words by how rare it is in the
 * store: a prompt that names a stored memory in other words shares its rare words (an identifier's
 * parts, a file, a tool, an error) even when it shares few words in all, and a memory that shares only
 * common words ("test", "fix", "file") with a long prompt is not what the prompt asks about.
 *
 * A word's weight is its inverse document frequency over the store (counted by capped FTS probes, the
 * store's size estimated from its highest row id, so the cost is bounded whatever the store's size); a memory's relevance is the weighted share of the
 * prompt's words it holds (word families and identifier parts included: "uncommitted changes" finds
 * `HasUncommittedChanges`). Words the store does not hold at all count at half the weight of the
 * rarest word, so a prompt about something never stored finds little.
 */
import { hash64Hex } from '../core/ids.ts';
import { CASED_IDENTIFIER, identifierParts } from '../core/identifiers.ts';
import type { Observation } from '../core/model.ts';
import type { ReadStore } from '../store/read-store.ts';
import { searchableText, stem } from './coverage.ts';

/** The probe's cap: a store larger than this is weighed as if it held this many. */
const DF_CAP = 2_000;

export interface WeightedTerm {
  term: string;
  weight: number;
  /** Memories in the store that hold it (capped). */
  df: number;
  /** Written in the prompt as code names are (`parseConfigFile`, `auth_flow`, `TS2769`). */
  name?: boolean;
}

/**
 * The words a prompt writes as code names are written — camelCase or PascalCase, snake_case, letters
 * with digits —, lower-cased as its terms are: one of them held by a memory names what it is about.
 */
export function promptNames(prompt: string): Set<string> {
  const out = new Set<string>();
  for (const m of prompt.matchAll(/[A-Za-z0-9_]{3,64}/g)) {
    const w = m[0];
    if (CASED_IDENTIFIER.test(w) || /[A-Za-z0-9]_[A-Za-z0-9]|[A-Za-z][0-9]|[0-9][A-Za-z]/.test(w))
      out.add(w.toLowerCase());
  }
  return out;
}

/** Inverse document frequency of a word held by `df` of `n` memories. */
const idf = (df: number, n: number) => Math.log(1 + n / (df + 1));

/**
 * The prompt's content words with their weights (rare words weigh more). `probed` receives each word's
 * capped count by its FTS expression, so candidate search need not probe it again.
 */
export function weighTerms(
  store: ReadStore,
  terms: readonly string[],
  probed?: Map<string, number>,
  names?: ReadonlySet<string>,
): WeightedTerm[] {
  const n = Math.max(1, Math.min(DF_CAP, store.observations.sizeEstimate()));
  return terms.map((term) => {
    const expression = `"${term.replace(/"/g, '""')}"`;
    const count = store.observations.matchCount(expression, DF_CAP);
    probed?.set(expression, count);
    const df = Math.min(n, count);
    const weight = df === 0 ? idf(0, n) / 2 : idf(df, n);
    return names?.has(term) ? { term, df, weight, name: true } : { term, df, weight };
  });
}

/** A text without a character past ASCII: its words are plain `[A-Za-z0-9_]` runs. */
const ASCII_ONLY = /^[^\u0080-\uffff]*$/;

/**
 * A memory's stems as the prompt is compared with them: those of its words, and those of the parts of
 * its identifiers (`HasUncommittedChanges`, `auth_flow`) that are not also words of it.
 */
export interface MemoryStems {
  words: Set<string>;
  parts: Set<string>;
}

/**
 * The words of a memory as the prompt is compared with them: stems of its words and identifier parts.
 * `stemOf` is `stem`, remembered across the memories of one prompt (they share most of their words).
 */
function memoryStems(
  text: string,
  stemOf: (word: string) => string,
  only?: { lower: string; roots: readonly string[] },
): MemoryStems {
  const lower = only?.lower ?? text.toLowerCase();
  const ascii = ASCII_ONLY.test(lower);
  // Each distinct word once; in ASCII text the Unicode classes are exactly the ASCII ones.
  const words = new Set<string>();
  for (const m of lower.matchAll(ascii ? /[A-Za-z0-9_]+/g : /[\p{L}\p{N}_]+/gu)) words.add(m[0]);
  const out: MemoryStems = { words: new Set(), parts: new Set() };
  const add = (word: string, into: Set<string>) => {
    if (!only || only.roots.some((r) => word.startsWith(r))) into.add(stemOf(word));
  };
  const parts: string[] = [];
  for (const word of words) {
    add(word, out.words);
    if (word.includes('_')) for (const part of word.split('_')) if (part.length >= 2) parts.push(part);
  }
  parts.push(
    ...(only && ascii && lower.length === text.length && !only.roots.includes('')
      ? runsHolding(text, lower, only.roots).flatMap(identifierParts)
      : identifierParts(text)),
  );
  for (const part of parts) add(part, out.parts);
  for (const word of out.words) out.parts.delete(word);
  return out;
}

/**
 * A commit's fact as relevance reads it: without the branch it was made on (`committed 1a2b3c4: … (on
 * main)`, outcomes.ts), which every commit of a branch shares — "main" in a prompt is not about them.
 */
const withoutBranchNote = (fact: string): string =>
  fact.startsWith('committed') ? fact.replace(/ \(on [^\s()]+\)(?= \u2014 |$)/, '') : fact;

/** The text of a memory relevance reads: what search reads, less the commit facts' branch notes. */
export const relevanceText = (o: Observation): string =>
  searchableText({ ...o, facts: o.facts.map(withoutBranchNote) });

const isAlnum = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);

/**
 * The runs of ASCII letters and digits of `text` (`lower` ASCII and as long: the same indexes) that hold
 * one of `roots`: an identifier's parts never span two runs, so those of the other runs cannot begin
 * with a root.
 */
function runsHolding(text: string, lower: string, roots: readonly string[]): string[] {
  const starts = new Map<number, number>();
  for (const root of roots)
    for (let at = lower.indexOf(root); at !== -1; at = lower.indexOf(root, at + 1)) {
      let start = at;
      while (start > 0 && isAlnum(lower.charCodeAt(start - 1))) start--;
      if (starts.has(start)) continue;
      let end = at;
      while (end < lower.length && isAlnum(lower.charCodeAt(end))) end++;
      starts.set(start, end);
    }
  return [...starts].map(([start, end]) => text.slice(start, end));
}

/**
 * What a word must begin with for `stem` to give `s`: `stem` only cuts a word's end, except that it
 * turns "-ies"/"-ied" into "y", so every word's stem is a prefix of the word, or one with "y" after it.
 * A memory whose lower-cased text holds no such root of a prompt word cannot hold that word's stem;
 * the hook's process (no memo) stems only the words that begin with a root the memory holds.
 */
const rootOf = (s: string): string => (s.endsWith('y') ? s.slice(0, -1) : s);

export interface Relevance {
  /** Weighted share of the prompt's words the memory holds, 0..1. */
  share: number;
  /** The weight of the words it holds (how much evidence, whatever the prompt's length). */
  matched: number;
  /** How many of the prompt's words it holds. */
  words: number;
  /** Whether it holds a word the prompt writes as a code name. */
  named: boolean;
}

/** What a prompt word found only as a part of an identifier, with no neighbour of it, counts for. */
const LONE_PART = 0.5;

/** A prompt of at least this many words is not answered by a memory that holds only one of them. */
const ONE_WORD_OF = 4;

/**
 * Stems kept from one prompt to the next by a process that answers many (the worker's recall thread):
 * a word's stem and a memory's stems are functions of their text alone, so keeping them changes no
 * answer, only its cost. Bounded: each map starts over when full.
 */
export interface StemMemo {
  words: Map<string, string>;
  /**
   * By memory id, with a hash of the text its stems were taken from (a memory edited since is stemmed
   * again; the text itself is not kept).
   */
  memories: Map<string, { textHash: string; stems: MemoryStems }>;
}

const MEMO_WORDS = 100_000;
const MEMO_MEMORIES = 20_000;

export const createStemMemo = (): StemMemo => ({ words: new Map(), memories: new Map() });

/** Compiled once per prompt, applied to each candidate memory. */
export function relevanceMatcher(
  terms: readonly WeightedTerm[],
  memo?: StemMemo,
): (o: Observation) => Relevance {
  const total = terms.reduce((n, t) => n + t.weight, 0);
  const stems = terms.map((t) => ({ ...t, stem: stem(t.term) }));
  const known = memo?.words ?? new Map<string, string>();
  if (known.size > MEMO_WORDS) known.clear();
  const stemOf = (word: string): string => {
    let s = known.get(word);
    if (s === undefined) known.set(word, (s = stem(word)));
    return s;
  };
  const roots = [...new Set(stems.map((t) => rootOf(t.stem)))];
  const stemsOf = (o: Observation): MemoryStems => {
    const text = relevanceText(o);
    if (!memo) {
      // Only the words that can stem to one of the prompt's (see rootOf): the same matches, found
      // without stemming every word of every candidate in a process that answers one prompt.
      const lower = text.toLowerCase();
      const held = roots.filter((r) => lower.includes(r));
      if (held.length === 0) return { words: new Set(), parts: new Set() };
      return memoryStems(text, stemOf, { lower, roots: held });
    }
    const textHash = hash64Hex(text);
    const kept = memo.memories.get(o.id);
    if (kept?.textHash === textHash) return kept.stems;
    if (memo.memories.size >= MEMO_MEMORIES) memo.memories.clear();
    // Kept for later prompts, so every word's stem.
    const made = memoryStems(text, stemOf);
    memo.memories.set(o.id, { textHash, stems: made });
    return made;
  };
  return (o) => {
    if (total === 0) return { share: 0, matched: 0, words: 0, named: false };
    const { words, parts } = stemsOf(o);
    const held = (t: { stem: string } | undefined) =>
      t !== undefined && (words.has(t.stem) || parts.has(t.stem));
    let matched = 0;
    let count = 0;
    let named = false;
    stems.forEach((t, i) => {
      if (words.has(t.stem)) matched += t.weight;
      else if (parts.has(t.stem))
        // A part of an identifier counts in full beside a neighbour of it in the prompt ("uncommitted
        // changes" for `HasUncommittedChanges`); alone ("types" for `TypeScript`, "install" for
        // `InstallHooks`) it is as likely an ordinary word that an identifier happens to hold.
        matched += held(stems[i - 1]) || held(stems[i + 1]) ? t.weight : t.weight * LONE_PART;
      else return;
      count++;
      if (t.name) named = true;
    });
    return { share: matched / total, matched, words: count, named };
  };
}

/**
 * The least evidence worth injecting, as a share of the weight of a word found once: one word held by a
 * handful of memories, or two held by many — never one common word; and, for a prompt of several
 * words, more than one of them — unless it is a code name the prompt writes (`parseConfigFile`): a
 * single ordinary word shared with a long prompt ("tell", "against") is as likely chance, however rare
 * the store finds it (a small store finds ordinary words rare).
 */
export function enoughEvidence(r: Relevance, terms: readonly WeightedTerm[]): boolean {
  const rarest = terms.reduce((m, t) => Math.max(m, t.df === 0 ? 0 : t.weight), 0);
  return rarest > 0 && r.matched >= rarest * 0.5 && (r.words >= 2 || r.named || terms.length < ONE_WORD_OF);
}
