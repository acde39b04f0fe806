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
  /** Literal substrings one of which must occur for the rule to run at all (none: always runs). */
  readonly hints?: readonly string[];
  readonly re: RegExp;
  readonly verify?: (token: string) => boolean;
}

/** A token shape that may only start where no token character precedes it. */
const tok = (src: string): RegExp => new RegExp(`(?<![\\w-])(?:${src})`, 'g');
const mixedCase = (s: string): boolean => /\d/.test(s) && /[a-z]/.test(s) && /[A-Z]/.test(s);

/** Distinctive token shapes, replaced whole. Order matters where prefixes overlap (sk-ant- before sk-). */
const TOKEN_RULES: readonly TokenRule[] = [
  { kind: 'anthropic-key', hints: ['sk-ant-'], re: tok('sk-ant-[\\w-]{20,}') },
  {
    kind: 'openai-key',
    hints: ['sk-'],
    re: tok('sk-(?:proj-|svcacct-|admin-)?[\\w-]{20,}'),
    verify: mixedCase,
  },
  { kind: 'aws-access-key', hints: ['AKIA', 'ASIA'], re: tok('(?:AKIA|ASIA)[A-Z0-9]{16}(?![\\w-])') },
  { kind: 'gcp-api-key', hints: ['AIza'], re: tok('AIza[\\w-]{35}(?![\\w-])') },
  {
    kind: 'github-token',
    hints: ['gh', 'github_pat_'],
    re: tok('gh[pousr]_[A-Za-z0-9]{30,255}(?![\\w-])|github_pat_\\w{22,255}(?![\\w-])'),
  },
  { kind: 'gitlab-token', hints: ['gl'], re: tok('gl(?:pat|ptt|dt|rt|soat|cbt)-[\\w-]{20,}') },
  { kind: 'slack-token', hints: ['xox', 'xapp-'], re: tok('xox[abposre]-[A-Za-z0-9-]{10,}|xapp-\\d-[\\w-]{10,}') },
  {
    kind: 'slack-webhook',
    hints: ['hooks.slack.com'],
    re: tok('https://hooks\\.slack\\.com/(?:services|workflows|triggers)/[\\w/-]+'),
  },
  {
    kind: 'stripe-key',
    hints: ['_live_', '_test_', 'whsec_'],
    re: tok('(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}|whsec_[A-Za-z0-9]{24,}'),
  },
  { kind: 'npm-token', hints: ['npm_'], re: tok('npm_[A-Za-z0-9]{36}(?![\\w-])') },
  { kind: 'pypi-token', hints: ['pypi-'], re: tok('pypi-[\\w-]{50,}') },
  { kind: 'sendgrid-key', hints: ['SG.'], re: tok('SG\\.[\\w-]{16,}\\.[\\w-]{16,}') },
  { kind: 'huggingface-token', hints: ['hf_'], re: tok('hf_[A-Za-z0-9]{30,}(?![\\w-])') },
  { kind: 'google-oauth-token', hints: ['ya29.'], re: tok('ya29\\.[\\w-]{20,}') },
  { kind: 'shopify-token', hints: ['shp'], re: tok('shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}(?![\\w-])') },
  { kind: 'digitalocean-token', hints: ['_v1_'], re: tok('do[por]_v1_[a-f0-9]{64}(?![\\w-])') },
  { kind: 'doppler-token', hints: ['dp.'], re: tok('dp\\.(?:st|ct|sa|scim|audit|pt)\\.[\\w.-]{20,}') },
  { kind: 'vault-token', hints: ['hvs.', 'hvb.', 'hvr.'], re: tok('hv[sbr]\\.[\\w-]{24,}') },
  { kind: 'age-secret-key', hints: ['AGE-SECRET-KEY-1'], re: tok('AGE-SECRET-KEY-1[0-9A-Z]{58}') },
  { kind: 'twilio-key', hints: ['SK'], re: tok('SK[0-9a-fA-F]{32}(?![\\w-])') },
  { kind: 'jwt', hints: ['eyJ'], re: tok('eyJ[\\w-]{10,}\\.[\\w-]{10,}\\.[\\w-]{8,}(?:\\.[\\w-]+){0,2}') },
  { kind: 'discord-token', re: tok('[MNO][\\w-]{23,27}\\.[\\w-]{6}\\.[\\w-]{27,}'), verify: mixedCase },
];

// ---- names --------------------------------------------------------------------------------------

/** A substring every secret-ish name contains; the regexes use it, `isSecretName` decides. */
const HINT = '(?:pass|pwd|secret|token|key|auth|cred|cookie|sig)';
const HINT_RE = new RegExp(HINT, 'i');
const SECRET_PART =
  /^(?:pass|pwd|passphrase|secrets?|auth|authorization|credentials?|creds|cookie|sig|[a-z]*(?:password|passwd|secret|token|apikey|privatekey|accesskey|secretkey|sessionkey|accountkey))$/;
/** `<word>_key` is secret-ish for these words (`api_key`, `AccountKey`, `x-api-key`). */
const KEY_OWNERS = new Set(
  'api access private secret session account signing encryption encrypt master shared client app license auth sas storage consumer subscription deploy admin hmac jwt webhook'.split(
    ' ',
  ),
);
/** A name ending in one of these describes a secret without being one (`token_count`, `password_reset_url`). */
const NOT_SECRET_LAST = new Set(
  'count counts length len size url uri urls type types limit limits max min expiry expires expiration expired ttl timeout id ids name names file path paths dir field fields label hint prompt policy endpoint mode enabled required format index version usage budget header headers prefix env var source provider strategy method scheme kind display placeholder description regex pattern rule rules manager service store handler helper fn callback status state error errors message valid visible reset changed at date time created updated location host domain server realm issuer audience region algorithm alg stdin cmd command input key'.split(
    ' ',
  ),
);
/** Flags that mention a secret without taking one (`--no-auth`, `--with-token`). */
const NOT_SECRET_FIRST = new Set('no with show print use skip allow enable disable require has is should'.split(' '));

/** True when an identifier names a secret: `DB_PASSWORD`, `apiKey`, `x-api-key`, `--token`, `AccountKey`. */
export function isSecretName(name: string): boolean {
  const parts = name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((p) => p !== '');
  const last = parts[parts.length - 1];
  if (last === undefined || NOT_SECRET_FIRST.has(parts[0] ?? '')) return false;
  if (last === 'key' && parts.length > 1 && KEY_OWNERS.has(parts[parts.length - 2] ?? '')) return true;
  if (last === 'key' && parts.length > 1 && /^[A-Z0-9_-]+$/.test(name.replace(/^-+/, ''))) return true;
  if (last === 'signature' && ['access', 'amz', 'shared'].includes(parts[parts.length - 2] ?? '')) return true;
  if (NOT_SECRET_LAST.has(last)) return false;
  return parts.some((p, i) => SECRET_PART.test(p) || (p === 'key' && KEY_OWNERS.has(parts[i - 1] ?? '')));
}

// ---- values -------------------------------------------------------------------------------------

const PLACEHOLDER =
  /^(?:null|nil|none|undefined|true|false|yes|no|on|off|required|optional|string|number|boolean|bool|str|int|integer|bytes|any|unknown|object|void|redacted|changeme|inherit|include|omit|same-origin|bearer|basic|digest|token|oauth2?|jwt|env|is|are|was|were|be|the|a|an|to|of|for|and|or|not|in|with|from|here|set|unset|missing|invalid|incorrect|wrong|expired|empty|hidden|masked|await|new|this|self|function|return|typeof|async|\*+|x{3,}|\.{3,}|…|-+|<[^<>]*>|\$\{[^}]*\}|\$[A-Za-z_]\w*|\$\(.*\)|\{\{.*\}\}|%\(?\w*\)?s|-?\d{1,5}(?:\.\d+)?|\d+(?:\.\d+){1,3})$/i;
const MEMBER_ROOT =
  /^(?:process|os|env|config|cfg|settings|this|self|req|request|res|response|ctx|context|options|opts|args|params|props|state|secrets|vars|inputs|data|body|user|session|auth|creds|credentials|window|document|import)$/;

/**
 * True when an assignment's value is obviously not a secret: empty, a placeholder or type, a small
 * number, a path, a URL without credentials, or (unquoted) a reference in code such as `process.env.X`.
 */
function isHarmless(value: string, quoted: boolean, sep = '='): boolean {
  const v = value.trim();
  if (v === '' || v.startsWith('[REDACTED:') || PLACEHOLDER.test(v)) return true;
  if (/^(?:~|\.{1,2})?\/[\w./-]*$/.test(v) || /^[a-z][\w+.-]*:\/\/[^@\s]*$/i.test(v)) return true;
  if (quoted) return false;
  if (sep === ':' && /^[A-Z][A-Za-z]{0,39}$/.test(v)) return true; // a type annotation
  if (/^[a-z_$][\w$]*$/.test(v) && /[a-z][A-Z]/.test(v) && HINT_RE.test(v)) return true; // `hashedPassword`
  const member = /^([A-Za-z_$][\w$]*)((?:\??\.[A-Za-z_$][\w$]*)+)[!?]?$/.exec(v);
  return member !== null && (MEMBER_ROOT.test(member[1] ?? '') || HINT_RE.test(member[2] ?? ''));
}

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
  const letters = lower + upper;
  const mixed = digit > 0 ? letters > 0 : upper / letters >= 0.2 && lower / letters >= 0.2;
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

const NAME = `(?<![\\w.-])(?<name>[\\w.-]{0,40}?${HINT}[\\w.-]{0,40})`;
const SEP = `\\\\{0,3}["']?[ \\t]{0,3}(?<sep>:=|[:=](?![=>:]))[ \\t]{0,3}`;
/** A quoted value, escapes included; the closing quote carries as many backslashes as the opening one. */
const quotedRule = (q: string): ContextRule => ({
  kind: 'assignment',
  hint: HINT_RE,
  re: new RegExp(`(?<pre>${NAME}${SEP}(?<bs>\\\\{0,3})${q})(?<val>(?:[^${q}\\\\\\n]|\\\\.){1,500}?)(?<post>\\k<bs>${q})`, 'gi'),
  accept: (g) => isSecretName(g['name'] ?? '') && !isHarmless(g['val'] ?? '', true),
});
const cliName = (g: Groups) => isSecretName(g['name'] ?? '') && !isHarmless(g['val'] ?? '', false);

const CONTEXT_RULES: readonly ContextRule[] = [
  {
    kind: 'url-password',
    hint: /:\/\//,
    re: /(?<pre>(?<![\w+.-])[a-z][\w+.-]{0,30}:\/\/[^\s:@/"'<>\\]{1,100}:)(?<val>[^\s@/"'<>\\]{1,200})(?<post>@)/gi,
    accept: (g) => !isHarmless(g['val'] ?? '', true),
  },
  {
    kind: 'basic-auth',
    hint: /authorization/i,
    re: /(?<pre>\bauthorization\\{0,3}["']?[ \t]*[:=][ \t]*\\{0,3}["']?[ \t]*Basic[ \t]+)(?<val>[\w.~+/=-]{4,})/gi,
    accept: (g) => !isHarmless(g['val'] ?? '', true),
  },
  {
    kind: 'bearer',
    hint: /authorization/i,
    re: /(?<pre>\bauthorization\\{0,3}["']?[ \t]*[:=][ \t]*\\{0,3}["']?[ \t]*(?:Bearer|Token|Bot|Digest|Negotiate)[ \t]+)(?<val>[\w.~+/=-]{4,})/gi,
    accept: (g) => !isHarmless(g['val'] ?? '', true),
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
      !'([{'.includes(next || ' ') && cliName(g) && !isHarmless(g['val'] ?? '', false, g['sep']),
  },
  {
    kind: 'assignment',
    hint: HINT_RE,
    re: new RegExp(`(?<pre><(?<name>[\\w.-]{0,40}?${HINT}[\\w.-]{0,40})>)(?<val>[^<\\n]{1,500})(?<post></\\k<name>>)`, 'gi'),
    accept: (g) => isSecretName(g['name'] ?? '') && !isHarmless(g['val'] ?? '', true),
  },
  {
    // --password value, --token "value"
    kind: 'cli-flag',
    hint: HINT_RE,
    re: new RegExp(`(?<pre>(?<![\\w-])--(?<name>[\\w-]{0,30}?${HINT}[\\w-]{0,30})[ \\t]+["']?)(?<val>[^\\s"'\\\\-][^\\s"'\\\\]{0,499})`, 'gi'),
    accept: cliName,
  },
  {
    // mysql -pSECRET, curl -u user:SECRET
    kind: 'cli-flag',
    hint: /mysql|curl/,
    re: /(?<pre>\b(?:mysql(?:dump|admin)?\b[^\n|;&]{0,150}?[ \t]-p|curl\b[^\n|;&]{0,150}?[ \t](?:-u|--user)[ \t]*[^\s:'"]{1,100}:))(?<val>[^\s'"\\-][^\s'"\\]{0,200})/g,
    accept: (g) => !isHarmless(g['val'] ?? '', false),
  },
  {
    // "my token is 8f3K…": a random-looking string right after a secret-ish word
    kind: 'high-entropy',
    hint: /pass|pwd|secret|token|key|cred/i,
    re: /(?<pre>(?<![\w-])(?:password|passwd|passphrase|pwd|secret|token|key|credentials?)s?\b(?:[ \t]*(?:is|was|=|:|->|=>|of|for|value|here|to)\b){0,4}[ \t]*["'`]?[ \t]*)(?<val>[\w+/=.-]{20,512})/gi,
    accept: (g) => looksRandom(g['val'] ?? ''),
  },
];

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

/** Replace secrets and `<private>…</private>` spans in a string, and count the redactions. */
export function scrubTextWithCount(text: string): { text: string; redactions: number } {
  const count = { n: 0 };
  if (text.length < 6) return { text, redactions: 0 };
  let out = text;
  if (out.includes('<') && /<private[ \t]*>/i.test(out)) out = redactPrivate(out, count);
  if (out.includes('-----BEGIN ')) out = redactPem(out, count);
  for (const rule of TOKEN_RULES) {
    if (rule.hints && !rule.hints.some((h) => out.includes(h))) continue;
    rule.re.lastIndex = 0;
    out = out.replace(rule.re, (match: string) => {
      if (rule.verify && !rule.verify(match)) return match;
      count.n++;
      return redacted(rule.kind);
    });
  }
  for (const rule of CONTEXT_RULES) {
    if (!rule.hint.test(out)) continue;
    rule.re.lastIndex = 0;
    out = out.replace(rule.re, (match: string, ...rest: unknown[]) => {
      const groups = rest[rest.length - 1] as Groups;
      const offset = rest[rest.length - 3] as number;
      const whole = rest[rest.length - 2] as string;
      if (!rule.accept(groups, whole.charAt(offset + match.length))) return match;
      count.n++;
      return `${groups['pre'] ?? ''}${redacted(rule.kind)}${groups['post'] ?? ''}`;
    });
  }
  return { text: out, redactions: count.n };
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
    if (key !== undefined && isSecretName(key) && !isHarmless(value, true)) return redacted('assignment');
    return scrubText(value);
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
