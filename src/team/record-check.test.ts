/**
 * The server's record check, made cheaper, refuses exactly what it refused before, with the same
 * reason, and writes the same JSON for what it takes: `earlierCheck` below is the check as it was (a
 * walk for the strings, canonicalJson with its key list, every body through its zod schema), run
 * beside it over good records and bad ones of every kind the check knows.
 */
import { describe, expect, it } from 'vitest';
import { unstorableCharacter } from '../core/clean-text.ts';
import { scrubTextWithCount } from '../core/scrub.ts';
import {
  isSealed,
  linkBodySchema,
  MAX_RECORD_CHARS,
  memoryBodySchema,
  sealedBodySchema,
  summaryBodySchema,
  type PushRecord,
} from './protocol.ts';
import { checkRecord } from './record-check.ts';
import { canonicalJson, recordHash, recordHashOfJson } from './record-hash.ts';
import { newKey, seal } from './record-seal.ts';
import { linkRecord, memoryRecord, summaryRecord, tombstoneRecord } from './records.test-support.ts';

const SCHEMAS = { memory: memoryBodySchema, summary: summaryBodySchema, link: linkBodySchema };

/** The record check before it was made cheaper (record-check.ts at 9b243aa), kept as the reference. */
function earlierCheck(r: PushRecord): { reason: string | null; json: string | null } {
  const no = (reason: string) => ({ reason, json: null });
  const texts: string[] = [];
  const all: string[] = [];
  const stringsOf = (value: unknown): void => {
    if (typeof value === 'string') {
      texts.push(value);
      all.push(value);
    } else if (Array.isArray(value)) for (const v of value) stringsOf(v);
    else if (value && typeof value === 'object')
      for (const k of Object.keys(value)) {
        all.push(k);
        stringsOf((value as Record<string, unknown>)[k]);
      }
  };
  stringsOf(r.body);
  for (const text of [r.id, ...all]) {
    const found = unstorableCharacter(text);
    if (found !== null) return no(`it holds ${found}, which the server cannot store`);
  }
  const canonical = canonicalJson(r.deleted ? null : r.body);
  if (r.hash !== recordHashOfJson(r.kind, r.id, r.deleted, canonical))
    return no('its hash does not match its content');
  if (r.deleted) return r.body === null ? { reason: null, json: null } : no('a tombstone carries no body');
  if (isSealed(r.body)) {
    const sealed = sealedBodySchema.safeParse(r.body);
    return sealed.success
      ? { reason: null, json: canonical }
      : no(`malformed sealed ${r.kind}: ${sealed.error.issues[0]?.message ?? 'invalid'}`);
  }
  const parsed = SCHEMAS[r.kind].safeParse(r.body);
  if (!parsed.success) return no(`malformed ${r.kind}: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  if (canonical.length > MAX_RECORD_CHARS) return no(`larger than ${MAX_RECORD_CHARS} characters`);
  for (const text of texts) {
    if (scrubTextWithCount(text).redactions > 0) return no('it holds what looks like a secret');
  }
  return { reason: null, json: canonical };
}

/** The record with `body`, hashed as a client would (so the checks past the hash are reached). */
const rehashed = (r: PushRecord, body: unknown): PushRecord => ({
  ...r,
  body,
  hash: recordHash(r.kind, r.id, r.deleted, body),
});

/** A body as it arrives: parsed from the JSON the client sent (key order kept). */
const wire = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

const SECRET = 'ghp_' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8';
const AWS = 'AKIA' + 'IOSFODNN7EXAMPLE';

/** Values a field may be given in a bad (or odd) record. */
const ODD_VALUES: unknown[] = [
  undefined,
  null,
  0,
  -1,
  1.5,
  2 ** 53,
  Number.MAX_SAFE_INTEGER,
  true,
  '',
  'x',
  'x'.repeat(41),
  'x'.repeat(101),
  'x'.repeat(201),
  'x'.repeat(2001),
  'x'.repeat(40_001),
  '\u{1F600}'.repeat(30),
  '\u{1F600}'.repeat(60),
  'nul \u0000 here',
  'half \ud800 pair',
  `token ${SECRET}`,
  `aws_access_key_id = ${AWS}`,
  [],
  ['a'],
  ['x'.repeat(201)],
  ['x'.repeat(2001)],
  Array.from({ length: 201 }, () => 'f'),
  Array.from({ length: 501 }, () => 'f'),
  [1],
  [null],
  {},
  { nested: { deep: SECRET } },
  'active',
  'forgotten',
];

function records(): PushRecord[] {
  const memory = memoryRecord('obs_1', 'a title', {
    narrative: 'a narrative',
    facts: ['one', 'two'],
    concepts: ['c'],
    filesRead: ['src/a.ts'],
    filesModified: ['src/b.ts'],
    sessionId: 's1',
    createdAt: 1_790_000_000_000,
  });
  const summary = summaryRecord('sess_1', 'a request');
  const link = linkRecord('obs_1', 'related', 'obs_2');
  const out: PushRecord[] = [memory, summary, link, tombstoneRecord('obs_9')];
  // Every field of each kind given every odd value, and left out; and unknown members added.
  for (const base of [memory, summary, link]) {
    const body = base.body as Record<string, unknown>;
    for (const field of [...Object.keys(body), 'conflictsWith', 'pinned', 'extra']) {
      for (const value of ODD_VALUES) out.push(rehashed(base, wire({ ...body, [field]: value })));
      const { [field]: _gone, ...without } = body;
      out.push(rehashed(base, wire(without)));
    }
    // Keys in canonical order, in reverse, integer-like and awkward keys, a key PostgreSQL cannot hold.
    const sortedBody = Object.fromEntries(Object.entries(body).sort(([a], [b]) => (a < b ? -1 : 1)));
    out.push(rehashed(base, wire(sortedBody)));
    out.push(rehashed(base, wire(Object.fromEntries(Object.entries(body).reverse()))));
    out.push(rehashed(base, wire({ ...sortedBody, '10': 'ten', '9': 'nine', '\uFFFF': 1, '\u{1F600}': 2 })));
    out.push(rehashed(base, wire({ ...sortedBody, zz: { b: 1, a: [{ d: 1, c: 2 }] } })));
    out.push(rehashed(base, wire({ ...sortedBody, zz: { a: 1, b: [{ c: 1, d: 2 }] } })));
    out.push(rehashed(base, wire({ ...sortedBody, 'k\u0000': 1 })));
    out.push(rehashed(base, JSON.parse(`{"__proto__":{"x":1},${JSON.stringify(sortedBody).slice(1)}`)));
    // Not a plain body at all.
    for (const value of [null, 'text', 7, [], [body]]) out.push(rehashed(base, value));
    // Too large as a whole; a wrong hash; an id PostgreSQL cannot hold; a tombstone with a body.
    out.push(rehashed(base, wire({ ...body, zz: Array.from({ length: 40 }, () => 'y'.repeat(1990)) })));
    out.push({ ...base, hash: 'f'.repeat(64) });
    out.push({ ...base, hash: recordHash(base.kind, base.id, false, { ...body, title: 'other' }) });
    out.push(rehashed({ ...base, id: 'id \u0000' }, body));
    out.push(rehashed({ ...base, id: 'id \udc00' }, body));
    out.push({ ...base, deleted: true, hash: recordHash(base.kind, base.id, true, null) });
    out.push({ ...base, deleted: true });
  }
  // Sealed bodies: good, under each odd value per field, extra members, and a secret-looking plain one.
  const ring = { projectId: 'prj_1', versions: [{ version: 1, key: newKey() }] };
  const sealed = seal(ring, { project: 'prj_1', kind: 'memory', id: 'obs_1' }, memory.body);
  out.push(rehashed(memory, wire(sealed)));
  for (const field of ['e2ee', 'kv', 'iv', 'ct', 'extra'])
    for (const value of [...ODD_VALUES, 'AAAAAAAAAAAAAAAA', 2])
      out.push(rehashed(memory, wire({ ...sealed, [field]: value })));
  return out;
}

describe('checkRecord', () => {
  it('refuses every record the earlier check refused, for the same reason, and writes the same JSON', () => {
    const all = records();
    let accepted = 0;
    for (const r of all) {
      const now = checkRecord(r);
      expect(now, JSON.stringify(r).slice(0, 300)).toEqual(earlierCheck(r));
      if (now.reason === null) accepted++;
    }
    // Both kinds of verdict are exercised, each many times.
    expect(accepted).toBeGreaterThan(50);
    expect(all.length - accepted).toBeGreaterThan(300);
  });

  it('writes the stored JSON in canonical order whatever order the keys came in', () => {
    const r = memoryRecord('obs_2', 'title');
    const reversed = rehashed(r, wire(Object.fromEntries(Object.entries(r.body as object).reverse())));
    expect(checkRecord(reversed).json).toBe(canonicalJson(r.body));
    expect(checkRecord(r).json).toBe(canonicalJson(r.body));
  });
});
