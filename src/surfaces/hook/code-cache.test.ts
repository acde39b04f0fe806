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

  it('keeps one cache per path of a build, and removes only caches of other builds', () => {
    const { file, cacheDir } = setUp();
    const stale = join(cacheDir, 'bundle.prompt-1-2-v0.0.0.v8');
    const other = join(cacheDir, 'other-1-2-v0.0.0.v8');
    requireWithCodeCache<Bundle>(file, cacheDir).saveCache(); // makes the folder
    for (const f of [stale, other]) writeFileSync(f, 'old');
    requireWithCodeCache<Bundle>(file, cacheDir, 'start').saveCache();
    requireWithCodeCache<Bundle>(file, cacheDir, 'prompt').saveCache();
    const files = readdirSync(cacheDir).sort();
    expect(files).toHaveLength(4);
    expect(files).toContain('other-1-2-v0.0.0.v8');
    expect(files.filter((f) => /^bundle(\.(start|prompt))?-\d+-\d+-v[\d.]+\.v8$/.test(f))).toHaveLength(3);
    const prompt = requireWithCodeCache<Bundle>(file, cacheDir, 'prompt');
    expect(prompt.exports.twice(5)).toBe(10);
  });

  it('reads a bundle that is not ASCII as UTF-8', () => {
    const { dir, cacheDir } = setUp();
    const file = join(dir, 'wide.cjs');
    writeFileSync(file, `module.exports = { arrow: '\u2192 →', re: /^ *\\d+(?:→|\\t)/.test('12→x') };\n`);
    for (let i = 0; i < 2; i++) {
      const loaded = requireWithCodeCache<{ arrow: string; re: boolean }>(file, cacheDir);
      expect(loaded.exports).toEqual({ arrow: '\u2192 \u2192', re: true });
      loaded.saveCache();
    }
  });

  it('falls back to a plain require when the bundle cannot be read for caching', () => {
    const { dir } = setUp();
    expect(() => requireWithCodeCache(join(dir, 'missing.cjs'), join(dir, 'cache'))).toThrow(
      /Cannot find module/,
    );
  });
});
