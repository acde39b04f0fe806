import { describe, expect, it, test } from 'vitest';
import { CODE_TEXTS, CONFIG_FILES, ENTRY_VALUES, LOOKALIKES, SECRETS } from './scrub-corpus.test-data.ts';
import * as oracle from './scrub-oracle.test-support.ts';
import { looksRandom, scanningWith, scrubbingTogether, scrubTextWithCount, scrubValue } from './scrub.ts';
import { pick, random } from './seeded-random.test-support.ts';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const randomWord = (r: () => number, n: number, chars = ALNUM): string =>
  Array.from({ length: n }, () => chars.charAt(Math.floor(r() * chars.length))).join('');

/** Lines of the kinds hook payloads carry: code full of secret-ish names, test output, prose, config. */
const secretish = (i: number) =>
  `export function readToken${i}(key: string, password?: string) {\n  const auth = \`Bearer \${cache.get(key)}\`;\n  return { auth, secret: process.env.SECRET_${i} };\n}`;
const SHAPES: readonly ((r: () => number) => string)[] = [
  (r) => pick(r, SECRETS).text,
  (r) => pick(r, ENTRY_VALUES).text,
  (r) => pick(r, LOOKALIKES),
  (r) => secretish(Math.floor(r() * 50)),
  () => 'PASS src/a.test.ts',
  () => 'Tests: 40 passed, 40 total',
  (r) =>
    `const ${pick(r, ['apiKey', 'token', 'password', 'authHeader', 'sessionKey', 'keyCount'])} = ${pick(r, ['"', "'", '`', ''])}${randomWord(r, 4 + Math.floor(r() * 40))}${pick(r, ['"', "'", '`', ''])};`,
  (r) =>
    `${pick(r, ['DB_PASSWORD', 'API_TOKEN', 'SECRET_KEY', 'PASS', 'KEY', 'AUTH'])}${pick(r, ['=', ': ', ' = ', ':='])}${randomWord(r, 6 + Math.floor(r() * 30))}`,
  // a spaced `name = word`: config or code, judged by the line around it
  (r) =>
    `${pick(r, ['', '    ', '\t', 'let ', 'user, '])}${pick(r, ['password', 'token', 'self.secret', 'smtpPass'])} = ${randomWord(r, 3 + Math.floor(r() * 8), 'abcdefghijklmnopqrstuvwxyz')}${pick(r, ['', ';', '  # prod', ' or x', ' {', ' after'])}`,
  (r) => `curl -u admin:${randomWord(r, 10)} https://example.test/${randomWord(r, 5)}`,
  (r) => `mysql -u root -p${randomWord(r, 12)} db`,
  (r) =>
    `Authorization: ${pick(r, ['Bearer', 'Basic', 'Token'])} ${randomWord(r, 8 + Math.floor(r() * 40), `${ALNUM}+/=._-`)}`,
  (r) => `sent Bearer ${randomWord(r, 18 + Math.floor(r() * 30), `${ALNUM}~+/-`)}== to it`,
  (r) => `https://user:${randomWord(r, 10)}@host.example.test/path`,
  (r) => `my token is ${randomWord(r, 20 + Math.floor(r() * 30))}`,
  (r) => `--token ${randomWord(r, 16)} --no-auth --password=${randomWord(r, 9)}`,
  (r) => `ENV API_SECRET ${randomWord(r, 14)}`,
  (r) => `<password>${randomWord(r, 11)}</password>`,
  (r) =>
    `sk-${randomWord(r, 30)} ghp_${randomWord(r, 36)} AKIA${randomWord(r, 16, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789')}`,
  (r) => `eyJ${randomWord(r, 20)}.${randomWord(r, 20)}.${randomWord(r, 12)}`,
  (r) => `M${randomWord(r, 24)}.${randomWord(r, 6)}.${randomWord(r, 30)}`,
  (r) =>
    `the ${pick(r, ['key', 'token', 'secret', 'passing', 'passed', 'cookie', 'signature'])} of ${randomWord(r, 8)} here`,
  (r) => randomWord(r, 40 + Math.floor(r() * 200), `${ALNUM} .,:;=-_/"'\`()[]{}<>\\`),
  () => '<private>hidden</private> and <private>open',
  () => '-----BEGIN RSA PRIVATE KEY-----',
  () => 'héllo wörld 日本語 token = "值是秘密123ABC"',
  () => '',
  () => '}',
  // near misses of the token shapes' hints and sites: words holding gh, gl, shp, sk-, SK, dp.
  (r) =>
    `${pick(r, ['through the high right', 'global glob', 'shpat', 'task-runner', 'disk-SKU', 'dp.st.x'])} ${randomWord(r, 30)}`,
  (r) =>
    `${pick(r, ['ghp_', 'gho_', 'glpat-', 'shpss_', 'xoxb-', 'hvs.', 'dp.ct.', 'npm_', 'hf_', 'SK'])}${randomWord(r, 20 + Math.floor(r() * 50))}`,
  (r) =>
    `${pick(r, ['M', 'N', 'O', 'x'])}${randomWord(r, 22 + Math.floor(r() * 7), `${ALNUM}_-`)}.${randomWord(r, 6)}.${randomWord(r, 26 + Math.floor(r() * 8))}`,
  (r) =>
    `sk_${pick(r, ['live', 'test'])}_${randomWord(r, 20)}_x whsec_${randomWord(r, 30)} AGE-SECRET-KEY-1${randomWord(r, 58, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789')}`,
];

/** A text of about `chars` characters: generated lines, some repeated, some JSON-escaped, CRLF now and then. */
function generated(seed: number, chars: number): string {
  const r = random(seed);
  const lines: string[] = [];
  let size = 0;
  while (size < chars) {
    let line = r() < 0.2 && lines.length > 0 ? pick(r, lines) : pick(r, SHAPES)(r);
    if (r() < 0.1) line = JSON.stringify(line).slice(1, -1);
    if (r() < 0.05) line = JSON.stringify(JSON.stringify({ log: line }));
    if (r() < 0.05) line += '\r';
    if (r() < 0.1) line = `${line} ${pick(r, SHAPES)(r)}`;
    lines.push(line);
    size += line.length + 1;
  }
  return lines.join('\n');
}

/** A config file of about `chars` characters: sections, comments, lists, block scalars and entries, many secret-named. */
function configFile(seed: number, chars: number): string {
  const r = random(seed);
  const word = () => randomWord(r, 3 + Math.floor(r() * 9), 'abcdefghijklmnopqrstuvwxyzABCDEFGH');
  const lines: string[] = [];
  for (let size = 0; size < chars; size += (lines[lines.length - 1] ?? '').length + 1) {
    const indent = pick(r, ['', '', '  ', '    ', '\t']);
    const key = pick(r, [
      'password',
      'token',
      'secret',
      'api_key',
      'Password',
      'db.password',
      'host',
      'user',
    ]);
    lines.push(
      pick(r, [
        () =>
          `${indent}${key}${pick(r, [' = ', ': ', ':', '=', ' : '])}${word()}${pick(r, ['', '  # x', ';', '()'])}`,
        () => `[${word()}]`,
        () => `# ${word()} ${word()}`,
        () => `${indent}- ${word()}`,
        () => `${indent}${key}: |\n${indent}  ${word()}(${word()})`,
        () => '',
      ])(),
    );
  }
  return lines.join('\n');
}

/** Small edits of a text: an inserted, removed or case-flipped character, to probe the rules' edges. */
function mutations(text: string, seed: number, n: number): string[] {
  const r = random(seed);
  return Array.from({ length: n }, () => {
    const at = Math.floor(r() * (text.length + 1));
    const c = text.charAt(at);
    const roll = r();
    if (roll < 0.4)
      return text.slice(0, at) + pick(r, [...' \t:="\'\\-_.\n', 'x', 'Z', '9']) + text.slice(at);
    if (roll < 0.7) return text.slice(0, at) + text.slice(at + 1);
    const flipped = c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase();
    return text.slice(0, at) + flipped + text.slice(at + 1);
  });
}

/** Every text of the corpus: secrets, config entries and files, look-alikes and code. */
const CORPUS = [
  ...SECRETS.map((c) => c.text),
  ...ENTRY_VALUES.map((c) => c.text),
  ...CONFIG_FILES.map((c) => c.text),
  ...LOOKALIKES,
  ...CODE_TEXTS,
];

/** The fast scrubber against the scrubber before it and against every rule applied one by one. */
const same = (text: string) => {
  const fast = scrubTextWithCount(text);
  expect(fast, JSON.stringify(text.slice(0, 200))).toEqual(oracle.scrubTextWithCount(text));
  expect(fast, JSON.stringify(text.slice(0, 200))).toEqual(oracle.rulesOneByOne(text));
};

// Each scan the scrubber may use (the literal anchors on small texts, the selective pattern once a
// process has scanned more) is held to the same output.
describe.each(['anchors', 'selective'] as const)(
  'the one-scan scrubber (%s scan) gives exactly what the scrubber before it and the rules one by one give',
  (scan) => {
    const it = (name: string, fn: () => void) => test(name, () => scanningWith(scan, fn));
    it('on every corpus text, in the settings the corpus test uses', () => {
      for (const text of CORPUS) {
        for (const t of [text, `before ${text} after`, `\n${text}\n`, JSON.stringify({ log: text })]) same(t);
      }
    });

    it('on small edits of every corpus text', () => {
      let seed = 1;
      for (const text of CORPUS) for (const t of mutations(text, seed++, 12)) same(t);
    });

    it('on large generated texts (up to the 256 KB capture cap), text and redaction count', () => {
      for (let seed = 1; seed <= 12; seed++) same(generated(seed, seed % 3 === 0 ? 300_000 : 40_000));
    });

    it('on generated config files (every line asks whether its text is one) and code made of the same lines', () => {
      for (let seed = 1; seed <= 16; seed++) {
        const text = configFile(seed, seed % 4 === 0 ? 60_000 : 3000);
        for (const t of [text, `f(x)\n${text}`, text.replace(/\n/g, '\r\n')]) same(t);
      }
      const texts = Array.from({ length: 6 }, (_, i) => configFile(200 + (i % 2), 8000));
      const mixed = [...texts, ...texts.map((t) => `${t}\nreturn x;`)];
      const together = scrubbingTogether(() => mixed.map((t) => scrubTextWithCount(t)));
      expect(together).toEqual(mixed.map((t) => oracle.rulesOneByOne(t)));
    });

    it('on strings scrubbed together (their lines remembered) as on each alone', () => {
      const texts = Array.from({ length: 8 }, (_, i) => generated(100 + (i % 3), 20_000));
      // Each text twice (a text met again is looked up), and lines met again across texts.
      const together = scrubbingTogether(() => [...texts, ...texts].map((t) => scrubTextWithCount(t)));
      expect(together).toEqual([...texts, ...texts].map((t) => oracle.rulesOneByOne(t)));
    });

    it('on JSON values', () => {
      const r = random(7);
      const value = {
        tool_input: {
          command: generated(3, 5000),
          edits: [{ old_string: generated(4, 9000), new_string: generated(4, 9000) }],
        },
        env: { DB_PASSWORD: randomWord(r, 12), API_TOKEN: '${TOKEN}', count: 3 },
        [`secret_${randomWord(r, 4)}`]: [generated(5, 3000), null, true],
      };
      expect(scrubValue(value)).toEqual(oracle.scrubValue(value));
    });

    it('on random mixes of secrets and noise of many sizes, from a few characters to the capture cap', () => {
      const r = random(31);
      for (let size = 8; size <= 300_000; size = Math.ceil(size * 1.7)) {
        for (let k = 0; k < (size < 5000 ? 12 : 2); k++) {
          const text = generated(Math.floor(r() * 1e9), size);
          same(text.slice(0, size + Math.floor(r() * size)));
        }
      }
    });
  },
);

describe('looksRandom', () => {
  it('judges randomness exactly as before, ASCII or not', () => {
    const r = random(11);
    for (let i = 0; i < 2000; i++) {
      const s = randomWord(r, 18 + Math.floor(r() * 60), i % 7 === 0 ? `${ALNUM}é日-_` : `${ALNUM}+/=.-_`);
      expect(looksRandom(s), s).toBe(oracle.oracleLooksRandom(s));
    }
  });
});
