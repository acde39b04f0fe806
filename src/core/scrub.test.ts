import { describe, expect, it } from 'vitest';
import { CORPUS_EXPECTED } from './scrub-corpus-expected.test-data.ts';
import { CODE_TEXTS, CONFIG_FILES, ENTRY_VALUES, LOOKALIKES, SECRETS } from './scrub-corpus.test-data.ts';
import {
  isSecretName,
  looksRandom,
  scrubbingTogether,
  scrubText,
  scrubTextWithCount,
  scrubValue,
} from './scrub.ts';

const j = (...parts: string[]): string => parts.join('');
const GHP = j('ghp_', 'FAKEfakeFAKEfakeFAKEfakeFAKEfake1234');

/** Time one call, in milliseconds. */
function timed(fn: () => unknown): number {
  const started = performance.now();
  fn();
  return performance.now() - started;
}

describe('scrubText on the corpus', () => {
  it('has a corpus of the promised size', () => {
    expect(SECRETS.length).toBeGreaterThanOrEqual(100);
    expect(LOOKALIKES.length).toBeGreaterThanOrEqual(40);
    expect(new Set(SECRETS.map((c) => c.name)).size).toBe(SECRETS.length);
  });

  it(`removes all ${SECRETS.length} corpus secrets (recall 100%), in the expected format where given`, () => {
    const missed = SECRETS.filter((c) => scrubText(c.text).includes(c.secret)).map((c) => c.name);
    const recall = (SECRETS.length - missed.length) / SECRETS.length;
    expect({ missed, recall }).toEqual({ missed: [], recall: 1 });
    for (const c of SECRETS) {
      const out = scrubTextWithCount(c.text);
      expect(out.redactions, c.name).toBeGreaterThan(0);
      expect(out.text, c.name).toContain('[REDACTED:');
      if (c.expected !== undefined) expect(out.text, c.name).toBe(c.expected);
    }
  });

  it(`keeps all ${LOOKALIKES.length} look-alikes unchanged (0 false positives)`, () => {
    const changed = LOOKALIKES.filter((t) => scrubText(t) !== t).map((t) => [t, scrubText(t)]);
    expect({ changed, falsePositives: changed.length, kept: LOOKALIKES.length }).toEqual({
      changed: [],
      falsePositives: 0,
      kept: LOOKALIKES.length,
    });
  });

  it('finds secrets wherever they sit: quoted, between words, on their own line, in JSON', () => {
    for (const c of SECRETS) {
      for (const text of [`before ${c.text} after`, `\n${c.text}\n`, JSON.stringify({ log: c.text })]) {
        expect(scrubText(text), `${c.name} in ${JSON.stringify(text)}`).not.toContain(c.secret);
      }
    }
  });

  it(`removes the value of all ${ENTRY_VALUES.length} config entries on their own line, keeping the key`, () => {
    for (const c of ENTRY_VALUES) {
      const kept = c.text.replace(c.secret, '[REDACTED:assignment]');
      for (const [text, want] of [
        [c.text, kept],
        [`\n${c.text}\n`, `\n${kept}\n`],
        [JSON.stringify({ log: c.text }), JSON.stringify({ log: kept })],
        [`notes:\n${c.text}  # staging\nend`, `notes:\n${kept}  # staging\nend`],
      ] as const) {
        expect(scrubTextWithCount(text), `${c.name} in ${JSON.stringify(text)}`).toEqual({
          text: want,
          redactions: 1,
        });
      }
    }
  });

  it(`removes the secret of all ${CONFIG_FILES.length} config files whose line alone does not show it`, () => {
    for (const c of CONFIG_FILES) {
      for (const text of [c.text, `\n${c.text}`, c.text.replace(/\r?\n/g, '\r\n')]) {
        expect(scrubTextWithCount(text), `${c.name} in ${JSON.stringify(text)}`).toEqual({
          text: text.replace(c.secret, '[REDACTED:assignment]'),
          redactions: 1,
        });
      }
    }
  });

  it(`keeps all ${CODE_TEXTS.length} pieces of code of the same shapes unchanged`, () => {
    const changed = CODE_TEXTS.filter((t) => scrubText(t) !== t).map((t) => [t, scrubText(t)]);
    expect(changed).toEqual([]);
  });

  it('scrubs a line that config and code share as each text needs, scrubbed together or alone', () => {
    const config = 'user = app\n    password = hunter\n';
    const code = 'def login(hunter):\n    password = hunter\n    return password\n';
    const alone = [config, code, config, code].map((t) => scrubTextWithCount(t));
    expect(alone.map((r) => r.text)).toEqual([
      'user = app\n    password = [REDACTED:assignment]\n',
      code,
      'user = app\n    password = [REDACTED:assignment]\n',
      code,
    ]);
    expect(scrubbingTogether(() => [config, code, config, code].map((t) => scrubTextWithCount(t)))).toEqual(
      alone,
    );
  });

  it('gives exactly the recorded output for every corpus secret, alone and inside JSON, with its count', () => {
    expect(Object.keys(CORPUS_EXPECTED).sort()).toEqual(SECRETS.map((c) => c.name).sort());
    for (const c of SECRETS) {
      const alone = scrubTextWithCount(c.text);
      const json = scrubTextWithCount(JSON.stringify({ log: c.text }));
      expect([alone.text, alone.redactions, json.text, json.redactions], c.name).toEqual(
        CORPUS_EXPECTED[c.name],
      );
    }
  });

  it('is idempotent', () => {
    for (const text of [...SECRETS.map((c) => c.text), ...LOOKALIKES]) {
      const once = scrubText(text);
      expect(scrubText(once), text).toBe(once);
      expect(scrubTextWithCount(once).redactions, text).toBe(0);
    }
  });

  it('counts redactions', () => {
    expect(scrubTextWithCount(`a ${GHP} b DB_PASSWORD=x1y2z3fake`)).toEqual({
      text: 'a [REDACTED:github-token] b DB_PASSWORD=[REDACTED:assignment]',
      redactions: 2,
    });
    expect(scrubTextWithCount('nothing to see here')).toEqual({ text: 'nothing to see here', redactions: 0 });
  });
});

describe('secrets inside escaped JSON', () => {
  const inner = { password: 'hunter2secret', token: 'tok-FAKE-1234', user: 'bob' };

  it('scrubs a JSON document carried as a string value, keeping it valid JSON', () => {
    const once = JSON.stringify({ body: JSON.stringify(inner) });
    const twice = JSON.stringify({ event: once });
    for (const text of [once, twice]) {
      const out = scrubText(text);
      expect(out).not.toContain('hunter2secret');
      expect(out).not.toContain('tok-FAKE-1234');
      expect(out).toContain('bob');
      expect(() => JSON.parse(out) as unknown).not.toThrow();
    }
    const body = (JSON.parse(scrubText(once)) as { body: string }).body;
    expect(JSON.parse(body)).toEqual({
      password: '[REDACTED:assignment]',
      token: '[REDACTED:assignment]',
      user: 'bob',
    });
  });

  it('scrubs escaped newlines in .env text and PEM keys inside JSON strings', () => {
    const env = JSON.stringify('DB_PASSWORD=hunter2secret\nDB_USER=bob\n');
    expect(scrubText(env)).toBe('"DB_PASSWORD=[REDACTED:assignment]\\nDB_USER=bob\\n"');
  });
});

describe('scrubValue', () => {
  it('scrubs every string at any depth, uses secret-ish keys as context, and never mutates', () => {
    const input = {
      a: [{ b: `x ${GHP}` }, 3, null, true, ['nested <private>p</private>']],
      c: { d: 'plain', password: 'hunter2', apiKey: 'k-FAKE-1', token_count: '12', credentials: 'include' },
      e: { headers: { Authorization: 'Bearer abcdefFAKE0123456789' } },
      [j('key ', GHP)]: 1,
      n: 4.5,
      f: false,
    };
    const copy = structuredClone(input);
    const out = scrubValue(input);
    expect(input).toEqual(copy);
    expect(out).not.toBe(input);
    expect(out.c).not.toBe(input.c);
    expect(JSON.stringify(out)).not.toContain(GHP);
    expect(out.a[1]).toBe(3);
    expect(out.a[2]).toBeNull();
    expect(out.a[3]).toBe(true);
    expect(out.a[4]).toEqual(['nested [REDACTED:private]']);
    expect(out.c).toEqual({
      d: 'plain',
      password: '[REDACTED:assignment]',
      apiKey: '[REDACTED:assignment]',
      token_count: '12',
      credentials: 'include',
    });
    expect(out.e.headers.Authorization).toBe('Bearer [REDACTED:bearer]');
    expect(Object.keys(out)).toContain('key [REDACTED:github-token]');
    expect(out.n).toBe(4.5);
    expect(out.f).toBe(false);
  });

  it('passes primitives through and keeps a __proto__ key an own key', () => {
    expect(scrubValue(42)).toBe(42);
    expect(scrubValue(null)).toBeNull();
    expect(scrubValue(`x ${GHP}`)).toBe('x [REDACTED:github-token]');
    const parsed = JSON.parse('{"__proto__": {"polluted": "yes"}}') as Record<string, unknown>;
    const out = scrubValue(parsed);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.keys(out)).toEqual(['__proto__']);
  });
});

describe('helpers', () => {
  it('isSecretName tells secret names from names about secrets', () => {
    for (const name of [
      'DB_PASSWORD',
      'apiKey',
      'x-api-key',
      '--token',
      'AccountKey',
      'PGPASSWORD',
      'auth',
      'OPENAI_KEY',
    ]) {
      expect(isSecretName(name), name).toBe(true);
    }
    for (const name of [
      'token_count',
      'max_tokens',
      'password_reset_url',
      'tokenizer',
      'author',
      'key',
      'keyboard',
      '--no-auth',
    ]) {
      expect(isSecretName(name), name).toBe(false);
    }
  });

  it('looksRandom tells random keys from words, identifiers and short strings', () => {
    expect(looksRandom('8f3Kq9ZmP2xL7vN4bR6tY1wE')).toBe(true);
    expect(looksRandom('thisisjustalongenglishword')).toBe(false);
    expect(looksRandom('useAuthenticationTokenRefreshHandler')).toBe(false);
    expect(looksRandom('Ab3')).toBe(false);
  });
});

/**
 * Linear, not quadratic or worse: scrubbing ten times the text may take about ten times as long
 * (backtracking would take a hundred times or more). Measured side by side, so a busy machine slows
 * both; a run that is fast in absolute terms (well below what backtracking over 5 MB costs) passes
 * whatever the ratio.
 */
function expectLinear(make: (size: number) => string, label: string): void {
  const small = make(MB5 / 10);
  const big = make(MB5);
  // The fastest of a few runs: a pause for garbage collection is not the scrubber's cost.
  const best = (text: string, runs: number) =>
    Math.min(...Array.from({ length: runs }, () => timed(() => scrubText(text))));
  const tSmall = best(small, 3);
  const tBig = best(big, 2);
  expect(
    tBig < 1500 || tBig / Math.max(tSmall, 2) < 40,
    `${label}: ${tSmall.toFixed(1)} ms → ${tBig.toFixed(1)} ms`,
  ).toBe(true);
}

const MB5 = 5_000_000;

describe('performance', () => {
  const fillTo = (unit: string, size: number): string => unit.repeat(Math.ceil(size / unit.length));
  const fill = (unit: string): string => fillTo(unit, MB5);

  it('scrubs 5 MB of mixed text with secrets in well under the limit', () => {
    // Unclosed spans would swallow the rest of the text, so they stay out of the mix.
    const closed = SECRETS.filter((c) => !/unclosed|unterminated/.test(c.name));
    const chunk = [...closed.map((c) => c.text), ...LOOKALIKES, 'plain prose about nothing in particular'];
    const text = fill(`${chunk.join('\n')}\n`);
    const out = scrubText(text);
    expect(out.length).toBeGreaterThan(MB5 / 2);
    for (const c of closed) expect(out, c.name).not.toContain(c.secret);
    expectLinear((size) => fillTo(`${chunk.join('\n')}\n`, size), 'mixed text');
  });

  const begin = j('-----BEGIN ', 'PRIVATE KEY-----');
  /** 5 MB inputs built on demand (all at once would hold hundreds of MB). */
  const hostile: ((size: number) => string)[] = [
    (size) => fillTo('a=', size),
    (size) => fillTo(begin, size),
    (size) => fillTo(`${begin}\nMIIE`, size),
    (size) => fillTo(`${begin}\n${j('-----END ', 'PRIVATE KEY-----')}x`, size),
    (size) => fillTo('A', size),
    (size) => fillTo('aB3+/', size),
    (size) => fillTo('password=', size),
    (size) => fillTo('password: ', size),
    (size) => fillTo('token:', size),
    (size) => fillTo('"password":"', size),
    (size) => fillTo('\\"token\\":\\"', size),
    (size) => fillTo('<private>', size),
    (size) => fillTo('</private>', size),
    (size) => fillTo('a.', size),
    (size) => fillTo('a-', size),
    (size) => fillTo('sk-', size),
    (size) => fillTo('eyJ-', size),
    (size) => fillTo('eyJaaaaaaaaaaaaa.', size),
    (size) => fillTo('ghp_', size),
    (size) => fillTo('x://a:', size),
    (size) => fillTo('http://u:p', size),
    (size) => fillTo('AKIA', size),
    (size) => fillTo('token is is ', size),
    (size) => fillTo('Bearer ', size),
    (size) => fillTo('Authorization: Bearer ', size),
    (size) => fillTo('mysql -p', size),
    (size) => fillTo('curl -u a:', size),
    (size) => fillTo('<password>', size),
    (size) => fillTo('--token ', size),
    (size) => fillTo(`secret ${'Zq9'.repeat(10)} `, size),
    (size) => 'password='.padEnd(size, 'x'),
    (size) => '"password":"a'.padEnd(size, '\\'),
    (size) => fillTo('"password":"a\\\\\\', size),
    (size) => fillTo('auth:login ', size),
    (size) => fillTo('key: NodeJS.ArrayBufferView ', size),
    // one long line of words judged by the line around them (config entries, `name = word`)
    (size) => fillTo('password: Word ', size),
    (size) => fillTo('Password = Word ', size),
    (size) => fillTo('password = word ', size),
    // many lines of a config file, each asking whether the text is one
    (size) => fillTo('password: Word\n', size),
    (size) => fillTo('    password = word\n', size),
    (size) => fillTo('password:word\r\n', size),
    (size) => `${fillTo('key: |\n  a(b)\n', size)}password: Word`,
    (size) => `a: b\n${'c = '.repeat(size / 4)}\npassword:word`,
    (size) => `${'x'.repeat(size)}=password`,
  ];
  for (const [i, make] of hostile.entries()) {
    it(`stays linear on adversarial input #${i}`, () => {
      expectLinear(make, JSON.stringify(make(40)));
    });
  }

  it('returns the same string when there is nothing to scrub', () => {
    const text = fill('plain words and numbers 1234 ');
    expect(scrubText(text)).toBe(text);
    expectLinear((size) => fillTo('plain words and numbers 1234 ', size), 'plain text');
  });
});
