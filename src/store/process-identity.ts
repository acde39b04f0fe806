/**
 * Telling whether a process is still the one engram started: its pid alone is not enough (pids are
 * reused), so a process is stamped with its start time where the system tells it (Linux: /proc), and
 * a worker also proves it is alive by a heartbeat. Used on the hook path: a few cheap file reads.
 */
import { readFileSync } from 'node:fs';

/** How often the worker proves it is alive (its pid file and its lock row). */
export const WORKER_HEARTBEAT_MS = 5_000;
/** A worker that has not shown a heartbeat for this long is presumed dead. */
export const WORKER_STALE_MS = 60_000;

/** A process as engram recognises it: pid and start time (null where the system does not tell). */
export interface ProcessStamp {
  pid: number;
  start: string | null;
}

/** Whether a process exists (signal 0 probes without signalling). EPERM means it exists but is not ours. */
export function isPidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A process's start time in clock ticks since boot (Linux), or null where it cannot be read. */
export function processStart(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces and parentheses): state is field 3, start 22.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19] ?? null;
  } catch {
    return null; // no /proc (not Linux) or no such process
  }
}

/** This process's stamp. */
export function ownStamp(): ProcessStamp {
  return { pid: process.pid, start: processStart(process.pid) };
}

/** Whether `stamp` still names the same live process (a reused pid with another start time does not). */
export function isSameProcess(stamp: ProcessStamp): boolean {
  if (!isPidAlive(stamp.pid)) return false;
  if (stamp.start === null) return true; // the system cannot tell: the heartbeat decides
  const now = processStart(stamp.pid);
  return now === null || now === stamp.start;
}
