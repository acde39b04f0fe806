import { describe, expect, it } from 'vitest';
import { caseless, CONTEXT_SITES } from './secret-context.ts';
import { random } from './seeded-random.test-support.ts';

/** Text made of the sites' own words in random case, with separators, quotes and noise between. */
function text(r: () => number): string {
  const parts = [
    'password',
    'Authorization',
    'bearer ',
    'token',
    'api_key',
    'SECRET',
    '--',
    '://',
    'key="',
    "name='",
  ];
  const glue = [' ', '\t', '=', ':', ':=', '"', "'", '`', '\\', '>', '-', '.', '_', 'x', '9', 'is ', '=> '];
  let out = '';
  while (out.length < 120) {
    const word = r() < 0.5 ? parts[Math.floor(r() * parts.length)] : glue[Math.floor(r() * glue.length)];
    out += [...(word ?? '')].map((c) => (r() < 0.5 ? c.toUpperCase() : c.toLowerCase())).join('');
    if (r() < 0.1) out += 'A1b2C3d4E5f6G7h8I9j0K1l2'.slice(0, 10 + Math.floor(r() * 14));
  }
  return out;
}

describe('caseless', () => {
  it('matches, without the i flag, exactly what each context site matches with it', () => {
    const r = random(5);
    for (const source of CONTEXT_SITES.anyCase) {
      const flagged = new RegExp(source, 'gi');
      const rewritten = new RegExp(caseless(source), 'g');
      let found = 0;
      for (let i = 0; i < 400; i++) {
        const t = text(r);
        const want = [...t.matchAll(flagged)].map((m) => [m.index, m[0]]);
        expect(
          [...t.matchAll(rewritten)].map((m) => [m.index, m[0]]),
          `${source} on ${t}`,
        ).toEqual(want);
        found += want.length;
      }
      expect(found, source).toBeGreaterThan(20); // the texts do hold what the site looks for
    }
  });

  it('keeps escapes and the classes it can keep, and refuses what it cannot rewrite faithfully', () => {
    expect(caseless('ab\\b[\\w.-]{0,3}[a-zA-Z]')).toBe('[aA][bB]\\b[\\w.-]{0,3}[a-zA-Z]');
    for (const bad of ['[a-f]', '[pousr]_', '\\x41', '\\u0041', '\\p{L}', '(?<name>x)', '\\k<n>'])
      expect(() => caseless(bad), bad).toThrow(/caseless/);
  });
});
