import { describe, expect, it } from 'vitest';
import { canonicalJson, inCanonicalOrder, recordHash } from './record-hash.ts';

/** The definition canonical JSON had before it was rewritten for speed: sort each object's entries, join. */
function reference(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(reference).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${reference(v)}`).join(',')}}`;
}

// Keys whose UTF-16 order differs from their code-point order, integer-like keys (which objects list
// first), escapes, numbers JSON writes specially, undefined in objects and arrays, nesting.
const values: unknown[] = [
  null,
  true,
  -0,
  1e21,
  0.1,
  '',
  'tab\tquote"back\\slash\u0001\u2028',
  [],
  {},
  [undefined, null, 1, 'x', [[]]],
  { b: 1, a: undefined, c: [undefined, { z: 1, y: { x: undefined } }] },
  { '10': 'ten', '2': 'two', b: 'b', a: 'a', '': 'empty' },
  { '\uFFFF': 1, '\u{1F600}': 2, é: 3, Z: 4, z: 5, 'a b': 6 },
  { title: 'café \u{1F600}', facts: ['one', 'two'], nested: { deep: [{ k: [1, 2, { q: null }] }] } },
];

describe('canonicalJson', () => {
  it('writes exactly what the reference definition writes', () => {
    for (const value of values) expect(canonicalJson(value)).toBe(reference(value));
  });

  it('writes what the reference writes for thousands of generated values', () => {
    // A fixed-seed generator: nested objects and arrays, awkward keys and texts, undefined anywhere.
    let seed = 7;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const parts = [
      'a',
      'b',
      'Z',
      '0',
      '10',
      'é',
      '\uFFFF',
      '\u{1F600}',
      ' ',
      '"',
      '\\',
      '\u0001',
      'constructor',
    ];
    const text = () =>
      Array.from({ length: Math.floor(rnd() * 4) }, () => parts[Math.floor(rnd() * parts.length)]).join('');
    const gen = (depth: number): unknown => {
      const r = rnd();
      if (depth > 3 || r < 0.3)
        return [null, true, rnd() * 1e6 - 5e5, text(), undefined, 42][Math.floor(rnd() * 6)];
      if (r < 0.6) return Array.from({ length: Math.floor(rnd() * 4) }, () => gen(depth + 1));
      const o: Record<string, unknown> = {};
      for (let i = 0; i < rnd() * 5; i++) o[text()] = gen(depth + 1);
      return o;
    };
    for (let i = 0; i < 5000; i++) {
      const value = gen(0);
      expect(canonicalJson(value)).toBe(reference(value));
    }
  });

  it('is valid JSON with the same content', () => {
    const value = values.at(-1);
    expect(JSON.parse(canonicalJson(value))).toEqual(value);
  });
});

describe('recordHash', () => {
  it('hashes the canonical JSON of kind, id, tombstone flag and body', async () => {
    const { createHash } = await import('node:crypto');
    const body = values.at(-2);
    const expected = createHash('sha256')
      .update(reference({ kind: 'memory', id: 'obs_1', deleted: false, body }))
      .digest('hex');
    expect(recordHash('memory', 'obs_1', false, body)).toBe(expected);
    // A tombstone's body is null whatever is passed.
    expect(recordHash('link', 'l1', true, { any: 1 })).toBe(
      createHash('sha256')
        .update(reference({ kind: 'link', id: 'l1', deleted: true, body: null }))
        .digest('hex'),
    );
  });

  it('keeps the hashes clients already stored (pinned values from before the rewrite)', () => {
    const body = {
      title: 'café \u{1F600} "q"\n',
      narrative: 'x',
      facts: ['a', 'b'],
      z: { b: 1, a: [null, true, -0, 1e21] },
      é: 1,
      '\uFFFF': 2,
      '\u{1F600}': 3,
    };
    expect(recordHash('memory', 'obs_1', false, body)).toBe(
      'a0c1b81b464f548d1f86d24fd5439d27f110939f5a0394cf7543defadb8f5e21',
    );
    expect(recordHash('link', 'l1', true, null)).toBe(
      'ec699006e4f73cdcae86ff3d4a0a5703c4f432816269ede0a042c16e3db6f850',
    );
  });
});

describe('inCanonicalOrder', () => {
  it('keeps the value and orders its keys as canonicalJson does, but where objects cannot', () => {
    for (const value of values) {
      const ordered = inCanonicalOrder(value);
      expect(canonicalJson(ordered)).toBe(canonicalJson(value));
      // Integer-like keys come first in any object, and a __proto__ key stays where it was.
      const plainOrder = JSON.stringify(ordered) ?? 'null';
      if (!/"\d+":/.test(plainOrder)) expect(plainOrder).toBe(canonicalJson(value));
    }
    const body = JSON.parse('{"b":1,"__proto__":{"z":1,"a":2},"a":3}') as unknown;
    expect(inCanonicalOrder(body)).toBe(body);
  });
});
