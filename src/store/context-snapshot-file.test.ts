import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readContextSnapshot, writeContextSnapshot } from './context-snapshot.ts';

describe('a SessionStart snapshot on file', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  const dir = () => {
    const d = mkdtempSync(join(tmpdir(), 'engram-snapshot-file-'));
    dirs.push(d);
    return d;
  };
  const value = {
    text: 'Fixed the build — see “notes” → 完了。 A lone surrogate \ud800 and an emoji 😀, a quote " and \\ too',
    n: [1, 2.5, null, true],
  };

  it('is written as ASCII JSON and read back as the same value', () => {
    const d = dir();
    expect(writeContextSnapshot(d, 'prj_1', value)).toBe(true);
    const bytes = readFileSync(join(d, 'prj_1.json'));
    expect(bytes.every((b) => b < 0x80)).toBe(true);
    expect(readContextSnapshot(d, 'prj_1')).toEqual(value);
  });

  it('reads a file an earlier build wrote in UTF-8', () => {
    const d = dir();
    writeFileSync(join(d, 'prj_1.json'), JSON.stringify(value), 'utf8');
    expect(readContextSnapshot(d, 'prj_1')).toEqual(value);
  });
});
