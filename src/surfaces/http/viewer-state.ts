/**
 * `$ENGRAM_HOME/viewer.json`: the running viewer's process stamp and port, so a second `engram ui`
 * hands out a new link to it instead of starting another. A reused pid does not count (the stamp
 * carries the process's start time).
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { isSameProcess, type ProcessStamp } from '../../store/process-identity.ts';

export interface ViewerState {
  stamp: ProcessStamp;
  port: number;
  startedAt: number;
}

/** The viewer recorded in the state file, if it is still that process. */
export function runningViewer(path: string): ViewerState | null {
  try {
    const s = JSON.parse(readFileSync(path, 'utf8')) as Partial<ViewerState>;
    if (!s.stamp || !Number.isInteger(s.stamp.pid) || !Number.isInteger(s.port)) return null;
    return isSameProcess(s.stamp) ? (s as ViewerState) : null;
  } catch {
    return null; // no state file (or a damaged one): no viewer is known to run
  }
}

export function writeViewerState(path: string, state: ViewerState): void {
  writeFileSync(path, `${JSON.stringify(state)}\n`, { mode: 0o600 });
}

/** Remove the state file if it still names this process. */
export function clearViewerState(path: string, pid: number): void {
  const current = runningViewer(path);
  if (current === null || current.stamp.pid === pid) rmSync(path, { force: true });
}
