/**
 * Problems a log recorded since someone last looked: `engram status` reads the hook log from where it
 * stopped last time (an offset kept beside the log), so each error is reported once.
 */
import { closeSync, openSync, readSync, statSync, writeFileSync, readFileSync } from 'node:fs';

export interface LoggedProblems {
  errors: number;
  warnings: number;
  /** The last few error lines (scrubbed when they were written). */
  last: string[];
}

const MAX_READ = 4 * 1024 * 1024;

/** Count ERROR and WARN lines appended to `logPath` since the offset in `markPath`; then move the mark. */
export function problemsSince(
  logPath: string,
  markPath: string,
  options: { keepMark?: boolean } = {},
): LoggedProblems {
  const none: LoggedProblems = { errors: 0, warnings: 0, last: [] };
  let size: number;
  try {
    size = statSync(logPath).size;
  } catch {
    return none; // no log yet: nothing went wrong
  }
  let from = 0;
  try {
    from = Number.parseInt(readFileSync(markPath, 'utf8'), 10) || 0;
  } catch {
    from = 0; // never looked: read the log from its start
  }
  if (from > size) from = 0; // the log was rotated or truncated
  const start = Math.max(from, size - MAX_READ);
  const buffer = Buffer.alloc(size - start);
  const fd = openSync(logPath, 'r');
  try {
    readSync(fd, buffer, 0, buffer.length, start);
  } finally {
    closeSync(fd);
  }
  const out: LoggedProblems = { errors: 0, warnings: 0, last: [] };
  for (const line of buffer.toString('utf8').split('\n')) {
    if (/^\S+ ERROR /.test(line)) {
      out.errors++;
      out.last.push(line.length > 300 ? `${line.slice(0, 299)}…` : line);
    } else if (/^\S+ WARN /.test(line)) out.warnings++;
  }
  out.last = out.last.slice(-3);
  if (!options.keepMark) writeFileSync(markPath, String(size), { mode: 0o600 });
  return out;
}
