/**
 * Load a CommonJS bundle with V8's code cache: the context hook's database half (dist/hook-context.cjs,
 * ~140 KB) costs about 8 ms to compile on every SessionStart and prompt, and about 3 ms when V8 is
 * handed the code it compiled last time. Node 20 has no module compile cache of its own, so the hook
 * keeps one file per bundle build and Node version under `$ENGRAM_HOME/cache/` (written once, after the
 * hook's work, so it holds the functions the hook ran) — one per path through the bundle when the caller
 * names it (`variant`): a function the cache lacks is compiled on every call, so a SessionStart's cache
 * served to a prompt cost that prompt the compilation of everything it runs and SessionStart does not.
 * A cache V8 rejects is rewritten; any failure here falls back to a plain `require`.
 */
import { isAscii } from 'node:buffer';
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

/**
 * A `require` for the bundle: this module's own when it runs in a CommonJS bundle in the same folder
 * (dist/hook.cjs: it resolves every name as one made for the bundle would), else one made for it —
 * Node's `module` builtin, which makes one, costs a hook ~1 M instructions to load.
 */
function requireFor(file: string): NodeJS.Require {
  if (typeof require === 'function' && typeof __dirname === 'string' && dirname(file) === __dirname)
    return require;
  return (process.getBuiltinModule('node:module') as typeof ModuleModule).createRequire(file);
}

/** The bundle's text: an ASCII file (the hook bundles are, `scripts/build.mjs`) read without UTF-8 decoding. */
function readSource(file: string): string {
  const bytes = readFileSync(file);
  return isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
}

export function requireWithCodeCache<T>(file: string, cacheDir: string, variant?: string): LoadedBundle<T> {
  const require = requireFor(file);
  const name = basename(file).replace(/\.c?js$/, '');
  let source: string;
  let cacheFile: string;
  let build: string;
  try {
    const stat = statSync(file);
    source = readSource(file);
    build = `-${stat.size}-${Math.floor(stat.mtimeMs)}-${process.version}.v8`;
    cacheFile = join(cacheDir, `${name}${variant ? `.${variant}` : ''}${build}`);
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
        // Caches of other builds or Node versions are never read again (this build's other paths' are).
        for (const old of readdirSync(cacheDir))
          if (
            (old.startsWith(`${name}-`) || old.startsWith(`${name}.`)) &&
            old.endsWith('.v8') &&
            !old.endsWith(build)
          )
            rmSync(join(cacheDir, old), { force: true });
        const tmp = `${cacheFile}.${process.pid}.tmp`;
        writeFileSync(tmp, script.createCachedData(), { mode: 0o600 });
        renameSync(tmp, cacheFile);
      } catch {
        // Only speed depends on it; the next context hook tries again.
      }
    },
  };
}
