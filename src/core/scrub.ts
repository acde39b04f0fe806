/**
 * The secret scrubber: every string engram keeps (hook payloads, transcripts, logs) passes through here
 * first. Pure and synchronous, and on the hook hot path. Apart from the two kinds of span with open
 * ends (`<private>`, PEM keys: found first, with exec loops), every rule is line-local — a token shape
 * (`secret-tokens.ts`) or a secret in context (`secret-context.ts`) never holds a line break and looks
 * at most one character beyond its match — so the scrubber makes one scan over the text with one
 * pattern (`ANCHORS`: every rule's literal anchors; on large inputs the more selective `SITE`) and
 * runs the rules only on the lines that scan finds, each line once per
 * `scrubbingTogether` scope: the work beyond the scan is proportional to what can match. Every
 * pattern is precompiled and linear-time: token shapes may only start where no token character
 * precedes them, quantifiers are bounded, and checks that could fail after a long scan live in
 * callbacks rather than in lookaheads.
 */

import {
  ANY_HINT,
  applyContextRules,
  caseless,
  CONTEXT_SITES,
  redacted,
  replaceMatches,
} from './secret-context.ts';
import { isConfigFile, textAround, type TextAround } from './config-text.ts';
import { isEnvName, isHarmless, isSecretName, LITERAL, looksRandom } from './secret-names.ts';
import { TOKEN_RULES } from './secret-tokens.ts';

export { isSecretName, looksRandom };

// ---- spans with open ends ----------------------------------------------------------------------

const PRIVATE_TAG = /<(\/?)private[ \t]*>/gi;
const PEM_BEGIN = /-----BEGIN (?:[A-Z0-9]+ ){0,3}PRIVATE KEY(?: BLOCK)?-----/g;
const PEM_END = /-----END (?:[A-Z0-9]+ ){0,3}PRIVATE KEY(?: BLOCK)?-----/g;
/** The body of an unterminated key: base64, headers, and real or escaped (`\n`) line breaks. */
const PEM_BODY = /[\w+/=:,\s\\-]*/y;

/** `<private>…</private>` (nested, several, case-insensitive); an unclosed one runs to the end. */
function redactPrivate(text: string, count: { n: number }): string {
  let out = '';
  let pos = 0;
  let depth = 0;
  let start = 0;
  PRIVATE_TAG.lastIndex = 0;
  for (let m = PRIVATE_TAG.exec(text); m; m = PRIVATE_TAG.exec(text)) {
    if (m[1] === '') {
      if (depth++ === 0) start = m.index;
    } else if (depth > 0 && --depth === 0) {
      out += text.slice(pos, start) + redacted('private');
      pos = m.index + m[0].length;
      count.n++;
    }
  }
  if (depth > 0) {
    count.n++;
    return out + text.slice(pos, start) + redacted('private');
  }
  return pos === 0 ? text : out + text.slice(pos);
}

/** PEM and PGP private keys, BEGIN to END; an unterminated key loses its BEGIN line and body. */
function redactPem(text: string, count: { n: number }): string {
  let out = '';
  let pos = 0;
  let endMissing = false; // once no END follows some point, none follows any later point
  PEM_BEGIN.lastIndex = 0;
  for (let m = PEM_BEGIN.exec(text); m; m = PEM_BEGIN.exec(text)) {
    PEM_END.lastIndex = PEM_BEGIN.lastIndex;
    const end = endMissing ? null : PEM_END.exec(text);
    let stop: number;
    if (end) stop = end.index + end[0].length;
    else {
      endMissing = true;
      PEM_BODY.lastIndex = PEM_BEGIN.lastIndex;
      PEM_BODY.test(text);
      stop = PEM_BODY.lastIndex;
    }
    out += text.slice(pos, m.index) + redacted('private-key');
    count.n++;
    pos = stop;
    PEM_BEGIN.lastIndex = stop;
  }
  return pos === 0 ? text : out + text.slice(pos);
}

// ---- the one scan ------------------------------------------------------------------------------

const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const TOKEN_SITES = [
  ...TOKEN_RULES.flatMap((r) => r.hints.map(escapeRe)),
  ...TOKEN_RULES.flatMap((r) => (r.site ? [r.site.source] : [])),
];
/**
 * Every rule's anchors in one pattern: a token rule's literal hints (as written: token shapes are
 * case-sensitive), the hintless rule's site, and the words of `ANY_HINT` (a context rule runs only on a
 * line holding one). Nearly all literals, so it is cheap to compile; a line it does not match is left
 * as it is by every rule, and the rules run only on the lines it finds.
 */
const ANCHORS = new RegExp([...TOKEN_SITES, ANY_HINT.source].join('|'), 'g');
/**
 * Fewer lines than `ANCHORS` finds, and still every line a rule could change: a token rule's hint or
 * site, or what a context rule's match holds (in any case for the rules that match in any case). Its
 * compilation costs more than it saves on a small text (a line `ANCHORS` takes in vain is a few
 * microseconds), so it is made, and used, once this process has scanned `SELECTIVE_AFTER` characters.
 */
let site: RegExp | null = null;
const SITE = (): RegExp =>
  (site ??= new RegExp(
    [...TOKEN_SITES, ...CONTEXT_SITES.exact, ...CONTEXT_SITES.anyCase.map(caseless)].join('|'),
    'g',
  ));
const SELECTIVE_AFTER = 16_384;
let scanned = 0;

/**
 * Run `fn` with every text scanned by `ANCHORS` or every one by `SITE`, whatever was scanned before
 * (for the equivalence test, which holds both scans to the rules one by one); then as before.
 */
export function scanningWith<T>(scan: 'anchors' | 'selective', fn: () => T): T {
  const before = scanned;
  scanned = scan === 'anchors' ? -Infinity : Infinity;
  try {
    return fn();
  } finally {
    scanned = before;
  }
}

/** Any token rule's hint or site: a line without one is left as it is by every token rule. */
const ANY_TOKEN = new RegExp(TOKEN_SITES.join('|'));

/** The token rules on one line, in order, each where one of its hints (or its site) occurs. */
function applyTokenRules(line: string, count: { n: number }): string {
  if (!ANY_TOKEN.test(line)) return line;
  let out = line;
  for (const rule of TOKEN_RULES) {
    if (rule.site ? !rule.site.test(out) : !rule.hints.some((h) => out.includes(h))) continue;
    out = replaceMatches(out, rule.re, (m) => {
      if (rule.verify && !rule.verify(m[0])) return null;
      count.n++;
      return redacted(rule.kind);
    });
  }
  return out;
}

/** Every line-local rule on one line: the token shapes, then the secrets in context. */
const scrubLocal = (line: string, count: { n: number }, around?: TextAround): string =>
  applyContextRules(applyTokenRules(line, count), count, around?.inConfig);

/**
 * The rules of the whole text: the spans first, then the line-local rules on the lines the scan finds,
 * each told whether the text (as it came) is a config file, should a rule ask (`configFile`: it is one
 * by its path, whatever its lines).
 */
function scrubWhole(text: string, count: { n: number }, configFile?: boolean): string {
  const around = textAround(text, configFile);
  let out = text;
  if (out.includes('<') && /<private[ \t]*>/i.test(out)) out = redactPrivate(out, count);
  if (out.includes('-----BEGIN ')) out = redactPem(out, count);
  let result = '';
  let done = 0;
  const lines = scanned > SELECTIVE_AFTER ? SITE() : ANCHORS;
  scanned += out.length;
  lines.lastIndex = 0;
  for (let m = lines.exec(out); m !== null; m = lines.exec(out)) {
    const start = out.lastIndexOf('\n', m.index) + 1;
    const nl = out.indexOf('\n', m.index);
    const end = nl === -1 ? out.length : nl;
    const line = out.slice(start, end);
    const scrubbed = scrubLine(line, count, around);
    // Built only from the first line that changed: a text the rules leave as it is stays the one flat
    // string it came as, not a rope of its pieces that whatever reads it next would copy out again.
    if (scrubbed !== line) {
      result += out.slice(done, start) + scrubbed;
      done = end;
    }
    lines.lastIndex = end + 1;
  }
  return done > 0 ? result + out.slice(done) : out;
}

/** A file's header in a patch of Codex's format (`*** Add File: .env`, `*** Move to: .env`): its path. */
const PATCH_FILE = /^\*\*\* [\w ]+: (.*?)\r?$/;

/**
 * A patch of Codex's format (`*** Begin Patch`, a section per file) that adds to or updates a config
 * file (`isConfigFile`), scrubbed section by section: that file's lines (added, removed, context;
 * after their one-character mark) as its text, each run of lines with one mark at once, so a patch is
 * scrubbed as a Write or Edit of each file would be; every other run of lines as before. The patch
 * keeps its every other byte. Null when no section is a config file's.
 */
function scrubPatch(text: string, count: { n: number }): string | null {
  const runs: [mark: string, lines: string[]][] = [];
  let config = false;
  for (const line of text.split('\n')) {
    // A header starts a section (a config file's or not); any other `*** ` line ends one.
    if (line.startsWith('*** ')) config = isConfigFile(PATCH_FILE.exec(line)?.[1] ?? '');
    const mark = config && /^[+ -]/.test(line) ? line.charAt(0) : '';
    const body = line.slice(mark.length);
    const last = runs.at(-1);
    if (last?.[0] === mark) last[1].push(body);
    else runs.push([mark, [body]]);
  }
  return runs.some(([mark]) => mark)
    ? runs
        .map(
          ([mark, lines]) =>
            mark + scrubWhole(lines.join('\n'), count, mark !== '').replaceAll('\n', `\n${mark}`),
        )
        .join('\n')
    : null;
}

/**
 * Replace secrets and `<private>…</private>` spans in a string, and count the redactions. `configFile`:
 * the string is (part of) a config file, as its path says (`config-text.ts` `isConfigFile`), so every
 * entry's word is a value even in a text of one line (remembered apart from the same text without a path).
 */
export function scrubTextWithCount(text: string, configFile?: boolean): { text: string; redactions: number } {
  if (text.length < 6) return { text, redactions: 0 };
  const count = { n: 0 };
  const memo = configFile ? scope?.configTexts : scope?.texts;
  const out = remembered(
    memo,
    text,
    count,
    MEMO_TEXT_CHARS,
    (t, c) => (!configFile && t.includes('\n*** ') && scrubPatch(t, c)) || scrubWhole(t, c, configFile),
  );
  return { text: out, redactions: count.n };
}

/**
 * What the current `scrubbingTogether` scope has scrubbed, with the redactions each gave: whole texts
 * (an edit's old and new text come again in the tool's response) and lines (one payload repeats its
 * lines: the patch, the file it read). Both are pure functions of their input. Only inside a scope, so
 * no long-lived process keeps the texts.
 */
interface Seen {
  texts: Map<string, { text: string; n: number }>;
  configTexts: Map<string, { text: string; n: number }>;
  lines: Map<string, { text: string; n: number }>;
}
let scope: Seen | null = null;
const MEMO_LINE_CHARS = 2000;
const MEMO_TEXT_CHARS = 200;
const MEMO_ENTRIES = 20_000;

/**
 * `scrub(input)`, looked up in `memo` when it was done there before, and kept there when it is worth it
 * and its output is the input's alone: a line whose rules asked about the text around it (`around`) is
 * not kept, so every line kept is scrubbed the same in any text.
 */
function remembered(
  memo: Map<string, { text: string; n: number }> | undefined,
  input: string,
  count: { n: number },
  minChars: number,
  scrub: (input: string, count: { n: number }, around?: TextAround) => string,
  around?: TextAround,
): string {
  if (memo === undefined || input.length < minChars) return scrub(input, count, around);
  const known = memo.get(input);
  if (known !== undefined) {
    count.n += known.n;
    return known.text;
  }
  const before = count.n;
  const asked = around?.asked();
  const text = scrub(input, count, around);
  if (memo.size < MEMO_ENTRIES && around?.asked() === asked) memo.set(input, { text, n: count.n - before });
  return text;
}

const scrubLine = (line: string, count: { n: number }, around: TextAround): string =>
  line.length > MEMO_LINE_CHARS
    ? scrubLocal(line, count, around)
    : remembered(scope?.lines, line, count, 0, scrubLocal, around);

/**
 * Run `fn` with the scrubber remembering the texts and lines it scrubbed, so one met again (in the same
 * string or another) costs a lookup. Results are exactly those of scrubbing each string alone.
 */
export function scrubbingTogether<T>(fn: () => T): T {
  const outer = scope;
  scope ??= { texts: new Map(), configTexts: new Map(), lines: new Map() };
  try {
    return fn();
  } finally {
    scope = outer;
  }
}

/** Replace secrets and `<private>…</private>` spans in a string. */
export function scrubText(text: string): string {
  return scrubTextWithCount(text).text;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' &&
  v !== null &&
  (Object.getPrototypeOf(v) === Object.prototype || Object.getPrototypeOf(v) === null);

function scrubAny(value: unknown, key: string | undefined): unknown {
  if (typeof value === 'string') {
    const text = scrubText(value);
    const secret =
      key !== undefined && isSecretName(key) && !isHarmless(text, isEnvName(key) ? LITERAL : undefined);
    return secret ? redacted('assignment') : text;
  }
  if (Array.isArray(value)) return value.map((v: unknown) => scrubAny(v, undefined));
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const field = { value: scrubAny(v, k), enumerable: true, writable: true, configurable: true };
    Object.defineProperty(out, scrubText(k), field); // defineProperty: a `__proto__` key stays a key
  }
  return out;
}

/**
 * Deep-scrub a JSON-like value: every string in object values and array items, and a string under a
 * secret-ish key (`{ password: 'hunter2' }`) is replaced whole. Keys are scrubbed too. Numbers,
 * booleans, null and non-plain objects pass through; returns a new value and never mutates.
 */
export function scrubValue<T>(value: T): T {
  return scrubbingTogether(() => scrubAny(value, undefined) as T);
}
