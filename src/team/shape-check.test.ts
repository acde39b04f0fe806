/**
 * The quick shape checks may only ever say yes where the zod schemas say yes (on no, the schema is
 * asked and decides): held to that over every field of each shape given good, odd and missing values,
 * and over random mixes of them; and they do say yes to ordinary records (or nothing would be saved).
 */
import { describe, expect, it } from 'vitest';
import {
  linkBodySchema,
  memoryBodySchema,
  pushRequestSchema,
  summaryBodySchema,
  type PushRecord,
} from './protocol.ts';
import { linkRecord, memoryRecord, summaryRecord, tombstoneRecord } from './records.test-support.ts';
import { quickBodyShape, quickPushRequest } from './shape-check.ts';

const ODD: unknown[] = [
  undefined,
  null,
  0,
  -0,
  -1,
  1.5,
  2 ** 53,
  Number.MAX_SAFE_INTEGER,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  true,
  false,
  '',
  'x',
  'active',
  'archived',
  'memory',
  'link',
  'f'.repeat(64),
  'F'.repeat(64),
  'f'.repeat(63),
  ...[40, 41, 100, 101, 200, 201, 1000, 1001, 1200, 1201, 2000, 2001, 4001, 8001, 40_001].map((n) =>
    'x'.repeat(n),
  ),
  '\u{1F600}'.repeat(25),
  '\u{1F600}'.repeat(60),
  'é'.repeat(41),
  [],
  ['a'],
  [1],
  [null],
  ['x'.repeat(201)],
  ['x'.repeat(1001)],
  ['x'.repeat(2001)],
  Array.from({ length: 201 }, () => 'f'),
  Array.from({ length: 501 }, () => 'f'),
  {},
  { a: 1 },
  Object.create(null) as unknown,
  new Date(0),
];

/** Each value with one field set to every odd value and left out, plus random mixes of fields. */
function variants(base: Record<string, unknown>, extra: string[]): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [base];
  const fields = [...Object.keys(base), ...extra];
  for (const f of fields) {
    for (const v of ODD) out.push({ ...base, [f]: v });
    const { [f]: _gone, ...without } = base;
    out.push(without);
  }
  let seed = 11;
  const rnd = (n: number) => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
  for (let i = 0; i < 3000; i++) {
    const mixed: Record<string, unknown> = { ...base };
    for (let j = rnd(3); j >= 0; j--) mixed[fields[rnd(fields.length)] as string] = ODD[rnd(ODD.length)];
    out.push(mixed);
  }
  return out;
}

const SHAPES = [
  { kind: 'memory', schema: memoryBodySchema, record: memoryRecord('obs_1', 'a title', { facts: ['f'] }) },
  { kind: 'summary', schema: summaryBodySchema, record: summaryRecord('s1', 'a request') },
  { kind: 'link', schema: linkBodySchema, record: linkRecord('obs_1', 'related', 'obs_2') },
] as const;

describe('quickBodyShape', () => {
  for (const { kind, schema, record } of SHAPES) {
    it(`says yes to a ${kind} body only where its schema does`, () => {
      const all = variants(record.body as Record<string, unknown>, ['conflictsWith', 'pinned', 'extra']);
      let yes = 0;
      for (const body of [...all, null, 'x', 1, [], [record.body]]) {
        if (!quickBodyShape(kind, body)) continue;
        yes++;
        expect(schema.safeParse(body).success, JSON.stringify(body)?.slice(0, 200)).toBe(true);
      }
      expect(quickBodyShape(kind, record.body)).toBe(true);
      expect(yes).toBeGreaterThan(100);
    });
  }
});

describe('quickPushRequest', () => {
  it('says yes to a push request only where pushRequestSchema does', () => {
    const good: PushRecord[] = [
      memoryRecord('obs_1'),
      summaryRecord('s1', 'r'),
      linkRecord('a', 'related', 'b'),
      tombstoneRecord('obs_2'),
      { ...memoryRecord('obs_3'), baseVersion: 4 },
    ];
    expect(quickPushRequest({ records: good })).toBe(true);
    let yes = 0;
    const requests: unknown[] = [
      null,
      [],
      {},
      { records: [] },
      { records: Array.from({ length: 200 }, () => good[0]) },
      { records: Array.from({ length: 201 }, () => good[0]) },
      { records: good, extra: 1 },
      { records: 'x' },
    ];
    for (const r of good)
      for (const v of variants(r as unknown as Record<string, unknown>, ['extra']))
        requests.push({ records: [good[0], v] });
    for (const req of requests) {
      if (!quickPushRequest(req)) continue;
      yes++;
      expect(pushRequestSchema.safeParse(req).success, JSON.stringify(req)?.slice(0, 200)).toBe(true);
    }
    expect(yes).toBeGreaterThan(100);
  });
});
