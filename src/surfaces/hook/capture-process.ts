/**
 * The hook process's work (bundled to dist/hook-capture.cjs, which the small entry dist/hook.cjs loads
 * with V8's code cache): stdin → runHook → stdout, exit 0 always. The database half lives in
 * dist/hook-context.cjs and is loaded only for the events that need it — for a prompt, only when the
 * running worker did not answer through its recall folder.
 */
import { readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_HOST, hostAdapter, isHostName, type HostAdapter } from '../../capture/hosts/index.ts';
import { describeError } from '../../core/errors.ts';
import { pathsFor } from '../../core/paths.ts';
import { scrubValue } from '../../core/scrub.ts';
import type { Logger } from '../../core/ports.ts';
import { createFileLogger } from '../file-logger.ts';
import { engramHomeFrom, loadRuntime, processEnv } from '../runtime.ts';
import { runningWorkerPid, spawnWorker } from '../worker-launcher.ts';
import type { handleContextEvent } from './context-hook.ts';
import type { requireWithCodeCache } from './code-cache.ts';
import { askWorker } from './recall-client.ts';
import { runHook } from './run-hook.ts';

function readStdin(): Buffer {
  try {
    return readFileSync(0);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EAGAIN' || code === 'EOF' || code === 'EBADF') return Buffer.alloc(0);
    throw error;
  }
}

/**
 * Print the hook's answer with a plain write to fd 1: `process.stdout` would load Node's stream modules
 * (about 3 ms of a context hook's time). A pipe that is full for now gets the rest through the stream.
 */
function printOut(text: string): void {
  const bytes = Buffer.from(text);
  let done = 0;
  try {
    while (done < bytes.length) done += writeSync(1, bytes, done);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
    process.stdout.write(bytes.subarray(done));
  }
}

/**
 * The host named by `--host <name>` on the command line (`engram hook --host codex`, or the bundle run
 * directly with it); Claude Code when none is named. An unknown name is an error: guessing would
 * misread the payload.
 */
function chosenHost(argv: readonly string[]): HostAdapter | string {
  const at = argv.findIndex((a) => a === '--host' || a.startsWith('--host='));
  if (at === -1) return hostAdapter(DEFAULT_HOST);
  const word = argv[at] ?? '';
  const name = word === '--host' ? (argv[at + 1] ?? '') : word.slice('--host='.length);
  return isHostName(name) ? hostAdapter(name) : `unknown host ${JSON.stringify(name)} after --host`;
}

/**
 * One hook call in this process; `here` is the folder of the hook bundles (dist/), `load` how the entry
 * loads a bundle (with V8's code cache; handed in so this bundle does not carry it twice).
 */
export async function runHookProcess(here: string, load: typeof requireWithCodeCache): Promise<void> {
  // engram's files are private whatever the umask: 0600 files, 0700 directories.
  process.umask(0o077);
  let logger: Logger | null = null;
  let afterWork = (): void => undefined;
  try {
    const runtime = loadRuntime();
    logger = createFileLogger(runtime.paths.hookLog, runtime.config['log.level'], 'hook');
    const host = chosenHost(process.argv.slice(2));
    if (typeof host === 'string') {
      logger.error('hook not run', { reason: host });
      process.exitCode = 0;
      return;
    }
    const outcome = await runHook(readStdin(), {
      host,
      runtime,
      logger,
      now: Date.now,
      cwd: process.cwd(),
      contextHandler: (kind) => {
        const bundle = load<{ handleContextEvent: typeof handleContextEvent }>(
          join(here, 'hook-context.cjs'),
          runtime.paths.cacheDir,
          kind === 'prompt' ? 'prompt' : 'start',
        );
        afterWork = bundle.saveCache;
        return bundle.exports.handleContextEvent;
      },
      askWorker: (query) => askWorker(runtime.paths.recallDir, query),
      ensureWorker: () => {
        if (runningWorkerPid(runtime.paths) === null)
          spawnWorker(runtime.paths, join(here, 'cli.mjs'), runtime.env);
      },
    });
    if (outcome.stdout !== '') printOut(outcome.stdout);
    afterWork();
  } catch (error) {
    // Even a broken config or an unreadable stdin must not fail the agent's turn.
    (logger ?? createFileLogger(pathsFor(engramHomeFrom(processEnv())).hookLog, 'info', 'hook')).error(
      'hook failed',
      {
        error: describeError(error),
      },
    );
  }
  process.exitCode = 0;
}

/**
 * Scrub a small fixed text that wakes the scrubber's rules, so a code cache written after it holds
 * their compiled functions whichever event wrote it (a session's first hook is SessionStart, which
 * scrubs next to nothing). Run only when the cache is written, once per build.
 */
export function warmUp(): void {
  scrubValue({
    a: 'DB_PASS="x" api_key: y --token z https://u:p@h Authorization: Bearer 0123456789aBcDeFgHiJ',
  });
}
