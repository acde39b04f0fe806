/**
 * Secrets in context, line by line: a secret-ish name, header, flag or URL is kept and only its value
 * is replaced. Every rule here is line-local (no match holds a line break, and what a rule looks at
 * around a match is one character), so the scrubber runs them only on the lines its one scan over the
 * text picks (`CONTEXT_SITES`), each line once per `scrubbingTogether` scope.
 */

import {
  HINT,
  isEnvName,
  isHarmless,
  isSecretName,
  LITERAL,
  type LineAt,
  looksRandom,
  unquotedAt,
  UNQUOTED_VALUE,
} from './secret-names.ts';

export const redacted = (kind: string): string => `[REDACTED:${kind}]`;

type Groups = Record<string, string | undefined>;
interface ContextRule {
  readonly kind: string;
  /**
   * A pre-check by plain string search, nothing to compile: words one of which every match holds, in
   * any case (looked for in the line in lower case, which finds them in any case, and a few more).
   */
  readonly hint: readonly string[];
  /**
   * A cheaper necessary condition on the line (a match implies the gate matches), so the rule's own
   * regex is neither compiled nor run on lines that cannot hold a match.
   */
  readonly gate?: RegExp;
  /**
   * Strings one of which every match holds as written (a quoted value's quote, a separator, `--`): the
   * rule, and its gate, run only on lines holding one.
   */
  readonly needs?: readonly string[];
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
  hint: HINT_WORDS,
  gate: NAME_SEP_GATE,
  needs: [q],
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

/** A value under a secret-ish name, unless harmless (an element's text, an XML entry's value). */
const namedValue = (g: Groups): boolean => isSecretName(g['name'] ?? '') && !isHarmless(g['val'] ?? '');
/** `HINT`'s words (`key` alone: a superset of `HINT`, as a pre-check may be). */
const HINT_WORDS = ['pass', 'pwd', 'secret', 'token', 'key', 'auth', 'cred', 'cookie', 'sig'];
const has = (text: string, words: readonly string[]): boolean => words.some((w) => text.includes(w));

const CONTEXT_RULES: readonly ContextRule[] = [
  {
    kind: 'url-password',
    hint: ['://'],
    re: /(?<pre>(?<![\w+.-])[a-z][\w+.-]{0,30}:\/\/[^\s:@/"'<>\\[\]]{0,100}:)(?<val>[^\s@/"'<>\\]{1,200})(?<post>@)/gi,
    accept: (g) => !isHarmless(g['val'] ?? ''),
  },
  {
    kind: 'basic-auth',
    hint: ['authorization'],
    re: /(?<pre>\bauthorization\\{0,3}["']?[ \t]*[:=][ \t]*\\{0,3}["']?[ \t]*Basic[ \t]+)(?<val>[\w.~+/=-]{4,})/gi,
    accept: (g) => !isHarmless(g['val'] ?? ''),
  },
  {
    kind: 'bearer',
    hint: ['authorization'],
    re: /(?<pre>\bauthorization\\{0,3}["']?[ \t]*[:=][ \t]*\\{0,3}["']?[ \t]*(?:Bearer|Token|Bot|Digest|Negotiate)[ \t]+)(?<val>[\w.~+/=-]{4,})/gi,
    accept: (g) => !isHarmless(g['val'] ?? ''),
  },
  {
    kind: 'bearer',
    hint: ['bearer'],
    re: /(?<pre>\bBearer[ \t]+)(?<val>[\w.~+/-]{20,512}=*)/gi,
    accept: (g) => looksRandom(g['val'] ?? ''),
  },
  quotedRule('"'),
  quotedRule("'"),
  {
    // NAME=value, NAME: value, export NAME=value, --name=value, Password=value; (unquoted)
    kind: 'assignment',
    hint: HINT_WORDS,
    gate: NAME_SEP_GATE,
    needs: [':', '='],
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
    hint: HINT_WORDS,
    gate: /\b(?:ENV|ARG|set)[ \t]/,
    needs: ['ENV', 'ARG', 'set'],
    re: /(?<pre>(?<![\w-])(?:ENV|ARG|set(?:[ \t]+-[a-zA-Z]{1,4}){1,3})[ \t]+(?<name>[A-Za-z_]\w{0,80})[ \t]+["']?)(?<val>[^\s"'=\\][^\s"'\\]{0,499})/g,
    accept: (g) => isSecretName(g['name'] ?? '') && !isHarmless(g['val'] ?? '', LITERAL),
  },
  {
    kind: 'assignment',
    hint: HINT_WORDS,
    gate: /<[^<>\n]{1,100}>[^<\n]{1,500}<\//,
    needs: ['</'],
    re: new RegExp(
      `(?<pre><(?<name>[\\w.-]{0,40}?${HINT}[\\w.-]{0,40})>)(?<val>[^<\\n]{1,500})(?<post></\\k<name>>)`,
      'gi',
    ),
    accept: namedValue,
  },
  {
    // An XML config's named entry: <add key="ApiKey" value="…"/>, <setting name="Password" value="…"/>
    kind: 'assignment',
    hint: HINT_WORDS,
    needs: ['value'],
    re: new RegExp(
      `(?<pre>(?:key|name)=(?<q>["'])(?<name>[\\w.:-]{0,40}?${HINT}[\\w.:-]{0,40})\\k<q>[^<>\\n]{0,200}? value=\\k<q>)(?<val>[^\\n]{1,500}?)(?<post>\\k<q>)`,
      'gi',
    ),
    accept: namedValue,
  },
  {
    // --password value, --token "value"
    kind: 'cli-flag',
    hint: HINT_WORDS,
    needs: ['--'],
    re: new RegExp(
      `(?<pre>(?<![\\w-])--(?<name>[\\w-]{0,30}?${HINT}[\\w-]{0,30})[ \\t]+\\\\{0,3}["']?)(?<val>[^\\s"'\\\\-][^\\s"'\\\\]{0,499})`,
      'gi',
    ),
    accept: (g) => isSecretName(g['name'] ?? '') && !isHarmless(g['val'] ?? '', BARE),
  },
  {
    // mysql -pSECRET, curl -u user:SECRET
    kind: 'cli-flag',
    hint: ['mysql', 'curl'],
    re: /(?<pre>\b(?:mysql(?:dump|admin)?\b[^\n|;&]{0,150}?[ \t]-p|curl\b[^\n|;&]{0,150}?[ \t](?:-u|--user)[ \t]*[^\s:'"]{1,100}:))(?<val>[^\s'"\\-][^\s'"\\]{0,200})/g,
    accept: (g) => !isHarmless(g['val'] ?? '', BARE),
  },
  {
    // "my token is 8f3K…": a random-looking string right after a secret-ish word
    kind: 'high-entropy',
    hint: ['pass', 'pwd', 'secret', 'token', 'key', 'cred'],
    gate: /[\w+/=.-]{20}/,
    re: /(?<pre>(?<![\w-])(?:password|passwd|passphrase|pwd|secret|token|key|credentials?)s?\b(?:[ \t]*(?:(?:is|was|of|for|value|here|to)\b|[:=]|->|=>)){0,4}[ \t]*["'`]?[ \t]*)(?<val>[\w+/=.-]{20,512})/gi,
    accept: (g) => looksRandom(g['val'] ?? '') && !HEX_DIGEST.test(g['val'] ?? ''),
  },
];

/** Whether `s` holds an ASCII letter (a plain loop: a regex costs a compilation in every hook process). */
function hasLetter(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i) | 32;
    if (c >= 97 && c <= 122) return true;
  }
  return false;
}

/**
 * A regex source that matches what `source` matches under the `i` flag, without the flag (so it can sit
 * in one pattern beside case-sensitive parts): each letter outside a character class becomes a class
 * of both its cases; an escape (`\w`, `\t`, `\b`) stays. It takes only what it can rewrite
 * faithfully and throws on anything else — a class holding a letter other than the full `a-zA-Z`, a
 * named group, an escape with letters after it (`\x41`, `\u…`, `\p{…}`, `\k<…>`, `\cJ`).
 */
export function caseless(source: string): string {
  const refuse = (what: string): never => {
    throw new Error(`caseless: ${what} in ${source}`);
  };
  let out = '';
  for (let i = 0; i < source.length; i++) {
    const c = source.charAt(i);
    if (c === '\\') {
      const e = source.charAt(i + 1);
      if ('xucpPk'.includes(e)) refuse(`the escape \\${e}`);
      out += c + e;
      i++;
    } else if (c === '[') {
      let end = i + 1;
      while (end < source.length && source.charAt(end) !== ']') end += source.charAt(end) === '\\' ? 2 : 1;
      const body = source.slice(i + 1, end);
      if (hasLetter(body.replace(/\\./g, '').replace('a-zA-Z', ''))) refuse(`the class [${body}]`);
      out += source.slice(i, end + 1);
      i = end;
    } else if (c === '(' && source.startsWith('?<', i + 1) && hasLetter(source.charAt(i + 3))) {
      refuse('a named group');
    } else out += hasLetter(c) ? `[${c.toLowerCase()}${c.toUpperCase()}]` : c;
  }
  return out;
}

/**
 * A superset of every context rule's hint, as plain words: the lines the context rules run on at all.
 * Keep it in step with the rules' `hint`s.
 */
// Test-run words ("PASS", "passed", "passing") are the commonest false hint in tool output: not counted.
export const ANY_HINT = new RegExp(
  [
    ':\\/\\/',
    '[Pp]ass(?!(?:ed|ing|es)\\b)',
    // Any other case only before what makes it a name (`PASSWORD`, `DB_PASSWORd`, `Pass_Phrase`).
    caseless('pass(?=wo?r?d|phrase|[_=:-])'),
    ...['pwd', 'secret', 'token', 'key', 'auth', 'cred', 'cookie', 'sig', 'bearer', 'mysql', 'curl'].map(
      caseless,
    ),
  ].join('|'),
);
/**
 * What any match of any context rule holds, as regex sources: a line holding none of these is left as
 * it is by every context rule. The scrubber's one scan looks for these beside the token rules' hints:
 * `anyCase` for the rules that match in any case (made caseless there), `exact` for the two that do
 * not (Dockerfile and fish assignments, mysql and curl command lines). Keep it in step with the rules.
 */
export const CONTEXT_SITES: { readonly anyCase: readonly string[]; readonly exact: readonly string[] } = {
  anyCase: [
    ':\\/\\/', // url-password
    'authorization', // basic-auth, bearer after an Authorization header
    'bearer[ \\t]', // a bare bearer token
    // quoted and unquoted assignments (NAME_SEP_GATE), <password>…</password> and key="ApiKey" value="…"
    `${HINT}[\\w.-]{0,40}(?:\\\\{0,3}["']?[ \\t]{0,3}[:=]|>|["'] )`,
    `--[\\w-]{0,30}${HINT}`, // --password value
    // a random-looking value after a secret-ish word (high-entropy)
    '(?:password|passwd|passphrase|pwd|secret|token|key|credentials?)s?\\b(?:[ \\t]*(?:(?:is|was|of|for|value|here|to)\\b|[:=]|->|=>)){0,4}[ \\t]*["\'`]?[ \\t]*[\\w+/=.-]{20}',
  ],
  exact: ['(?:ENV|ARG|set(?:[ \\t]+-[a-zA-Z]{1,4}){1,3})[ \\t]', 'mysql|curl'],
};

/** Like `String#replace` with a global regex (but much faster with named groups); null keeps a match. */
export function replaceMatches(
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

/**
 * The context rules on one line, in order, each on what the rules before it left. A line without any
 * hint is left at once; the line in lower case and the checks several rules share (`HINT_WORDS`,
 * `NAME_SEP_GATE`) are computed once per version of the line. `inConfig` says whether the whole text
 * the line is part of is a config file (asked by a rule only when the line alone cannot tell).
 */
export function applyContextRules(line: string, count: { n: number }, inConfig?: () => boolean): string {
  if (!ANY_HINT.test(line)) return line;
  let out = line;
  let lower: string | undefined;
  let hint: boolean | undefined;
  let nameSep: boolean | undefined;
  for (const rule of CONTEXT_RULES) {
    lower ??= out.toLowerCase();
    if (!(rule.hint === HINT_WORDS ? (hint ??= has(lower, HINT_WORDS)) : has(lower, rule.hint))) continue;
    if (rule.needs !== undefined && !has(out, rule.needs)) continue;
    const gate = rule.gate;
    if (gate && !(gate === NAME_SEP_GATE ? (nameSep ??= gate.test(out)) : gate.test(out))) continue;
    const next = replaceMatches(out, rule.re, (m, after) => {
      const g = m.groups ?? {};
      if (!rule.accept(g, after, { text: out, start: m.index, end: m.index + m[0].length, inConfig }))
        return null;
      count.n++;
      return `${g['pre'] ?? ''}${redacted(rule.kind)}${g['post'] ?? ''}`;
    });
    if (next !== out) {
      out = next;
      lower = undefined;
      hint = undefined;
      nameSep = undefined;
    }
  }
  return out;
}
