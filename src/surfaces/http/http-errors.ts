/**
 * EngramError codes → HTTP statuses, and the one JSON error shape: `{error: {code, message, hint?}}`.
 */
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { describeError, ERROR_TABLE, EngramError, isEngramError, type ErrorCode } from '../../core/errors.ts';
import type { Logger } from '../../core/ports.ts';
import type { ViewerEnv } from './security.ts';

const STATUS: Partial<Record<ErrorCode, ContentfulStatusCode>> = {
  INPUT_INVALID: 400,
  CONFIG_INVALID: 400,
  CONFIG_UNKNOWN_KEY: 404,
  NOT_FOUND: 404,
  STORE_BUSY: 503,
};

/** An error's status: the viewer's own mapping, else the error table's; anything else is a 500. */
export function statusOf(error: unknown): ContentfulStatusCode {
  if (!isEngramError(error)) return 500;
  return STATUS[error.code] ?? (ERROR_TABLE[error.code].http as ContentfulStatusCode);
}

/** The JSON body of an error (internal errors say little; the log has the rest). */
export function errorBody(error: unknown): { error: { code: string; message: string; hint?: string } } {
  if (isEngramError(error) && statusOf(error) < 500) {
    return {
      error: { code: error.code, message: error.message, ...(error.hint ? { hint: error.hint } : {}) },
    };
  }
  return { error: { code: 'INTERNAL', message: 'the viewer failed to answer; see logs/viewer.log' } };
}

/** Renders an error as a page (in the viewer's layout). */
export type ErrorPage = (
  c: Context<ViewerEnv>,
  status: ContentfulStatusCode,
  error: ReturnType<typeof errorBody>['error'],
) => Response | Promise<Response>;

/** Hono's onError: log server faults, answer JSON under /api and an error page elsewhere. */
export function onViewerError(logger: Logger, page: ErrorPage) {
  return (error: Error, c: Context<ViewerEnv>) => {
    const status = statusOf(error);
    if (status >= 500)
      logger.error('viewer request failed', { path: c.req.path, error: describeError(error) });
    const body = errorBody(error);
    if (c.req.path.startsWith('/api/')) return c.json(body, status);
    return page(c, status, body.error);
  };
}

export function notFound(what: string, id: string): EngramError {
  return new EngramError('NOT_FOUND', `no ${what} with id ${id}`);
}
