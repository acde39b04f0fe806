/**
 * The scrubber's checks that no longer compile a regex of words on every hook (a set lookup, a
 * pre-check by string search) against the regexes they replace, kept here verbatim: the scrubber's
 * oracle shares `secret-names.ts` and `config-text.ts`, so the equivalence test cannot hold them to it.
 */
import { describe, expect, it } from 'vitest';
import { isConfigFile } from './config-text.ts';
import { caseless } from './secret-context.ts';
import { isLiteralHarmless, isMemberRoot, isPlaceholder } from './secret-names.ts';
import { pick, random } from './seeded-random.test-support.ts';

const PLACEHOLDER =
  /^(?:null|nil|none|undefined|true|false|yes|no|on|off|required|optional|string|number|boolean|bool|str|int|integer|bytes|any|unknown|object|void|redacted|changeme|inherit|include|omit|same-origin|bearer|basic|digest|token|oauth2?|jwt|env|is|are|was|were|be|must|should|cannot|can|does|did|has|have|will|too|please|see|use|the|a|an|to|of|for|and|or|not|in|with|from|here|set|unset|missing|invalid|incorrect|wrong|expired|empty|hidden|masked|await|new|this|self|function|return|typeof|async|\*+|x{3,}|![\w!]+|\.{3,}|…|-+|<[^<>]*>|\$\{[^}]*\}|\$[A-Za-z_]\w*|\$\(.*\)|\{\{.*\}\}|%\(?\w*\)?s|-?\d{1,5}(?:\.\d+)?|[~^>=<v]{0,3}\d+(?:\.(?:\d+|x|\*)){1,3}(?:-[\w.]+)?)$/i;
const MEMBER_ROOT =
  /^(?:process|os|env|config|cfg|settings|this|self|req|request|res|response|ctx|context|options|opts|args|params|props|state|secrets|vars|inputs|data|body|user|session|auth|creds|credentials|window|document|import)$/;
const LITERAL_HARMLESS =
  /^(?:null|nil|none|undefined|true|false|yes|no|on|off|empty|unset|required|optional|inherit|include|omit|basic|bearer|digest|oauth2?|jwt|env|default|auto|stdin|prompt|\*+|x{3,}|X{3,}|\.{3,}|…|-+|![\w!]+|<[^<>]*>|\$\{[^}]*\}|\$[A-Za-z_]\w*|\$\(.*\)|%\w+%|\{\{.*\}\}|%\(?\w*\)?s)$/i;
const CONFIG_FILE =
  /(?:^|[/\\])(?:\.env(?:\.(?!(?:md|txt|[jt]s|py|sh)$)[\w-]+)*|[^/\\]*\.(?:env|ini|cfg|conf|cnf|properties|toml|ya?ml|json5?|tfvars|config)|\.(?:npm|pypi|yarn|env)rc|\.gitconfig|credentials)$/i;

/** Each word of a regex's alternation (`a|b|c2?` → a, b, c, c2), the shapes' pieces too. */
const pieces = (re: RegExp): string[] =>
  re.source
    .slice(4, -2)
    .split('|')
    .flatMap((w) => (w.endsWith('2?') ? [w.slice(0, -2), w.slice(0, -1)] : [w]));

/** Strings near the words and shapes: case flipped, a character added or dropped, odd characters. */
function near(seed: number, words: readonly string[], n: number): string[] {
  const r = random(seed);
  const odd = [
    '',
    'x',
    'X',
    '*',
    '.',
    '…',
    '-',
    '!',
    '<',
    '>',
    '$',
    '{',
    '}',
    '(',
    ')',
    '%',
    's',
    '~',
    '^',
    '=',
    'v',
    'V',
    '0',
    '7',
    '\u212a',
    '\u0130',
    '\u017f',
    'é',
    ' ',
    '\n',
    '_',
    'K',
    'k',
  ];
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    let w = pick(r, words);
    const roll = r();
    if (roll < 0.3) w = [...w].map((c) => (r() < 0.5 ? c.toUpperCase() : c.toLowerCase())).join('');
    else if (roll < 0.5) {
      const at = Math.floor(r() * (w.length + 1));
      w = w.slice(0, at) + pick(r, odd) + w.slice(at);
    } else if (roll < 0.6) w = w.replace(/k/i, '\u212a').replace(/s/i, '\u017f');
    else if (roll < 0.8) w = Array.from({ length: 1 + Math.floor(r() * 8) }, () => pick(r, odd)).join('');
    else if (roll < 0.9) w = `${pick(r, odd)}${w}`;
    out.push(w);
  }
  return out;
}

const WORDS = [
  ...pieces(PLACEHOLDER),
  ...pieces(LITERAL_HARMLESS),
  ...pieces(MEMBER_ROOT),
  'string',
  'None',
  'TRUE',
  '***',
  'xxx',
  'XXXX',
  '...',
  '…',
  '---',
  '!ENV',
  '!!str',
  '<your-token>',
  '${TOKEN}',
  '$TOKEN',
  '$(cat f)',
  '{{ token }}',
  '%s',
  '%(pw)s',
  '%TOKEN%',
  '12345',
  '-1',
  '3.14',
  'v1.2.3',
  '^1.2.x',
  '>=2.0.0-beta.1',
  'process.env.SECRET_1',
  'hunter2',
  'to\u212aen',
  '\u0130n',
];

describe('the scrubber checks without a regex of words', () => {
  const inputs = [...WORDS, ...near(1, WORDS, 20_000)];

  it('tells placeholders as the regex did', () => {
    for (const v of inputs) expect(isPlaceholder(v), JSON.stringify(v)).toBe(PLACEHOLDER.test(v));
  });

  it('tells harmless literals as the regex did', () => {
    for (const v of inputs) expect(isLiteralHarmless(v), JSON.stringify(v)).toBe(LITERAL_HARMLESS.test(v));
  });

  it('tells the roots of settings members as the regex did', () => {
    for (const v of inputs) expect(isMemberRoot(v), JSON.stringify(v)).toBe(MEMBER_ROOT.test(v));
  });

  it('tells config files by their path as the regex did', () => {
    const names = [
      '.env',
      '.env.local',
      '.env.example.md',
      '.env.ts',
      '.envrc',
      'prod.env',
      'a.ini',
      'setup.cfg',
      'nginx.conf',
      'my.cnf',
      'app.properties',
      'pyproject.toml',
      'a.yaml',
      'a.yml',
      'a.json',
      'a.json5',
      'x.tfvars',
      'web.config',
      '.npmrc',
      '.pypirc',
      '.yarnrc',
      '.gitconfig',
      'credentials',
      'token-store.ts',
      'tokens.ts',
      'README.md',
      'config.py',
      'rc',
      'src',
    ];
    const r = random(2);
    const dirs = ['', '/p/', 'src\\', 'a/b/', '.env/', 'x.ini/'];
    const paths = [
      ...names.map((n) => `/p/${n}`),
      ...near(3, names, 20_000).map((n) => `${pick(r, dirs)}${n}`),
    ];
    for (const p of paths) expect(isConfigFile(p), JSON.stringify(p)).toBe(CONFIG_FILE.test(p));
  });

  it('makes a source caseless as before', () => {
    // As caseless wrote each letter before it tested with a regex.
    const before = (s: string) => s.replace(/[a-z]/gi, (c) => `[${c.toLowerCase()}${c.toUpperCase()}]`);
    for (const s of ['pwd', 'secret', 'Bearer', 'mysql', 'a_b-9', 'Zz@[`{'])
      expect(caseless(s)).toBe(before(s));
  });
});
