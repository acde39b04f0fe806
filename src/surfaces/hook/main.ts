/**
 * The hook process entry (bundled to dist/hook.cjs): stdin → runHook → stdout, exit 0 always.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describeError } from '../../core/errors.ts';
import type { Logger } from '../../core/ports.ts';
import { createFileLogger } from '../file-logger.ts';
import { loadRuntime, type Runtime } from '../runtime.ts';
import { runningWorkerPid, spawnWorker } from '../worker-launcher.ts';
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

function nativeBindingPath(here: string): string | undefined {
  try {
    const req = createRequire(join(here, 'hook.cjs'));
    return join(
      dirname(req.resolve('better-sqlite3/package.json')),
      'build',
      'Release',
      'better_sqlite3.node',
    );
  } catch {
    return undefined; // let better-sqlite3 search for its addon itself
  }
}

function main(): void {
  const here = typeof __dirname === 'string' ? __dirname : process.cwd();
  let runtime: Runtime | null = null;
  let logger: Logger | null = null;
  try {
    runtime = loadRuntime(process.env);
    const rt = runtime;
    logger = createFileLogger(rt.paths.hookLog, rt.config['log.level'], 'hook');
    const input = readStdin();
    const outcome = runHook(input, {
      runtime: rt,
      logger,
      now: Date.now,
      cwd: process.cwd(),
      nativeBinding: nativeBindingPath(here),
      ensureWorker: () => {
        if (runningWorkerPid(rt.paths) === null) spawnWorker(rt.paths, join(here, 'cli.mjs'), process.env);
      },
    });
    if (outcome.stdout !== '') process.stdout.write(outcome.stdout);
  } catch (error) {
    // Even a broken config or an unreadable stdin must not fail the agent's turn.
    const home = runtime?.paths.hookLog;
    (
      logger ??
      createFileLogger(
        home ??
          join(process.env['ENGRAM_HOME'] ?? join(process.env['HOME'] ?? '.', '.engram'), 'logs', 'hook.log'),
        'info',
        'hook',
      )
    ).error('hook failed', { error: describeError(error) });
  }
  process.exitCode = 0;
}

main();
