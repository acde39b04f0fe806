import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
// (A rejected cache is tested through real hook processes, in test/integration/hook-robustness.test.ts:
// within one process V8 reuses what it compiled and never reads the cache again.)
import { requireWithCodeCache } from './code-cache.ts';

describe('loading a bundle with a V8 code cache', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  const setUp = () => {
    const dir = mkdtempSync(join(tmpdir(), 'engram-code-cache-'));
    dirs.push(dir);
    const file = join(dir, 'bundle.cjs');
    writeFileSync(
      file,
      `const { join } = require('node:path');\n` +
        `module.exports = { where: join(__dirname, 'x'), file: __filename, twice: (n) => n * 2 };\n`,
    );
    return { dir, file, cacheDir: join(dir, 'cache') };
  };
  type Bundle = { where: string; file: string; twice: (n: number) => number };

  it('runs the bundle as CommonJS, saves its cache once, and loads it from the cache after', () => {
    const { dir, file, cacheDir } = setUp();
    const first = requireWithCodeCache<Bundle>(file, cacheDir);
    expect(first.exports).toMatchObject({ where: join(dir, 'x'), file });
    expect(first.exports.twice(21)).toBe(42);
    first.saveCache();
    const [cache] = readdirSync(cacheDir);
    expect(cache).toMatch(/^bundle-\d+-\d+-v\d+\.\d+\.\d+\.v8$/);
    const written = readFileSync(join(cacheDir, cache as string));

    const second = requireWithCodeCache<Bundle>(file, cacheDir);
    expect(second.exports.twice(4)).toBe(8);
    second.saveCache(); // accepted: nothing to write
    expect(readFileSync(join(cacheDir, cache as string)).equals(written)).toBe(true);
  });

  it('falls back to a plain require when the bundle cannot be read for caching', () => {
    const { dir } = setUp();
    expect(() => requireWithCodeCache(join(dir, 'missing.cjs'), join(dir, 'cache'))).toThrow(
      /Cannot find module/,
    );
  });
});
