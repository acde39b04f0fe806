/**
 * The scrubber as it was before it learnt to scan once (commit cad8be6), kept verbatim as the test oracle:
 * the fast scrubber (`scrub.ts`) must give exactly what this gives, on the corpus and on large generated
 * inputs (`scrub-equivalence.test.ts`). Test support only: nothing outside tests imports it.
 */

import {
  HINT,
  HINT_RE,
  isEnvName,
  isHarmless,
  isSecretName,
  isUpper,
  LITERAL,
  type LineAt,
  unquotedAt,
  UNQUOTED_VALUE,
} from './secret-names.ts';
import { isConfigText } from './config-text.ts';
import { TOKEN_RULES } from './secret-tokens.ts';

/** `looksRandom` as it was (a Map of counts, summed in first-seen order). */
function looksRandom(s: string): boolean {
  if (s.length < 20) return false;
  const counts = new Map<string, number>();
  let lower = 0;
  let upper = 0;
  let digit = 0;
  for (const ch of s) {
    counts.set(ch, (counts.get(ch) ?? 0) + 1);
    if (ch >= 'a' && ch <= 'z') lower++;
    else if (ch >= 'A' && ch <= 'Z') upper++;
    else if (ch >= '0' && ch <= '9') digit++;
  }
  let entropy = 0;
  for (const n of counts.values()) entropy -= (n / s.length) * Math.log2(n / s.length);
  let changes = 0;
  for (let i = 1; i < s.length; i++) {
    if (isUpper(s.charCodeAt(i - 1)) !== isUpper(s.charCodeAt(i))) changes++;
  }
  const mixed = digit > 0 ? lower + upper > 0 : s.length >= 30 && changes >= s.length * 0.4;
  return mixed && entropy >= 3.3;
}
export { looksRandom as oracleLooksRandom };

const redacted = (kind: string): string => `[REDACTED:${kind}]`;

// ---- secrets in context: a name, header or URL is kept, only the value is replaced --------------

type Groups = Record<string, string | undefined>;
interface ContextRule {
  readonly kind: string;
  /** A case-insensitive pre-check; the rule runs only when it matches. */
  readonly hint: RegExp;
  /**
   * A cheaper necessary condition on the line (a match implies the gate matches), so the rule's own
   * regex is neither compiled nor run on lines that cannot hold a match.
   */
  readonly gate?: RegExp;
  /** Named groups `pre`, `val` and optional `post` that together cover the whole match. */
  readonly re: RegExp;
  /** Whether `val` is a secret; `next` is the character after the match, `line` what the rule ran on. */
  readonly accept: (g: Groups, next: string, line: LineAt) => boolean;
}

const NAME = `(?<![\\w./-])(?<name>[\\w.-]{0,40}?${HINT}[\\w.-]{0,40})`;
const SEP = `\\\\{0,3}["']?(?<sp>[ \\t]{0,3})(?<sep>:=|[:=](?![=>:]))(?<sp2>[ \\t]{0,3})`;
/** What every NAME SEP match holds: the hint, the rest of the name, then the separator's first character. */
const NAME_SEP_GATE = new RegExp(`${HINT}[\\w.-]{0,40}\\\\{0,3}["']?[ \\t]{0,3}[:=]`, 'i');
/**
 * A quoted value, possibly inside another JSON string (`\\"password\\":\\"x\\"`): it opens with `bs`
 * backslashes and a quote and closes at the first quote whose backslash run is `bs` plus a multiple of
 * 2(|bs|+1) (so escaped quotes and trailing escaped backslashes at that level are inside the value).
 */
const quotedRule = (q: string): ContextRule => ({
  kind: 'assignment',
  hint: HINT_RE,
  gate: NAME_SEP_GATE,
  re: new RegExp(
    `(?<pre>${NAME}${SEP}(?<bs>\\\\{0,3})${q})(?<val>[^${q}\\\\\\n](?:[^${q}\\n]|(?<=\\\\)${q}){0,499}?)` +
      `(?<post>(?<!\\\\)(?:\\k<bs>\\k<bs>\\\\\\\\)*\\k<bs>${q})`,
    'gi',
  ),
  accept: (g) => {
    const name = g['name'] ?? '';
    return isSecretName(name) && !isHarmless(g['val'] ?? '', isEnvName(name) ? LITERAL : undefined);
  },
});
/** A bare value after a flag or in a command line: not code, so only obvious references are harmless. */
const BARE = LITERAL;
/** A SHA-1 (or key fingerprint) or SHA-256 digest: no secret, even next to the word `key`. */
const HEX_DIGEST = /^(?:[0-9a-f]{40}|[0-9A-F]{40}|[0-9a-f]{64}|[0-9A-F]{64})$/;

const CONTEXT_RULES: readonly ContextRule[] = [
  {
    kind: 'url-password',
    hint: /:\/\//,
    re: /(?<pre>(?<![\w+.-])[a-z][\w+.-]{0,30}:\/\/[^\s:@/"'<>\\[\]]{0,100}:)(?<val>[^\s@/"'<>\\]{1,200})(?<post>@)/gi,
    accept: (g) => !isHarmless(g['val'] ?? ''),
  },
  {
    kind: 'basic-auth',
    hint: /authorization/i,
    re: /(?<pre>\bauthorization\\{0,3}["']?[ \t]*[:=][ \t]*\\{0,3}["']?[ \t]*Basic[ \t]+)(?<val>[\w.~+/=-]{4,})/gi,
    accept: (g) => !isHarmless(g['val'] ?? ''),
  },
  {
    kind: 'bearer',
    hint: /authorization/i,
    re: /(?<pre>\bauthorization\\{0,3}["']?[ \t]*[:=][ \t]*\\{0,3}["']?[ \t]*(?:Bearer|Token|Bot|Digest|Negotiate)[ \t]+)(?<val>[\w.~+/=-]{4,})/gi,
    accept: (g) => !isHarmless(g['val'] ?? ''),
  },
  {
    kind: 'bearer',
    hint: /bearer/i,
    re: /(?<pre>\bBearer[ \t]+)(?<val>[\w.~+/-]{20,512}=*)/gi,
    accept: (g) => looksRandom(g['val'] ?? ''),
  },
  quotedRule('"'),
  quotedRule("'"),
  {
    // NAME=value, NAME: value, export NAME=value, --name=value, Password=value; (unquoted)
    kind: 'assignment',
    hint: HINT_RE,
    gate: NAME_SEP_GATE,
    re: new RegExp(`(?<pre>${NAME}${SEP})(?<val>${UNQUOTED_VALUE})`, 'gi'),
    accept: (g, next, line) =>
      !'([{'.includes(next || ' ') &&
      !(g['sep'] === ':' && g['name']?.toLowerCase() === 'pass') && // "First pass: parse it"
      isSecretName(g['name'] ?? '') &&
      !isHarmless(g['val'] ?? '', unquotedAt(g, next, line)),
  },
  {
    // Dockerfile `ENV NAME value` / `ARG NAME value`, fish `set -gx NAME value`: no separator at all
    kind: 'assignment',
    hint: HINT_RE,
    gate: /\b(?:ENV|ARG|set)[ \t]/,
    re: /(?<pre>(?<![\w-])(?:ENV|ARG|set(?:[ \t]+-[a-zA-Z]{1,4}){1,3})[ \t]+(?<name>[A-Za-z_]\w{0,80})[ \t]+["']?)(?<val>[^\s"'=\\][^\s"'\\]{0,499})/g,
    accept: (g) => isSecretName(g['name'] ?? '') && !isHarmless(g['val'] ?? '', LITERAL),
  },
  {
    kind: 'assignment',
    hint: HINT_RE,
    gate: /<[^<>\n]{1,100}>[^<\n]{1,500}<\//,
    re: new RegExp(
      `(?<pre><(?<name>[\\w.-]{0,40}?${HINT}[\\w.-]{0,40})>)(?<val>[^<\\n]{1,500})(?<post></\\k<name>>)`,
      'gi',
    ),
    accept: (g) => isSecretName(g['name'] ?? '') && !isHarmless(g['val'] ?? ''),
  },
  {
    // An XML config's named entry: <add key="ApiKey" value="…"/>, <setting name="Password" value="…"/>
    kind: 'assignment',
    hint: HINT_RE,
    gate: /value/,
    re: new RegExp(
      `(?<pre>(?:key|name)=(?<q>["'])(?<name>[\\w.:-]{0,40}?${HINT}[\\w.:-]{0,40})\\k<q>[^<>\\n]{0,200}? value=\\k<q>)(?<val>[^\\n]{1,500}?)(?<post>\\k<q>)`,
      'gi',
    ),
    accept: (g) => isSecretName(g['name'] ?? '') && !isHarmless(g['val'] ?? ''),
  },
  {
    // --password value, --token "value"
    kind: 'cli-flag',
    hint: HINT_RE,
    gate: /--/,
    re: new RegExp(
      `(?<pre>(?<![\\w-])--(?<name>[\\w-]{0,30}?${HINT}[\\w-]{0,30})[ \\t]+\\\\{0,3}["']?)(?<val>[^\\s"'\\\\-][^\\s"'\\\\]{0,499})`,
      'gi',
    ),
    accept: (g) => isSecretName(g['name'] ?? '') && !isHarmless(g['val'] ?? '', BARE),
  },
  {
    // mysql -pSECRET, curl -u user:SECRET
    kind: 'cli-flag',
    hint: /mysql|curl/,
    re: /(?<pre>\b(?:mysql(?:dump|admin)?\b[^\n|;&]{0,150}?[ \t]-p|curl\b[^\n|;&]{0,150}?[ \t](?:-u|--user)[ \t]*[^\s:'"]{1,100}:))(?<val>[^\s'"\\-][^\s'"\\]{0,200})/g,
    accept: (g) => !isHarmless(g['val'] ?? '', BARE),
  },
  {
    // "my token is 8f3K…": a random-looking string right after a secret-ish word
    kind: 'high-entropy',
    hint: /pass|pwd|secret|token|key|cred/i,
    gate: /[\w+/=.-]{20}/,
    re: /(?<pre>(?<![\w-])(?:password|passwd|passphrase|pwd|secret|token|key|credentials?)s?\b(?:[ \t]*(?:(?:is|was|of|for|value|here|to)\b|[:=]|->|=>)){0,4}[ \t]*["'`]?[ \t]*)(?<val>[\w+/=.-]{20,512})/gi,
    accept: (g) => looksRandom(g['val'] ?? '') && !HEX_DIGEST.test(g['val'] ?? ''),
  },
];

/**
 * A superset of every context rule's hint, as plain words (cheap to scan for): which lines need the
 * context rules at all. Keep it in step with the rules' `hint`s.
 */
const anyCase = (word: string): string =>
  [...word].map((c) => (/[a-z]/i.test(c) ? `[${c.toLowerCase()}${c.toUpperCase()}]` : c)).join('');
// Test-run words ("PASS", "passed", "passing") are the commonest false hint in tool output: not counted.
const ANY_HINT = new RegExp(
  [
    ':\\/\\/',
    '[Pp]ass(?!(?:ed|ing|es)\\b)',
    // Changed with the scrubber (issue 17): `pass` in any case before what makes it a name
    // (`DB_PASSWORd=…` was left whole); the only change to this oracle since it was kept.
    `${anyCase('pass')}(?=${anyCase('wo')}?${anyCase('r')}?${anyCase('d')}|${anyCase('phrase')}|[_=:-])`,
    ...['pwd', 'secret', 'token', 'key', 'auth', 'cred', 'cookie', 'sig', 'bearer', 'mysql', 'curl'].map(
      anyCase,
    ),
  ].join('|'),
  'g',
);

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

// ---- entry points -------------------------------------------------------------------------------

/** Like `String#replace` with a global regex (but much faster with named groups); null keeps a match. */
const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Every token rule's literal hints in one pattern. */
const ANY_TOKEN_HINT = new RegExp(
  TOKEN_RULES.flatMap((r) => r.hints)
    .map(escapeRe)
    .join('|'),
);
/** A token rule without hints must always run. */
const ALWAYS_RUN_TOKEN_RULE = TOKEN_RULES.some((r) => r.hints.length === 0);

function replaceMatches(
  text: string,
  re: RegExp,
  replace: (m: RegExpExecArray, next: string) => string | null,
): string {
  let out = '';
  let pos = 0;
  re.lastIndex = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const end = m.index + m[0].length;
    const replacement = replace(m, text.charAt(end));
    if (replacement === null) continue;
    out += text.slice(pos, m.index) + replacement;
    pos = end;
  }
  return pos === 0 ? text : out + text.slice(pos);
}

/** Replace secrets and `<private>…</private>` spans in a string, and count the redactions. */
export function scrubTextWithCount(text: string): { text: string; redactions: number } {
  const count = { n: 0 };
  if (text.length < 6) return { text, redactions: 0 };
  let config: boolean | undefined;
  const inConfig = () => (config ??= isConfigText(text));
  let out = text;
  if (out.includes('<') && /<private[ \t]*>/i.test(out)) out = redactPrivate(out, count);
  if (out.includes('-----BEGIN ')) out = redactPem(out, count);
  // One scan for any token hint first: most strings have none, and then no rule needs to look.
  const anyToken = ALWAYS_RUN_TOKEN_RULE || ANY_TOKEN_HINT.test(out);
  for (const rule of anyToken ? TOKEN_RULES : []) {
    if (rule.hints.length > 0 && !rule.hints.some((h) => out.includes(h))) continue;
    out = replaceMatches(out, rule.re, (m) => {
      if (rule.verify && !rule.verify(m[0])) return null;
      count.n++;
      return redacted(rule.kind);
    });
  }
  // Context rules are line-local: run them only on the lines where some rule's hint occurs, found in one
  // scan (in long tool output and transcripts those are a small share of the lines).
  ANY_HINT.lastIndex = 0;
  if (ANY_HINT.test(out)) {
    ANY_HINT.lastIndex = 0;
    let result = '';
    let done = 0;
    for (let m = ANY_HINT.exec(out); m !== null; m = ANY_HINT.exec(out)) {
      const start = out.lastIndexOf('\n', m.index) + 1;
      if (start < done) continue;
      const nl = out.indexOf('\n', m.index);
      const end = nl === -1 ? out.length : nl;
      result += out.slice(done, start) + applyContextRules(out.slice(start, end), count, inConfig);
      done = end;
      ANY_HINT.lastIndex = end;
    }
    out = result + out.slice(done);
  }
  return { text: out, redactions: count.n };
}

function applyContextRules(line: string, count: { n: number }, inConfig: () => boolean): string {
  let out = line;
  for (const rule of CONTEXT_RULES) {
    if (!rule.hint.test(out) || (rule.gate && !rule.gate.test(out))) continue;
    const text = out;
    out = replaceMatches(text, rule.re, (m, next) => {
      const g = m.groups ?? {};
      const at = { text, start: m.index, end: m.index + m[0].length, inConfig };
      if (!rule.accept(g, next, at)) return null;
      count.n++;
      return `${g['pre'] ?? ''}${redacted(rule.kind)}${g['post'] ?? ''}`;
    });
  }
  return out;
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
  return scrubAny(value, undefined) as T;
}

/**
 * The rules applied one by one, with no pre-check but one: the spans, then every token rule over the
 * whole text, then every context rule on every line that holds a word of `ANY_HINT` (no rule's hint
 * or gate, no line selection). What every faster path must equal. The one word check is part of
 * what the rules mean, not a shortcut: without it a name in mixed case (`DB_PASSWORd=…`, which
 * `ANY_HINT` does not take for `password`) would be scrubbed, and the scrubber has never done so.
 */
export function rulesOneByOne(text: string): { text: string; redactions: number } {
  const count = { n: 0 };
  if (text.length < 6) return { text, redactions: 0 };
  let config: boolean | undefined;
  const inConfig = () => (config ??= isConfigText(text));
  let out = redactPem(redactPrivate(text, count), count);
  for (const rule of TOKEN_RULES) {
    out = replaceMatches(out, rule.re, (m) => {
      if (rule.verify && !rule.verify(m[0])) return null;
      count.n++;
      return redacted(rule.kind);
    });
  }
  const lines = out.split('\n').map((line) => {
    ANY_HINT.lastIndex = 0;
    if (!ANY_HINT.test(line)) return line;
    let l = line;
    for (const rule of CONTEXT_RULES) {
      const text = l;
      l = replaceMatches(text, rule.re, (m, next) => {
        const g = m.groups ?? {};
        const at = { text, start: m.index, end: m.index + m[0].length, inConfig };
        if (!rule.accept(g, next, at)) return null;
        count.n++;
        return `${g['pre'] ?? ''}${redacted(rule.kind)}${g['post'] ?? ''}`;
      });
    }
    return l;
  });
  return { text: lines.join('\n'), redactions: count.n };
}
