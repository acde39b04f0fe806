import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fileFingerprint, fingerprintMatches, readJsonlFrom } from './read-jsonl.ts';

describe('readJsonlFrom', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'engram-jsonl-'));
    file = join(dir, 't.jsonl');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps good records around garbage, unknown types, a 50 MB line and a truncated last line', () => {
    const good = (n: number) => JSON.stringify({ type: 'user', n });
    writeFileSync(
      file,
      `${good(1)}\nnot json at all\n${JSON.stringify({ type: 'brand-new-type', x: 1 })}\n\u0000\u0001binary\n`,
    );
    appendFileSync(file, `{"type":"huge","blob":"${'x'.repeat(50 * 1024 * 1024)}"}\n`);
    appendFileSync(file, `${good(2)}\n{"type":"user","n":3,"trunc`);
    const r = readJsonlFrom(file, 0, { maxLineBytes: 8 * 1024 * 1024 });
    expect(r.lines.map((l) => l.value)).toEqual([
      { type: 'user', n: 1 },
      { type: 'brand-new-type', x: 1 },
      { type: 'user', n: 2 },
    ]);
    expect(r.badLines).toBe(2);
    expect(r.oversizeLines).toBe(1);
    // The partial last line is not consumed: the next read starts there and sees it once it is whole.
    appendFileSync(file, 'ated":true}\n');
    const next = readJsonlFrom(file, r.nextOffset);
    expect(next.lines.map((l) => l.value)).toEqual([{ type: 'user', n: 3, truncated: true }]);
    expect(readJsonlFrom(file, next.nextOffset).lines).toEqual([]);
  });

  it('reads only what was appended, in bounded chunks', () => {
    const lines = Array.from({ length: 1000 }, (_, i) => JSON.stringify({ i, pad: 'p'.repeat(100) }));
    writeFileSync(file, `${lines.join('\n')}\n`);
    let offset = 0;
    const seen: number[] = [];
    for (let round = 0; round < 100; round++) {
      const r = readJsonlFrom(file, offset, { chunkBytes: 4096, maxBytes: 20_000 });
      for (const l of r.lines) seen.push((l.value as { i: number }).i);
      if (r.nextOffset === offset) break;
      offset = r.nextOffset;
    }
    expect(seen).toEqual(lines.map((_, i) => i));
  });

  it('accepts a finished file whose last line has no newline', () => {
    writeFileSync(file, '{"a":1}\n{"a":2}');
    const r = readJsonlFrom(file, 0);
    expect(r.lines.map((l) => l.value)).toEqual([{ a: 1 }, { a: 2 }]);
    expect(r.nextOffset).toBe(15);
  });

  it('fingerprints a file so growth keeps its identity and a rewrite does not', () => {
    writeFileSync(file, '{"a":1}\n');
    const fp = fileFingerprint(file);
    appendFileSync(file, '{"a":2}\n'.repeat(200));
    expect(fingerprintMatches(file, fp)).toBe(true);
    writeFileSync(file, '{"b":1}\n');
    expect(fingerprintMatches(file, fp)).toBe(false);
  });
});
