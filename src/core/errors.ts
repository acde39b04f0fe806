/**
 * One error type with stable string codes; each edge maps codes to its own form
 * (CLI exit code, MCP isError result, HTTP status).
 */
export type ErrorCode =
  | 'CONFIG_INVALID'
  | 'CONFIG_UNKNOWN_KEY'
  | 'INPUT_INVALID'
  | 'NOT_FOUND'
  | 'STORE_FAILED'
  | 'STORE_BUSY'
  | 'WORKER_FAILED'
  | 'INSTALL_FAILED'
  | 'LLM_TIMEOUT'
  | 'LLM_HTTP'
  | 'LLM_NETWORK'
  | 'LLM_MALFORMED'
  | 'LLM_UNAVAILABLE'
  | 'EMBED_FAILED'
  | 'EMBED_REJECTED'
  | 'INTERNAL';

export class EngramError extends Error {
  readonly code: ErrorCode;
  readonly hint: string | undefined;

  constructor(code: ErrorCode, message: string, options?: { hint?: string; cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'EngramError';
    this.code = code;
    this.hint = options?.hint;
  }
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
  if (error instanceof EngramError) return `${error.code}: ${error.message}`;
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}
