/**
 * Errors as the viewer answers them, through the one error table (app/edge-errors.ts): the status and
 * the one JSON error shape, `{error: {code, message, hint?}}`.
 */
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { edgeError } from '../../app/edge-errors.ts';
import { describeError, EngramError } from '../../core/errors.ts';
import type { Logger } from '../../core/ports.ts';
import type { ViewerEnv } from './security.ts';

/** An error's status, from the one error table (a busy database is 503). */
export function statusOf(error: unknown): ContentfulStatusCode {
  return edgeError(error).http as ContentfulStatusCode;
}

/** The JSON body of an error (a fault on engram's side says little; the log has the rest). */
export function errorBody(error: unknown): { error: { code: string; message: string; hint?: string } } {
  const e = edgeError(error);
  if (!e.fault) return { error: { code: e.code, message: e.message, hint: e.hint } };
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
