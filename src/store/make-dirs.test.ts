import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fileInTheWay, makeDirs } from './make-dirs.ts';

describe('makeDirs', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'engram-dirs-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('makes every missing level, private, and is a no-op on a folder that exists', () => {
    const deep = join(root, 'a', 'b', 'c');
    makeDirs(deep, { what: 'the vault folder' });
    expect(statSync(deep).isDirectory()).toBe(true);
    expect(statSync(join(root, 'a')).mode & 0o777).toBe(0o700);
    makeDirs(deep, { what: 'the vault folder' });
  });

  it('names the file in the way', () => {
    writeFileSync(join(root, 'notes'), 'x');
    expect(() => makeDirs(join(root, 'notes', 'vault'), { what: 'the vault folder' })).toThrow(
      expect.objectContaining({
        code: 'INPUT_INVALID',
        message: `the vault folder ${join(root, 'notes', 'vault')}: ${join(root, 'notes')} is a file, not a folder`,
      }),
    );
    expect(() => makeDirs(join(root, 'notes'), { what: 'ENGRAM_HOME', code: 'CONFIG_INVALID' })).toThrow(
      expect.objectContaining({
        code: 'CONFIG_INVALID',
        message: expect.stringMatching(/is a file, not a folder$/),
      }),
    );
    expect(fileInTheWay(join(root, 'notes', 'x', 'y'))).toBe(join(root, 'notes'));
    expect(fileInTheWay(join(root, 'free', 'x'))).toBeNull();
  });

  it('answers at once where nothing can be created (procfs), instead of spinning', () => {
    const started = Date.now();
    expect(() => makeDirs('/proc/nope/vault', { what: 'the vault folder' })).toThrow(
      /the vault folder \/proc\/nope\/vault: cannot create \/proc\/nope \(nothing can be created there\)/,
    );
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
