/**
 * The secret scrubber: runs on every string before anything is written (hook payloads, transcripts,
 * logs). Linear-time patterns only; spans with open ends are found with indexOf loops, not regexes.
 */

const SECRET_NAME =
  '(?:pass(?:word|wd|phrase)?|pwd|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|client[_-]?secret|auth(?:[_-]?token)?|credentials?|session[_-]?key|account[_-]?key|signing[_-]?key|encryption[_-]?key|cookie)';

interface Rule {
  kind: string;
  re: RegExp;
  /** Build the replacement from the match groups; default replaces the whole match. */
  replace?: (kind: string, groups: string[]) => string | null;
}

const redacted = (kind: string) => `[REDACTED:${kind}]`;

/** Distinctive token shapes: replaced whole. */
const TOKEN_RULES: Rule[] = [
  { kind: 'anthropic-key', re: /\bsk-ant-[A-Za-z0-9_-]{20,}/g },
  { kind: 'openai-key', re: /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/g },
  { kind: 'aws-access-key', re: /\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[A-Z0-9]{16}\b/g },
  { kind: 'gcp-api-key', re: /\bAIza[0-9A-Za-z_-]{35}/g },
  { kind: 'github-token', re: /\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{30,255}\b/g },
  { kind: 'github-token', re: /\bgithub_pat_[A-Za-z0-9_]{22,255}\b/g },
  { kind: 'gitlab-token', re: /\bglpat-[A-Za-z0-9_-]{20,}/g },
  { kind: 'slack-token', re: /\bxox[abposr]-[A-Za-z0-9-]{10,}/g },
  { kind: 'slack-webhook', re: /https:\/\/hooks\.slack\.com\/services\/[A-Za-z0-9/_-]+/g },
  { kind: 'stripe-key', re: /\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}\b/g },
  { kind: 'npm-token', re: /\bnpm_[A-Za-z0-9]{36}\b/g },
  { kind: 'pypi-token', re: /\bpypi-[A-Za-z0-9_-]{50,}/g },
  { kind: 'sendgrid-key', re: /\bSG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}/g },
  { kind: 'huggingface-token', re: /\bhf_[A-Za-z0-9]{30,}\b/g },
  { kind: 'google-oauth-token', re: /\bya29\.[0-9A-Za-z_-]{20,}/g },
  { kind: 'shopify-token', re: /\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\b/g },
  { kind: 'digitalocean-token', re: /\bdo[por]_v1_[a-f0-9]{64}\b/g },
  { kind: 'doppler-token', re: /\bdp\.(?:st|ct|sa|scim|audit)\.[A-Za-z0-9_.-]{20,}/g },
  { kind: 'twilio-key', re: /\bSK[0-9a-fA-F]{32}\b/g },
  { kind: 'discord-token', re: /\b[MNO][A-Za-z\d_-]{23,25}\.[A-Za-z\d_-]{6}\.[A-Za-z\d_-]{27,}/g },
  { kind: 'jwt', re: /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g },
];

const PLACEHOLDER =
  /^(?:|null|none|nil|true|false|undefined|yes|no|on|off|required|optional|string|number|boolean|any|unknown|str|int|bool|bytes|redacted|changeme|\*+|x{3,}|\.{3,}|<[^>]*>|\$\{?[A-Za-z_][\w.]*\}?|\{\{.*\}\}|%\(?[\w]*\)?s?|\d+(?:\.\d+)?|process\.env\.\w+|os\.environ.*|env\(.*|await|new|this|function|return|typeof|self|get[A-Z]\w*)$/i;

/** True when an assignment's value is obviously not a secret (a placeholder, a type, a number, a URL without credentials). */
function harmlessValue(value: string): boolean {
  const v = value.trim();
  if (PLACEHOLDER.test(v)) return true;
  if (v.startsWith('[REDACTED')) return true;
  if (/^[A-Z][a-zA-Z]*(?:<.*>)?(?:\[\])?$/.test(v) && v.length < 40) return true; // a type name
  if (/^https?:\/\/[^@\s]*$/.test(v)) return true; // a URL with no credentials
  if (/^\.{0,2}\/[\w./-]*$/.test(v)) return true; // a path
  if (/^[a-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/.test(v)) return true; // a member expression in code
  return false;
}

const keepName = (kind: string, groups: string[]) => {
  const [prefix, value, suffix] = [groups[0] ?? '', groups[1] ?? '', groups[2] ?? ''];
  return harmlessValue(value) ? null : `${prefix}${redacted(kind)}${suffix}`;
};

/** Shapes where a name or context is kept and only the secret part is replaced. */
const CONTEXT_RULES: Rule[] = [
  {
    kind: 'url-password',
    re: /\b([a-z][a-z0-9+.-]*:\/\/[^\s:@/"'<>]+:)([^\s@/"'<>]+)(@)/gi,
    replace: (kind, g) => `${g[0]}${redacted(kind)}${g[2]}`,
  },
  {
    kind: 'bearer',
    re: /(\bAuthorization\s*["']?\s*[:=]\s*["']?(?:Bearer|Basic|Token|Bot)\s+)([A-Za-z0-9._~+/=-]{8,})()/gi,
    replace: keepName,
  },
  {
    kind: 'bearer',
    re: /(\bBearer\s+)([A-Za-z0-9._~+/-]{20,}=*)()/g,
    replace: keepName,
  },
  {
    kind: 'api-key-header',
    re: /(\b(?:x-api-key|api-key|x-auth-token|x-access-token)\s*["']?\s*[:=]\s*["']?)([^\s"',;]{8,})()/gi,
    replace: keepName,
  },
  {
    // "name": "value" / 'name': 'value' (JSON, YAML, Python dicts)
    kind: 'assignment',
    re: new RegExp(
      `(["'][\\w.-]*${SECRET_NAME}[\\w.-]*["']\\s*:\\s*["'])((?:[^"'\\\\\\n]|\\\\.){1,500})(["'])`,
      'gi',
    ),
    replace: keepName,
  },
  {
    // NAME = "value" / name: 'value' / --name="value"
    kind: 'assignment',
    re: new RegExp(`(\\b[\\w.-]*${SECRET_NAME}[\\w.-]*\\s*[:=]\\s*["'])([^"'\\n]{1,500})(["'])`, 'gi'),
    replace: keepName,
  },
  {
    // NAME=value / NAME: value / export NAME=value / Password=value; (unquoted)
    kind: 'assignment',
    re: new RegExp(
      `(\\b[\\w.-]*${SECRET_NAME}[\\w.-]*\\s*[:=]\\s*)([^\\s"'\`,;(){}\\[\\]<>]{1,500})(?![\\w({])()`,
      'gi',
    ),
    replace: keepName,
  },
  {
    // --password value / --token=value / -p value is too ambiguous and left alone
    kind: 'cli-flag',
    re: /(--?(?:password|passwd|pass|token|secret|api-key|apikey|auth-token|access-token|client-secret)(?:=|\s+)["']?)([^\s"'-][^\s"']{0,500})()/gi,
    replace: keepName,
  },
  {
    // "my token is 8f3K…": a high-entropy string right after a secret-ish word
    kind: 'high-entropy',
    re: new RegExp(
      `(\\b${SECRET_NAME}\\b(?:\\s+(?:is|was|of|for|value|=|:))*\\s+["'\`]?)([A-Za-z0-9+/_=.-]{20,})()`,
      'gi',
    ),
    replace: (kind, g) => (looksRandom(g[1] ?? '') ? `${g[0]}${redacted(kind)}` : null),
  },
];

/** Shannon entropy per character and a mix of character classes: random keys, not words or hex hashes. */
export function looksRandom(s: string): boolean {
  if (s.length < 20 || /^[0-9a-f]+$/i.test(s) || /^[a-z]+$/i.test(s)) return false;
  const counts = new Map<string, number>();
  for (const ch of s) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let entropy = 0;
  for (const n of counts.values()) entropy -= (n / s.length) * Math.log2(n / s.length);
  const classes = [/[a-z]/, /[A-Z]/, /[0-9]/].filter((re) => re.test(s)).length;
  return entropy >= 3.5 && classes >= 2;
}

/** Replace `open … close` spans; an unclosed span runs to the end of the text. */
function replaceSpans(
  text: string,
  open: RegExp,
  closeFor: (m: RegExpExecArray) => RegExp,
  kind: string,
  count: { n: number },
): string {
  let out = '';
  let pos = 0;
  open.lastIndex = 0;
  for (;;) {
    open.lastIndex = pos;
    const m = open.exec(text);
    if (!m) break;
    const close = closeFor(m);
    close.lastIndex = m.index + m[0].length;
    const end = close.exec(text);
    const stop = end ? end.index + end[0].length : text.length;
    out += text.slice(pos, m.index) + redacted(kind);
    count.n++;
    pos = stop;
    if (!end) break;
  }
  return pos === 0 ? text : out + text.slice(pos);
}

const PRIVATE_OPEN = /<private>/gi;
const PRIVATE_CLOSE = () => /<\/private>/gi;
const PEM_OPEN = /-----BEGIN ((?:[A-Z0-9]+ )*)PRIVATE KEY(?: BLOCK)?-----/g;
const PEM_CLOSE = () => /-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/g;
// Cheap pre-checks: most strings have none of these and skip the rule list entirely.
const MAYBE_TOKEN =
  /sk-|AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA|AIza|gh[pousr]_|github_pat_|glpat-|xox|hooks\.slack|_live_|_test_|npm_|pypi-|SG\.|hf_|ya29\.|shp|_v1_|dp\.|SK[0-9a-f]|eyJ|\.[A-Za-z\d_-]{6}\./;
const MAYBE_CONTEXT = /:\/\/|bearer|api-key|auth|pass|pwd|secret|token|key|credential|cookie/i;
const MAYBE_CONTEXT_ALL = new RegExp(MAYBE_CONTEXT.source, 'gi');

function applyContextRules(text: string, count: { n: number }): string {
  let out = text;
  for (const rule of CONTEXT_RULES) {
    rule.re.lastIndex = 0;
    out = out.replace(rule.re, (match: string, ...rest: unknown[]) => {
      const groups = rest.slice(0, 3).map((g) => (typeof g === 'string' ? g : ''));
      const replacement = rule.replace ? rule.replace(rule.kind, groups) : redacted(rule.kind);
      if (replacement === null) return match;
      count.n++;
      return replacement;
    });
  }
  return out;
}

/** Scrub a string and count the redactions. */
export function scrubTextWithCount(text: string): { text: string; redactions: number } {
  if (text.length < 8) return { text, redactions: 0 };
  const count = { n: 0 };
  let out = text;
  if (out.includes('<') && /<private>/i.test(out))
    out = replaceSpans(out, PRIVATE_OPEN, PRIVATE_CLOSE, 'private', count);
  if (out.includes('-----BEGIN')) out = replaceSpans(out, PEM_OPEN, PEM_CLOSE, 'private-key', count);
  if (MAYBE_TOKEN.test(out)) {
    for (const rule of TOKEN_RULES) {
      rule.re.lastIndex = 0;
      out = out.replace(rule.re, () => {
        count.n++;
        return redacted(rule.kind);
      });
    }
  }
  if (MAYBE_CONTEXT.test(out)) {
    // Context rules are line-local: run them only on the lines that mention a secret-ish word, found in
    // one scan of the text (in long tool output they are a small share of the lines).
    MAYBE_CONTEXT_ALL.lastIndex = 0;
    let result = '';
    let done = 0;
    for (let m = MAYBE_CONTEXT_ALL.exec(out); m !== null; m = MAYBE_CONTEXT_ALL.exec(out)) {
      const start = out.lastIndexOf('\n', m.index) + 1;
      if (start < done) continue; // this line was already handled
      const nl = out.indexOf('\n', m.index);
      const end = nl === -1 ? out.length : nl;
      result += out.slice(done, start) + applyContextRules(out.slice(start, end), count);
      done = end;
      MAYBE_CONTEXT_ALL.lastIndex = end;
    }
    out = result + out.slice(done);
  }
  return { text: out, redactions: count.n };
}

/** Replace secrets and `<private>…</private>` spans in a string. */
export function scrubText(text: string): string {
  return scrubTextWithCount(text).text;
}

/** Deep-scrub a JSON-like value (every string, at any depth); returns a new value, never mutates. */
export function scrubValue<T>(value: T): T {
  if (typeof value === 'string') return scrubText(value) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => scrubValue(v)) as T;
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[k] = scrubValue(v);
    return out as T;
  }
  return value;
}
