/**
 * Errors mapped to HTTP through engram's one error table (core/errors.ts), and PostgreSQL's own
 * "not allowed" and "try again" states to theirs; one JSON error shape.
 */
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { describeError, ERROR_TABLE, isEngramError, type ErrorCode } from '../core/errors.ts';
import type { Logger } from '../core/ports.ts';

/** PostgreSQL SQLSTATEs that mean "not allowed" or "try again". */
const PG_ERRORS: Record<string, [ErrorCode, string]> = {
  '42501': ['FORBIDDEN', 'not allowed'],
  '40001': ['STORE_BUSY', 'busy; try again'],
  '40P01': ['STORE_BUSY', 'busy; try again'],
  '57P01': ['STORE_BUSY', 'the database is restarting; try again'],
};

export function toErrorResponse(c: Context, error: unknown, logger: Logger): Response {
  const requestId = (c.get('requestId') as string | undefined) ?? '';
  const sqlState = (error as { code?: unknown } | null)?.code;
  const pg = typeof sqlState === 'string' ? PG_ERRORS[sqlState] : undefined;
  const code: ErrorCode = isEngramError(error) ? error.code : pg ? pg[0] : 'INTERNAL';
  const status = ERROR_TABLE[code].http as ContentfulStatusCode;
  if (status >= 500) logger.error('request failed', { requestId, error: describeError(error) });
  const message = isEngramError(error) ? error.message : pg ? pg[1] : 'internal error';
  const hint = isEngramError(error) ? error.hint : undefined;
  return c.json({ error: { code, message, hint, requestId } }, status);
}
