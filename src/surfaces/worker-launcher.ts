/**
 * Starting the background worker cheaply, and knowing whether it runs: a pid file holding the worker's
 * pid and start time, whose modification time is the worker's heartbeat. A pid file whose process is
 * gone, is another program under a reused pid, or has not beaten for a minute is stale: the next hook
 * starts a new worker, and `engram worker stop` never signals what is not engram's worker.
 */
import type * as ChildProcessModule from 'node:child_process';
import {
  closeSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { EngramError } from '../core/errors.ts';
import type { EngramPaths } from '../core/paths.ts';
import { isSameProcess, WORKER_STALE_MS, type ProcessStamp } from '../store/process-identity.ts';

export interface WorkerPidFile {
  stamp: ProcessStamp;
  /** The last heartbeat (the file's modification time). */
  beatAt: number;
}

/** The pid file's content, or null when there is none or it cannot be read. */
export function readWorkerPidFile(paths: EngramPaths): WorkerPidFile | null {
  try {
    const text = readFileSync(paths.workerPid, 'utf8').trim();
    const beatAt = statSync(paths.workerPid).mtimeMs;
    if (/^\d+$/.test(text)) return { stamp: { pid: Number(text), start: null }, beatAt }; // older format
    const value = JSON.parse(text) as { pid?: unknown; start?: unknown };
    if (typeof value.pid !== 'number' || !Number.isInteger(value.pid) || value.pid <= 0) return null;
    return { stamp: { pid: value.pid, start: typeof value.start === 'string' ? value.start : null }, beatAt };
  } catch {
    return null; // no pid file (no worker ran, or it exited cleanly), or a damaged one
  }
}

/** Whether `pid` runs engram's worker, when the system can tell (Linux: its command line). */
function commandLineIsWorker(pid: number): boolean {
  try {
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    // `node dist/cli.mjs worker run` (spawned by a hook) or `engram worker run` (bin/engram, by hand).
    return args.includes('worker') && args.some((a) => /(cli\.(mjs|ts)|[/\\]engram)$/.test(a));
  } catch {
    return true; // no /proc: the start time and the heartbeat decide
  }
}

/** The pid of engram's running worker according to its pid file, or null (none, or a stale file). */
export function runningWorkerPid(paths: EngramPaths, now = Date.now()): number | null {
  const file = readWorkerPidFile(paths);
  if (!file || now - file.beatAt > WORKER_STALE_MS) return null;
  return isSameProcess(file.stamp) && commandLineIsWorker(file.stamp.pid) ? file.stamp.pid : null;
}

/** Record this process as the worker (atomically; 0600). */
export function writeWorkerPidFile(paths: EngramPaths, stamp: ProcessStamp): void {
  const tmp = `${paths.workerPid}.${stamp.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify({ pid: stamp.pid, start: stamp.start })}\n`, { mode: 0o600 });
  renameSync(tmp, paths.workerPid);
}

/** The worker's heartbeat: its pid file's modification time moves on. */
export function touchWorkerPidFile(paths: EngramPaths, now = Date.now()): void {
  const at = new Date(now);
  utimesSync(paths.workerPid, at, at);
}

/** Remove the pid file if it still names `pid` (a newer worker's file is left alone). */
export function removeWorkerPidFile(paths: EngramPaths, pid: number | null): void {
  const file = readWorkerPidFile(paths);
  if (file && pid !== null && file.stamp.pid !== pid) return;
  try {
    unlinkSync(paths.workerPid);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/**
 * Spawn `node <cliPath> worker run` detached, output to the worker log. Returns the child's pid.
 * The worker itself takes the single-worker lock, so a race between two launchers is harmless.
 */
export function spawnWorker(
  paths: EngramPaths,
  cliPath: string,
  env: Readonly<Record<string, string | undefined>>,
): number | undefined {
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

/**
 * Stop engram's worker (verified by identity) and wait until it is gone, so nothing holds the
 * database open (compacting it, repairing it). Resolves with the pid stopped, or null when none ran.
 */
export async function stopWorker(paths: EngramPaths, timeoutMs = 10_000): Promise<number | null> {
  const pid = runningWorkerPid(paths);
  if (pid === null) return null;
  process.kill(pid, 'SIGTERM');
  const deadline = Date.now() + timeoutMs;
  while (runningWorkerPid(paths) !== null) {
    if (Date.now() > deadline)
      throw new EngramError('WORKER_FAILED', `worker ${pid} did not stop within ${timeoutMs / 1000} s`);
    await sleep(50);
  }
  return pid;
}
