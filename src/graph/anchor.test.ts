import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AnchorState } from '../core/graph.ts';
import { classifyAnchor, createAnchor, type FileNow } from './anchor.ts';
import { gitBlobHash } from './blob-hash.ts';
import { findSymbolBlock } from './code-region.ts';
import { createMoveFinder } from './find-moved.ts';
import { readIfPresent } from './read-if-present.ts';

const SOURCE = `import { x } from './x';

/** Adds. */
export function add(a: number, b: number): number {
  return a + b;
}

export class Cache {
  get(key: string) {
    return this.map.get(key);
  }
}

export const LIMIT = 10;
`;

let dir: string;
const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, encoding: 'utf8' }).trim();
const file = (path: string): FileNow | null => {
  const content = readIfPresent(join(dir, path));
  return content ? { path, content } : null;
};
const write = (path: string, text: string) => {
  mkdirSync(join(dir, path, '..'), { recursive: true });
  writeFileSync(join(dir, path), text);
};
const check = (a: AnchorState) => classifyAnchor(a, file(a.path), createMoveFinder(dir));

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'engram-anchor-'));
  git('init', '-q');
  write('src/math.ts', SOURCE);
  write('src/other.ts', 'export const other = 1;\n');
  git('add', '.');
  git('-c', 'user.email=t@example.com', '-c', 'user.name=t', 'commit', '-qm', 'init');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('git blob hash', () => {
  it('equals what git computes, without git', () => {
    expect(gitBlobHash(readFileSync(join(dir, 'src/math.ts')))).toBe(git('hash-object', 'src/math.ts'));
    expect(gitBlobHash('')).toBe('e69de29bb2d1d6434b8b29ae775ad8c2e48c5391');
  });
});

describe('symbol blocks', () => {
  it('finds functions, methods, classes and constants by name', () => {
    expect(findSymbolBlock(SOURCE, 'add')).toEqual({ start: 4, end: 6 });
    expect(findSymbolBlock(SOURCE, 'Cache')).toEqual({ start: 8, end: 12 });
    expect(findSymbolBlock(SOURCE, 'get')).toEqual({ start: 9, end: 11 });
    expect(findSymbolBlock(SOURCE, 'LIMIT')).toEqual({ start: 14, end: 14 });
    expect(findSymbolBlock(SOURCE, 'missing')).toBeNull();
    const py = 'import os\n\ndef load(path):\n    with open(path) as f:\n        return f.read()\n\nx = 1\n';
    expect(findSymbolBlock(py, 'load')).toEqual({ start: 3, end: 5 });
  });
});

describe('classifying a changed file (a real git repository)', () => {
  it('a content change of the anchored file makes the memory stale', () => {
    const a = createAnchor(file('src/math.ts') as FileNow);
    write('src/math.ts', SOURCE.replace('a + b', 'a - b'));
    expect(check(a)).toMatchObject({ outcome: 'stale', reason: 'changed' });
  });

  it('a whitespace-only change is not staleness: the anchor takes the new hash', () => {
    const a = createAnchor(file('src/math.ts') as FileNow);
    write('src/math.ts', SOURCE.replace('return a + b;', '    return a+b;  ').replace(/\n/g, '\r\n'));
    const verdict = check(a);
    expect(verdict).toMatchObject({ outcome: 'updated', reason: 'whitespace' });
    if (verdict.outcome === 'updated') {
      expect(verdict.anchor.blobHash).toBe(gitBlobHash(readFileSync(join(dir, 'src/math.ts'))));
      expect(check(verdict.anchor)).toEqual({ outcome: 'unchanged' });
    }
  });

  it('a git mv moves the anchor to the new path', () => {
    const a = createAnchor(file('src/math.ts') as FileNow, { symbol: 'add' });
    mkdirSync(join(dir, 'lib'));
    git('mv', 'src/math.ts', 'lib/arith.ts');
    const verdict = check(a);
    expect(verdict).toMatchObject({ outcome: 'updated', reason: 'moved' });
    if (verdict.outcome === 'updated') expect(verdict.anchor.path).toBe('lib/arith.ts');
  });

  it('a deleted file makes the memory stale', () => {
    const a = createAnchor(file('src/other.ts') as FileNow);
    git('rm', '-q', 'src/other.ts');
    expect(check(a)).toMatchObject({ outcome: 'stale', reason: 'deleted' });
  });

  it('a symbol anchor survives edits elsewhere in the file and lines moving, not edits of its body', () => {
    const a = createAnchor(file('src/math.ts') as FileNow, { symbol: 'add' });
    write('src/math.ts', `// header\n// more\n${SOURCE.replace('LIMIT = 10', 'LIMIT = 20')}`);
    const moved = check(a);
    expect(moved).toMatchObject({ outcome: 'updated', reason: 'shifted' });
    if (moved.outcome !== 'updated') return;
    expect(moved.anchor.scope).toMatchObject({ kind: 'symbol', start: 6, end: 8 });
    write('src/math.ts', SOURCE.replace('a + b', 'a * b'));
    expect(check(moved.anchor)).toMatchObject({ outcome: 'stale', reason: 'changed' });
  });

  it('a lines anchor follows its lines when code is added above them', () => {
    const a = createAnchor(file('src/math.ts') as FileNow, { lines: { start: 8, end: 12 } });
    write('src/math.ts', SOURCE.replace('/** Adds. */', '/** Adds\n * two numbers. */'));
    const verdict = check(a);
    expect(verdict).toMatchObject({ outcome: 'updated', reason: 'shifted' });
    if (verdict.outcome === 'updated') expect(verdict.anchor.scope).toMatchObject({ start: 9, end: 13 });
  });

  it("another file's change leaves this file's anchor alone", () => {
    const a = createAnchor(file('src/math.ts') as FileNow);
    write('src/other.ts', 'export const other = 2;\n');
    expect(check(a)).toEqual({ outcome: 'unchanged' });
  });
});
