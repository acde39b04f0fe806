/**
 * The hook process entry (bundled to dist/hook.cjs): stdin → runHook → stdout, exit 0 always.
 * The database half lives in dist/hook-context.cjs and is loaded only for the events that need it —
 * for a prompt, only when the running worker did not answer over its socket.
 */
import { readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_HOST, hostAdapter, isHostName, type HostAdapter } from '../../capture/hosts/index.ts';
import { describeError } from '../../core/errors.ts';
import { pathsFor } from '../../core/paths.ts';
import type { Logger } from '../../core/ports.ts';
import { createFileLogger } from '../file-logger.ts';
import { engramHomeFrom, loadRuntime, processEnv } from '../runtime.ts';
import { runningWorkerPid, spawnWorker } from '../worker-launcher.ts';
import type { handleContextEvent } from './context-hook.ts';
import { requireWithCodeCache } from './code-cache.ts';
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

async function main(): Promise<void> {
  // engram's files are private whatever the umask: 0600 files, 0700 directories.
  process.umask(0o077);
  const here = typeof __dirname === 'string' ? __dirname : process.cwd();
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
      contextHandler: () => {
        const bundle = requireWithCodeCache<{ handleContextEvent: typeof handleContextEvent }>(
          join(here, 'hook-context.cjs'),
          runtime.paths.cacheDir,
        );
        afterWork = bundle.saveCache;
        return bundle.exports.handleContextEvent;
      },
      askWorker: (query) => askWorker(runtime.paths.workerSocket, query),
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

void main();
