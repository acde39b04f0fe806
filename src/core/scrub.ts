/**
 * The secret scrubber: every string engram keeps (hook payloads, transcripts, logs) passes through here
 * first. Pure and synchronous, and on the hook hot path, so: every pattern is precompiled; a rule runs
 * only when a cheap literal pre-check finds its hint; and everything is linear-time. Token shapes may
 * only start where no token character precedes them (a failed attempt never rescans the same run),
 * quantifiers are bounded, checks that could fail after a long scan live in callbacks rather than in
 * lookaheads, and spans with open ends (PEM keys, <private>) are found with exec loops.
 */

const redacted = (kind: string): string => `[REDACTED:${kind}]`;

interface TokenRule {
  readonly kind: string;
  /** Literal substrings, one of which must occur for the rule to run at all (empty: always runs). */
  readonly hints: readonly string[];
  readonly re: RegExp;
  readonly verify?: ((token: string) => boolean) | undefined;
}

const mixedCase = (s: string): boolean => /\d/.test(s) && /[a-z]/.test(s) && /[A-Z]/.test(s);
const E = '(?![\\w-])';

/**
 * Distinctive token shapes, replaced whole: kind, `|`-separated literal hints, pattern, check. A token
 * may only start where no token character precedes it. Order matters: sk-ant- before sk-.
 */
const TOKEN_RULES: readonly TokenRule[] = (
  [
    ['anthropic-key', 'sk-ant-', 'sk-ant-[\\w-]{20,}'],
    ['openai-key', 'sk-', 'sk-(?:proj-|svcacct-|admin-)?[\\w-]{20,}', mixedCase],
    ['aws-access-key', 'AKIA|ASIA', `(?:AKIA|ASIA)[A-Z0-9]{16}${E}`],
    ['gcp-api-key', 'AIza', `AIza[\\w-]{35}${E}`],
    ['github-token', 'gh|github_pat_', `gh[pousr]_[A-Za-z0-9]{30,255}${E}|github_pat_\\w{22,255}${E}`],
    ['gitlab-token', 'gl', 'gl(?:pat|ptt|dt|rt|soat|cbt)-[\\w-]{20,}'],
    ['slack-token', 'xox|xapp-', 'xox[abposre]-[A-Za-z0-9-]{10,}|xapp-\\d-[\\w-]{10,}'],
    ['slack-webhook', 'hooks.slack.com', 'https://hooks\\.slack\\.com/[\\w/-]+'],
    ['stripe-key', '_live_|_test_|whsec_', '(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}|whsec_[A-Za-z0-9]{24,}'],
    ['npm-token', 'npm_', `npm_[A-Za-z0-9]{36}${E}`],
    ['pypi-token', 'pypi-', 'pypi-[\\w-]{50,}'],
    ['sendgrid-key', 'SG.', 'SG\\.[\\w-]{16,}\\.[\\w-]{16,}'],
    ['huggingface-token', 'hf_', `hf_[A-Za-z0-9]{30,}${E}`],
    ['google-oauth-token', 'ya29.', 'ya29\\.[\\w-]{20,}'],
    ['shopify-token', 'shp', `shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}${E}`],
    ['digitalocean-token', '_v1_', `do[por]_v1_[a-f0-9]{64}${E}`],
    ['doppler-token', 'dp.', 'dp\\.(?:st|ct|sa|scim|audit|pt)\\.[\\w.-]{20,}'],
    ['vault-token', 'hvs.|hvb.|hvr.', 'hv[sbr]\\.[\\w-]{24,}'],
    ['age-secret-key', 'AGE-SECRET-KEY-1', 'AGE-SECRET-KEY-1[0-9A-Z]{58}'],
    ['twilio-key', 'SK', `SK[0-9a-fA-F]{32}${E}`],
    ['jwt', 'eyJ', 'eyJ[\\w-]{10,}\\.[\\w-]{10,}\\.[\\w-]{8,}(?:\\.[\\w-]+){0,2}'],
    ['discord-token', '', '[MNO][\\w-]{23,27}\\.[\\w-]{6}\\.[\\w-]{27,}', mixedCase],
  ] as const
).map(([kind, hints, src, verify]: readonly [string, string, string, ((t: string) => boolean)?]) => ({
  kind,
  hints: hints === '' ? [] : hints.split('|'),
  re: new RegExp(`(?<![\\w-])(?:${src})`, 'g'),
  verify,
}));

// ---- names --------------------------------------------------------------------------------------

/** A substring every secret-ish name contains (`key` only after something: `api_key`, not `key`). */
const HINT = '(?:pass|pwd|secret|token|[\\w.-]key|auth|cred|cookie|sig)';
const HINT_RE = new RegExp(HINT, 'i');
const SECRET_PART =
  /^(?:pwd|passphrase|secrets?|auth|authorization|credentials?|creds|cookie|sig|[a-z]*(?:password|passwd|secret|token|apikey|privatekey|accesskey|secretkey|sessionkey|accountkey))$/;
const words = (list: string): ReadonlySet<string> => new Set(list.split(' '));
/** `<word>_key` is secret-ish for these words (`api_key`, `AccountKey`, `x-api-key`). */
const KEY_OWNERS = words(
  'api access private secret session account signing encryption encrypt master shared client app license auth sas storage consumer subscription deploy admin hmac jwt webhook',
);
/** A name ending in one of these describes a secret without being one (`token_count`, `password_reset_url`). */
const NOT_SECRET_LAST = words(
  'count counts length len size url uri urls type types limit limits max min expiry expires expiration expired ttl timeout id ids name names file path paths dir field fields label hint prompt policy endpoint mode enabled required format index version usage budget header headers prefix env var source provider strategy method scheme kind display placeholder description regex pattern rule rules manager service store handler helper fn callback status state error errors message valid visible reset changed at date time created updated location host domain server realm issuer audience region algorithm alg stdin cmd command input key ts tsx js jsx mjs cjs py rb go rs java kt json yaml yml toml md txt sh html css lock log',
);
/** Flags that mention a secret without taking one (`--no-auth`, `--with-token`). */
const NOT_SECRET_FIRST = words('no with show print use skip allow enable disable require has is should');

const nameCache = new Map<string, boolean>();

/** True when an identifier names a secret: `DB_PASSWORD`, `apiKey`, `x-api-key`, `--token`, `AccountKey`. */
export function isSecretName(name: string): boolean {
  let known = nameCache.get(name);
  if (known === undefined) {
    if (nameCache.size >= 2048) nameCache.clear();
    known = judgeName(name);
    nameCache.set(name, known);
  }
  return known;
}

function judgeName(name: string): boolean {
  const parts = name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((p) => p !== '');
  const last = parts[parts.length - 1];
  if (last === undefined || NOT_SECRET_FIRST.has(parts[0] ?? '')) return false;
  if (last === 'key' && parts.length > 1 && KEY_OWNERS.has(parts[parts.length - 2] ?? '')) return true;
  if (last === 'key' && parts.length > 1 && /^[A-Z0-9_-]+$/.test(name.replace(/^-+/, ''))) return true;
  if (last === 'signature' && ['access', 'amz', 'shared'].includes(parts[parts.length - 2] ?? ''))
    return true;
  if (NOT_SECRET_LAST.has(last)) return false;
  if (last === 'pass') return true; // `DB_PASS`, not `passContext`
  return parts.some((p, i) => SECRET_PART.test(p) || (p === 'key' && KEY_OWNERS.has(parts[i - 1] ?? '')));
}

// ---- values -------------------------------------------------------------------------------------

const PLACEHOLDER =
  /^(?:null|nil|none|undefined|true|false|yes|no|on|off|required|optional|string|number|boolean|bool|str|int|integer|bytes|any|unknown|object|void|redacted|changeme|inherit|include|omit|same-origin|bearer|basic|digest|token|oauth2?|jwt|env|is|are|was|were|be|must|should|cannot|can|does|did|has|have|will|too|please|see|use|the|a|an|to|of|for|and|or|not|in|with|from|here|set|unset|missing|invalid|incorrect|wrong|expired|empty|hidden|masked|await|new|this|self|function|return|typeof|async|\*+|x{3,}|![\w!]+|\.{3,}|…|-+|<[^<>]*>|\$\{[^}]*\}|\$[A-Za-z_]\w*|\$\(.*\)|\{\{.*\}\}|%\(?\w*\)?s|-?\d{1,5}(?:\.\d+)?|[~^>=<v]{0,3}\d+(?:\.(?:\d+|x|\*)){1,3}(?:-[\w.]+)?)$/i;
const MEMBER_ROOT =
  /^(?:process|os|env|config|cfg|settings|this|self|req|request|res|response|ctx|context|options|opts|args|params|props|state|secrets|vars|inputs|data|body|user|session|auth|creds|credentials|window|document|import)$/;

/** Where an unquoted value sits: its separator, whether a space precedes that, and the next character. */
interface Unquoted {
  readonly sep: string;
  readonly spaced: boolean;
  readonly next: string;
  /** `name:value` with no space after the colon (`auth:login`, `session:token`): a scope, not YAML. */
  readonly tight?: boolean;
}

/**
 * True when an assignment's value is obviously not a secret: empty, a placeholder or type, a small
 * number, a path, a URL without credentials; or, unquoted, a reference in code (`process.env.X`,
 * `token.value`, `hashedPassword`, `token = comment;`).
 */
function isHarmless(value: string, at?: Unquoted): boolean {
  const v = value.trim();
  if (v === '' || PLACEHOLDER.test(v) || /^(?:\w+ )?\[REDACTED:[\w-]+\](?:\\[nr])*$/.test(v)) return true;
  if (/^(?:~|\.{1,2})?\/[\w./-]*$/.test(v) || /^[a-z][\w+.-]*:\/\/[^@\s]*$/i.test(v)) return true;
  // A sentence (`"Unexpected token."`, `"意外的标记。"`), not a passphrase.
  if (/[.?!。？！]$/.test(v) && (/^[A-Z]?[a-z]+[ ,]/.test(v) || /[^\t -\xff]/.test(v))) return true;
  if (at === undefined) return false;
  if (v.length < 3 || (at.tight && at.sep === ':' && /^[A-Za-z]{1,15}$/.test(v))) return true;
  if (/^[A-Za-z_$][\w$]*$/.test(v)) {
    // A bare word: a type (`key: Buffer`, `privateKey: T2;`) or a variable (`token = comment;`).
    const codeNext = ';,)}'.includes(at.next || '\n');
    const noDigits = !/\d/.test(v);
    if (at.sep === ':' && /^[A-Z]/.test(v) && (noDigits || codeNext)) return true;
    if (noDigits && (at.spaced || (at.sep === ':' && codeNext))) return true;
    if (/[a-z][A-Z]/.test(v) && isSecretName(v)) return true; // `hashedPassword`
  }
  const member = /^([A-Za-z_$][\w$]*)((?:\??\.[A-Za-z_$][\w$]*)+)[!?]?$/.exec(v);
  if (member === null) return false;
  return !/\d/.test(v) || MEMBER_ROOT.test(member[1] ?? '') || HINT_RE.test(member[2] ?? '');
}

const isUpper = (c: number): boolean => c >= 65 && c <= 90;

/** Shannon entropy, character classes and case mix: random keys, not words, identifiers or prose. */
export function looksRandom(s: string): boolean {
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
  // Without digits, demand the frequent case changes of random text (not the few of camelCase words).
  let changes = 0;
  for (let i = 1; i < s.length; i++) {
    if (isUpper(s.charCodeAt(i - 1)) !== isUpper(s.charCodeAt(i))) changes++;
  }
  const mixed = digit > 0 ? lower + upper > 0 : s.length >= 30 && changes >= s.length * 0.4;
  return mixed && entropy >= 3.3;
}

// ---- secrets in context: a name, header or URL is kept, only the value is replaced --------------

type Groups = Record<string, string | undefined>;
interface ContextRule {
  readonly kind: string;
  /** A case-insensitive pre-check; the rule runs only when it matches. */
  readonly hint: RegExp;
  /** Named groups `pre`, `val` and optional `post` that together cover the whole match. */
  readonly re: RegExp;
  /** Whether `val` is a secret; `next` is the character after the match. */
  readonly accept: (g: Groups, next: string) => boolean;
}

const NAME = `(?<![\\w./-])(?<name>[\\w.-]{0,40}?${HINT}[\\w.-]{0,40})`;
const SEP = `\\\\{0,3}["']?(?<sp>[ \\t]{0,3})(?<sep>:=|[:=](?![=>:]))(?<sp2>[ \\t]{0,3})`;
/**
 * A quoted value, possibly inside another JSON string (`\\"password\\":\\"x\\"`): it opens with `bs`
 * backslashes and a quote and closes at the first quote whose backslash run is `bs` plus a multiple of
 * 2(|bs|+1) (so escaped quotes and trailing escaped backslashes at that level are inside the value).
 */
const quotedRule = (q: string): ContextRule => ({
  kind: 'assignment',
  hint: HINT_RE,
  re: new RegExp(
    `(?<pre>${NAME}${SEP}(?<bs>\\\\{0,3})${q})(?<val>[^${q}\\\\\\n](?:[^${q}\\n]|(?<=\\\\)${q}){0,499}?)` +
      `(?<post>(?<!\\\\)(?:\\k<bs>\\k<bs>\\\\\\\\)*\\k<bs>${q})`,
    'gi',
  ),
  accept: (g) => isSecretName(g['name'] ?? '') && !isHarmless(g['val'] ?? ''),
});
/** A bare value after a flag or in a command line: not code, so only obvious references are harmless. */
const BARE: Unquoted = { sep: '', spaced: false, next: '' };
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
    re: new RegExp(`(?<pre>${NAME}${SEP})(?<val>[^\\s"'\`,;(){}\\[\\]<>\\\\&|]{1,500})`, 'gi'),
    accept: (g, next) =>
      !'([{'.includes(next || ' ') &&
      !(g['sep'] === ':' && g['name']?.toLowerCase() === 'pass') && // "First pass: parse it"
      isSecretName(g['name'] ?? '') &&
      !isHarmless(g['val'] ?? '', {
        sep: g['sep'] ?? '',
        spaced: g['sp'] !== '',
        next,
        tight: g['sp2'] === '',
      }),
  },
  {
    kind: 'assignment',
    hint: HINT_RE,
    re: new RegExp(
      `(?<pre><(?<name>[\\w.-]{0,40}?${HINT}[\\w.-]{0,40})>)(?<val>[^<\\n]{1,500})(?<post></\\k<name>>)`,
      'gi',
    ),
    accept: (g) => isSecretName(g['name'] ?? '') && !isHarmless(g['val'] ?? ''),
  },
  {
    // --password value, --token "value"
    kind: 'cli-flag',
    hint: HINT_RE,
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
    'PASS(?=WORD|WD|PHRASE|[_=:-])',
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
      result += out.slice(done, start) + applyContextRules(out.slice(start, end), count);
      done = end;
      ANY_HINT.lastIndex = end;
    }
    out = result + out.slice(done);
  }
  return { text: out, redactions: count.n };
}

function applyContextRules(line: string, count: { n: number }): string {
  let out = line;
  for (const rule of CONTEXT_RULES) {
    if (!rule.hint.test(out)) continue;
    out = replaceMatches(out, rule.re, (m, next) => {
      const g = m.groups ?? {};
      if (!rule.accept(g, next)) return null;
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
    return key !== undefined && isSecretName(key) && !isHarmless(text) ? redacted('assignment') : text;
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
