/**
 * EngramError codes (and PostgreSQL's) mapped to HTTP statuses and one JSON error shape.
 */
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { describeError, EngramError, type ErrorCode } from '../core/errors.ts';
import type { Logger } from '../core/ports.ts';

const STATUS: Partial<Record<ErrorCode, ContentfulStatusCode>> = {
  INPUT_INVALID: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  RATE_LIMITED: 429,
  TEAM_UNAVAILABLE: 503,
};

/** PostgreSQL SQLSTATEs that mean "not allowed" or "try again". */
const PG_STATUS: Record<string, [ContentfulStatusCode, ErrorCode, string]> = {
  '42501': [403, 'FORBIDDEN', 'not allowed'],
  '40001': [503, 'TEAM_UNAVAILABLE', 'busy; try again'],
  '40P01': [503, 'TEAM_UNAVAILABLE', 'busy; try again'],
  '57P01': [503, 'TEAM_UNAVAILABLE', 'the database is restarting'],
};

export function toErrorResponse(c: Context, error: unknown, logger: Logger): Response {
  const requestId = (c.get('requestId') as string | undefined) ?? '';
  if (error instanceof EngramError) {
    const status = STATUS[error.code] ?? 500;
    if (status >= 500) logger.error('request failed', { requestId, error: describeError(error) });
    return c.json(
      { error: { code: error.code, message: error.message, hint: error.hint, requestId } },
      status,
    );
  }
  const pgCode = (error as { code?: unknown }).code;
  const mapped = typeof pgCode === 'string' ? PG_STATUS[pgCode] : undefined;
  if (mapped) {
    const [status, code, message] = mapped;
    return c.json({ error: { code, message, requestId } }, status);
  }
  const connectionLost =
    typeof pgCode === 'string' && /^(ECONNREFUSED|ECONNRESET|08\d\d\d|57P0\d)$/.test(pgCode);
  logger.error('request failed', { requestId, error: describeError(error) });
  return c.json(
    {
      error: { code: connectionLost ? 'TEAM_UNAVAILABLE' : 'INTERNAL', message: 'internal error', requestId },
    },
    connectionLost ? 503 : 500,
  );
}
