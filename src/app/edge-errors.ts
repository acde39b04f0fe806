/**
 * The one reading of engram's error table (core/errors.ts) that every edge shows: the CLI's exit code
 * and its two lines on stderr, the viewer's HTTP status and JSON error, MCP's isError text. A SQLite
 * "busy" or "locked" is STORE_BUSY everywhere (exit 75, HTTP 503, "try again"), a file SQLite cannot
 * read is STORE_DAMAGED; anything else that is not an EngramError is a fault on engram's side.
 */
import { describeError, hintOf, isEngramError, mappingOf, type ErrorCode } from '../core/errors.ts';

export interface EdgeError {
  code: ErrorCode;
  /** What went wrong, in one line (without the code). */
  message: string;
  /** What to do about it: the error's own hint, else the table's. */
  hint: string;
  /** The CLI's exit code. */
  exit: number;
  /** The HTTP status. */
  http: number;
  /** A fault on engram's side: logged; a caller over HTTP is told only where to look. */
  fault: boolean;
  /** MCP's isError text: what went wrong and how to fix the call. */
  mcpText: string;
}

const FAULTS: readonly ErrorCode[] = ['INTERNAL', 'STORE_FAILED', 'WORKER_FAILED'];

export function edgeError(error: unknown): EdgeError {
  const mapping = mappingOf(error);
  const { code } = mapping;
  const own = isEngramError(error);
  const raw = (error as Error | null)?.message ?? String(error);
  const message = own
    ? error.message
    : code === 'STORE_BUSY'
      ? `the database is busy (${raw})`
      : code === 'STORE_DAMAGED'
        ? `the database is damaged (${raw})`
        : describeError(error);
  const hint = hintOf(error);
  const line = own || code !== 'INTERNAL' ? `${code}: ${message}` : message;
  return {
    code,
    message,
    hint,
    exit: mapping.exit,
    http: mapping.http,
    fault: FAULTS.includes(code),
    mcpText: `Error: ${line}\nHow to fix: ${hint}`,
  };
}
