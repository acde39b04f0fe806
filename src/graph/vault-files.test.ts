import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listNotes, writeAtomically } from './vault-files.ts';

describe('writeAtomically', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'engram-vault-files-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('makes each folder once per set of writes, and again when it was removed meanwhile', () => {
    const folders = new Set<string>();
    writeAtomically(join(dir, 'p', 'decision', 'a.md'), 'a\n', folders);
    writeAtomically(join(dir, 'p', 'decision', 'b.md'), 'b\n', folders);
    expect([...folders]).toEqual([join(dir, 'p', 'decision')]);
    rmSync(join(dir, 'p'), { recursive: true });
    writeAtomically(join(dir, 'p', 'decision', 'c.md'), 'c\n', folders);
    expect(readFileSync(join(dir, 'p', 'decision', 'c.md'), 'utf8')).toBe('c\n');
    expect(listNotes(dir)).toEqual(['p/decision/c.md']);
    // No temporary file is left behind.
    expect(readdirSync(join(dir, 'p', 'decision'))).toEqual(['c.md']);
  });

  it('still fails when the folder cannot be made', () => {
    writeAtomically(join(dir, 'file.md'), 'x\n', new Set());
    expect(() => writeAtomically(join(dir, 'file.md', 'inner.md'), 'y\n', new Set())).toThrow();
    expect(readdirSync(dir)).toEqual(['file.md']);
  });
});
