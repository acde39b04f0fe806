/**
 * Load a CommonJS bundle with V8's code cache: the context hook's database half (dist/hook-context.cjs,
 * ~140 KB) costs about 8 ms to compile on every SessionStart and prompt, and about 3 ms when V8 is
 * handed the code it compiled last time. Node 20 has no module compile cache of its own, so the hook
 * keeps one file per bundle build and Node version under `$ENGRAM_HOME/cache/` (written once, after the
 * hook's work, so it holds the functions the hook ran). A cache V8 rejects is rewritten; any failure
 * here falls back to a plain `require`.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import type * as ModuleModule from 'node:module';
import { basename, dirname, join } from 'node:path';
import type * as VmModule from 'node:vm';

export interface LoadedBundle<T> {
  exports: T;
  /**
   * Write the code cache if it was missing or rejected (call once the bundle's work is done); `warm`
   * runs first, only then, to compile more of the bundle into the cache.
   */
  saveCache(warm?: () => void): void;
}

export function requireWithCodeCache<T>(file: string, cacheDir: string): LoadedBundle<T> {
  const require = (process.getBuiltinModule('node:module') as typeof ModuleModule).createRequire(file);
  const name = basename(file).replace(/\.c?js$/, '');
  let source: string;
  let cacheFile: string;
  try {
    const stat = statSync(file);
    source = readFileSync(file, 'utf8');
    cacheFile = join(cacheDir, `${name}-${stat.size}-${Math.floor(stat.mtimeMs)}-${process.version}.v8`);
  } catch {
    return { exports: require(file) as T, saveCache: () => undefined };
  }
  let cached: Buffer | undefined;
  try {
    cached = readFileSync(cacheFile);
  } catch {
    cached = undefined; // first run of this build: compile, then save
  }
  let script: VmModule.Script;
  let body: (...args: unknown[]) => void;
  try {
    const vm = process.getBuiltinModule('node:vm') as typeof VmModule;
    script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
      filename: file,
      ...(cached ? { cachedData: cached } : {}),
    });
    body = script.runInThisContext() as (...args: unknown[]) => void;
  } catch {
    return { exports: require(file) as T, saveCache: () => undefined };
  }
  const module = { exports: {} as unknown };
  body.call(module.exports, module.exports, require, module, file, dirname(file));
  const stale = cached === undefined || script.cachedDataRejected === true;
  return {
    exports: module.exports as T,
    saveCache(warm) {
      if (!stale) return;
      try {
        warm?.();
        mkdirSync(cacheDir, { recursive: true, mode: 0o700 });
        // Caches of other builds or Node versions are never read again.
        for (const old of readdirSync(cacheDir))
          if (old.startsWith(`${name}-`) && old.endsWith('.v8')) rmSync(join(cacheDir, old), { force: true });
        const tmp = `${cacheFile}.${process.pid}.tmp`;
        writeFileSync(tmp, script.createCachedData(), { mode: 0o600 });
        renameSync(tmp, cacheFile);
      } catch {
        // Only speed depends on it; the next context hook tries again.
      }
    },
  };
}
