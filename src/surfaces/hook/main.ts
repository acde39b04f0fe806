/**
 * The hook process entry (dist/hook.cjs), kept tiny: it loads the hook's work (dist/hook-capture.cjs)
 * with V8's code cache, so a capture hook does not compile its ~50 KB of JavaScript on every call,
 * runs it, and writes the cache once per build (after a warm-up scrub, so the cache holds the
 * scrubber's functions whichever event came first). Exit 0 always.
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathsFor } from '../../core/paths.ts';
import { engramHomeFrom, processEnv } from '../engram-home.ts';
import type { runHookProcess, warmUp } from './capture-process.ts';
import { requireWithCodeCache } from './code-cache.ts';

const here = typeof __dirname === 'string' ? __dirname : process.cwd();
const paths = pathsFor(engramHomeFrom(processEnv()));

/** The hook's own bundle is missing or broken (a partial install): say so in the hook log; the turn goes on. */
function notRun(error: unknown): void {
  try {
    mkdirSync(paths.logDir, { recursive: true, mode: 0o700 });
    appendFileSync(
      paths.hookLog,
      `${new Date().toISOString()} ERROR hook[${process.pid}] hook not run ${JSON.stringify({ error: String(error).slice(0, 300) })}\n`,
      { mode: 0o600 },
    );
  } catch {
    // Nowhere left to report it (the home is unusable).
  }
}

async function main(): Promise<void> {
  try {
    const bundle = requireWithCodeCache<{ runHookProcess: typeof runHookProcess; warmUp: typeof warmUp }>(
      join(here, 'hook-capture.cjs'),
      paths.cacheDir,
    );
    // A prompt's hook may wait for the running worker's answer (through its recall folder) before it prints.
    await bundle.exports.runHookProcess(here, requireWithCodeCache);
    bundle.saveCache(bundle.exports.warmUp);
  } catch (error) {
    notRun(error);
  }
  process.exitCode = 0;
}

void main();
