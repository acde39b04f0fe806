/**
 * Starting the background worker cheaply: a pid-file check, then a detached spawn that is never waited on.
 */
import type * as ChildProcessModule from 'node:child_process';
import { openSync, readFileSync, closeSync, mkdirSync } from 'node:fs';
import type { EngramPaths } from '../core/paths.ts';
import { isPidAlive } from '../store/process-alive.ts';

export function readWorkerPid(paths: EngramPaths): number | null {
  try {
    const pid = Number.parseInt(readFileSync(paths.workerPid, 'utf8').trim(), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    // No pid file: no worker has run, or it exited cleanly.
    return null;
  }
}

/** The pid of a running worker according to its pid file, or null. */
export function runningWorkerPid(paths: EngramPaths): number | null {
  const pid = readWorkerPid(paths);
  return pid !== null && isPidAlive(pid) ? pid : null;
}

/**
 * Spawn `node <cliPath> worker run` detached, output to the worker log. Returns the child's pid.
 * The worker itself takes the single-worker lock, so a race between two launchers is harmless.
 */
export function spawnWorker(paths: EngramPaths, cliPath: string, env: NodeJS.ProcessEnv): number | undefined {
  mkdirSync(paths.logDir, { recursive: true, mode: 0o700 });
  const out = openSync(paths.workerLog, 'a', 0o600);
  try {
    // Loaded on demand: child_process costs ~1 ms to load and most hook calls never spawn.
    const { spawn } = process.getBuiltinModule('node:child_process') as typeof ChildProcessModule;
    const child = spawn(process.execPath, [cliPath, 'worker', 'run'], {
      detached: true,
      stdio: ['ignore', out, out],
      env: { ...env, ENGRAM_HOME: paths.home },
    });
    child.unref();
    return child.pid;
  } finally {
    closeSync(out);
  }
}
