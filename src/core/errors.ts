/**
 * One error type with stable string codes; each edge maps codes to its own form through one table
 * (CLI exit code, HTTP status, MCP hint). Errors are recognised by a brand, not `instanceof`, so an
 * error thrown by one bundle (dist/llm.mjs, dist/mcp.mjs) is still known in another.
 */
export type ErrorCode =
  | 'CONFIG_INVALID'
  | 'CONFIG_UNKNOWN_KEY'
  | 'INPUT_INVALID'
  | 'INPUT_TOO_LARGE'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'RATE_LIMITED'
  | 'STORE_FAILED'
  | 'STORE_BUSY'
  | 'STORE_FOREIGN'
  | 'STORE_DAMAGED'
  | 'WORKER_FAILED'
  | 'INSTALL_FAILED'
  | 'REMOTE_FAILED'
  | 'KEY_MISSING'
  | 'LLM_TIMEOUT'
  | 'LLM_HTTP'
  | 'LLM_NETWORK'
  | 'LLM_MALFORMED'
  | 'LLM_UNAVAILABLE'
  | 'EMBED_FAILED'
  | 'EMBED_REJECTED'
  | 'INTERNAL';

/** How each edge shows an error code: the CLI's exit code, the HTTP status, the MCP fix-it hint. */
export interface ErrorMapping {
  exit: number;
  http: number;
  /** What the model (MCP) or the user should do when the error carries no hint of its own. */
  hint: string;
}

const FAULT =
  'This is a fault on engram\u2019s side, not in the request; "engram doctor" and the logs in $ENGRAM_HOME/logs say more.';

export const ERROR_TABLE: Readonly<Record<ErrorCode, ErrorMapping>> = {
  CONFIG_INVALID: {
    exit: 2,
    http: 400,
    hint: 'Fix the setting it names ("engram config list" shows each key).',
  },
  // Over HTTP an unknown key names a resource that does not exist (PUT /api/config/<key>).
  CONFIG_UNKNOWN_KEY: { exit: 2, http: 404, hint: 'Run "engram config list" to see the valid keys.' },
  INPUT_INVALID: { exit: 2, http: 400, hint: 'Check the arguments and try again.' },
  INPUT_TOO_LARGE: { exit: 2, http: 413, hint: 'Send less at once: split it, or shorten the text.' },
  NOT_FOUND: { exit: 1, http: 404, hint: 'Use an id from a search result.' },
  CONFLICT: { exit: 1, http: 409, hint: 'Read the current state again and retry.' },
  UNAUTHORIZED: { exit: 1, http: 401, hint: 'Log in again or use a valid token.' },
  FORBIDDEN: { exit: 1, http: 403, hint: 'Ask an admin for access.' },
  RATE_LIMITED: { exit: 1, http: 429, hint: 'Wait a moment and try again.' },
  STORE_FAILED: { exit: 1, http: 500, hint: FAULT },
  STORE_BUSY: { exit: 75, http: 503, hint: 'The database is busy; try again in a moment.' },
  STORE_FOREIGN: {
    exit: 2,
    http: 500,
    hint: 'Give engram a folder of its own: set ENGRAM_HOME (e.g. export ENGRAM_HOME=~/.engram-memory, where Claude Code runs too), or move that file away.',
  },
  STORE_DAMAGED: {
    exit: 1,
    http: 503,
    hint: '"engram doctor" says what is damaged; "engram doctor --repair" restores the newest good backup and reads back what the inbox and transcripts still hold.',
  },
  WORKER_FAILED: { exit: 1, http: 500, hint: FAULT },
  INSTALL_FAILED: { exit: 1, http: 500, hint: 'Check the settings file path and its permissions.' },
  REMOTE_FAILED: { exit: 1, http: 502, hint: 'Check that the server is reachable; engram retries later.' },
  KEY_MISSING: {
    exit: 1,
    http: 409,
    hint: 'The project is end-to-end encrypted: ask whoever shared it for its key, then run "engram team key import" with it.',
  },
  LLM_TIMEOUT: { exit: 1, http: 504, hint: 'The LLM did not answer in time; engram retries later.' },
  LLM_HTTP: { exit: 1, http: 502, hint: 'The LLM service refused the call; check distill.* settings.' },
  LLM_NETWORK: { exit: 1, http: 502, hint: 'The LLM service is unreachable; check distill.url.' },
  LLM_MALFORMED: { exit: 1, http: 502, hint: 'The LLM answered something unusable; engram falls back.' },
  LLM_UNAVAILABLE: { exit: 1, http: 503, hint: 'Configure distill.provider, or install what it needs.' },
  EMBED_FAILED: {
    exit: 1,
    http: 502,
    hint: 'Check that the embedding server runs and embed.url points at it.',
  },
  EMBED_REJECTED: { exit: 1, http: 502, hint: 'The embedder refused this text; check embed.model.' },
  INTERNAL: { exit: 1, http: 500, hint: FAULT },
};

/** The brand every EngramError carries (a registered symbol: the same in every bundle). */
const BRAND = Symbol.for('engram.error');

export class EngramError extends Error {
  readonly code: ErrorCode;
  readonly hint: string | undefined;
  /** An HTTP status the error is about (an upstream reply), as data. */
  readonly status: number | undefined;
  readonly [BRAND] = true;

  constructor(
    code: ErrorCode,
    message: string,
    options?: { hint?: string; cause?: unknown; status?: number },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'EngramError';
    this.code = code;
    this.hint = options?.hint;
    this.status = options?.status;
  }
}

/** Whether `error` is an EngramError (from any bundle), optionally of one of `codes`. */
export function isEngramError(error: unknown, ...codes: ErrorCode[]): error is EngramError {
  if (typeof error !== 'object' || error === null || (error as Record<symbol, unknown>)[BRAND] !== true)
    return false;
  return codes.length === 0 || codes.includes((error as EngramError).code);
}

/** The table's row for an error: anything that is not an EngramError is an internal fault. */
export function mappingOf(error: unknown): ErrorMapping & { code: ErrorCode } {
  const sqlite = (error as { code?: unknown } | null)?.code;
  const busy = typeof sqlite === 'string' && /^SQLITE_(BUSY|LOCKED)/.test(sqlite);
  // A database file SQLite cannot read (truncated, a page overwritten) is damage, not a fault.
  const damaged = typeof sqlite === 'string' && /^SQLITE_(CORRUPT|NOTADB)/.test(sqlite);
  const code = isEngramError(error)
    ? error.code
    : busy
      ? 'STORE_BUSY'
      : damaged
        ? 'STORE_DAMAGED'
        : 'INTERNAL';
  return { code, ...ERROR_TABLE[code] };
}

/** The hint to show for an error: its own, else the table's for its code. */
export function hintOf(error: unknown): string {
  return (isEngramError(error) && error.hint) || mappingOf(error).hint;
}

export type Result<T> = { ok: true; value: T } | { ok: false; code: ErrorCode; message: string };

export function ok<T>(value: T): Result<T> {
  return { ok: true, value };
}

export function fail<T = never>(code: ErrorCode, message: string): Result<T> {
  return { ok: false, code, message };
}

/** A short, single-line description of anything thrown. */
export function describeError(error: unknown): string {
  if (isEngramError(error)) return `${error.code}: ${error.message}`;
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}
