/**
 * The viewer's HTTP app: a JSON API under /api and server-rendered pages, behind the front door of
 * security.ts (Host check, strict CSP with nonces, auth, same-origin writes). `createApp(deps)` does no
 * I/O of its own; `engram ui` serves it on 127.0.0.1, tests call `app.request()`. Every URL is relative
 * to the origin, so the same pages can run behind the team server with another auth adapter.
 */
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { html } from 'hono/html';
import { EngramError } from '../../core/errors.ts';
import { mountMemoryApi } from './api-memories.ts';
import { mountReviewApi } from './api-review.ts';
import type { RouteDeps, ViewerDeps } from './deps.ts';
import { mountSessionApi } from './api-sessions.ts';
import { mountStreamApi } from './api-stream.ts';
import { mountSystemApi } from './api-system.ts';
import { onViewerError, type ErrorPage } from './http-errors.ts';
import { layout } from './pages/layout.ts';
import { mountPages } from './pages/routes.ts';
import { authGuard, hostGuard, strictHeaders, type ViewerEnv } from './security.ts';

/** The largest request body the API reads (a memory's edit is far smaller). */
const MAX_BODY_BYTES = 1024 * 1024;

export function createApp(deps: ViewerDeps): Hono<ViewerEnv> {
  const app = new Hono<ViewerEnv>();
  const routeDeps: RouteDeps = { ...deps, config: () => deps.settings.current() };
  const errorPage: ErrorPage = (c, status, error) =>
    c.html(
      layout(c.get('secureHeadersNonce') ?? '', deps.assets, {
        title: status === 404 ? 'Not found' : 'Error',
        nav: null,
        page: 'error',
        body: html`<h1>${status === 404 ? 'Not found' : 'Something went wrong'}</h1>
          <p>${error.message}</p>
          ${error.hint ? html`<p class="meta">${error.hint}</p>` : ''}`,
      }),
      status,
    );
  app.onError(onViewerError(deps.logger, errorPage));
  app.use('*', hostGuard(deps.port));
  app.use('*', strictHeaders());
  // Browsers ask for an icon on their own; there is none (pages say so with an empty data: icon).
  app.get('/favicon.ico', (c) => c.body(null, 204));
  // The launch link is the one way in without a session: it creates one.
  app.get('/auth/launch', (c) => {
    const token = c.req.query('token') ?? '';
    if (!deps.auth.exchange(c, token)) {
      return c.text('This link has expired or was already used. Run "engram ui" for a new one.', 401);
    }
    const next = c.req.query('next') ?? '/';
    return c.redirect(/^\/(?!\/)[\w\-./?=&%]*$/.test(next) ? next : '/', 303);
  });
  app.use('*', authGuard(deps.auth, deps.port));
  app.use(
    '/api/*',
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: () => {
        throw new EngramError('INPUT_TOO_LARGE', `the request body is larger than ${MAX_BODY_BYTES} bytes`);
      },
    }),
  );
  app.get('/assets/viewer.js', (c) => {
    c.header('cache-control', 'max-age=31536000, immutable');
    return c.body(deps.assets.js, 200, { 'content-type': 'text/javascript; charset=utf-8' });
  });
  app.get('/assets/viewer.css', (c) => {
    c.header('cache-control', 'max-age=31536000, immutable');
    return c.body(deps.assets.css, 200, { 'content-type': 'text/css; charset=utf-8' });
  });
  mountMemoryApi(app, routeDeps);
  mountReviewApi(app, routeDeps);
  mountSessionApi(app, routeDeps);
  mountSystemApi(app, routeDeps);
  mountStreamApi(app, {
    store: deps.store,
    feed: deps.feed,
    ...(deps.onStreamOpen ? { onOpen: deps.onStreamOpen } : {}),
  });
  mountPages(app, routeDeps);
  app.notFound((c) =>
    c.req.path.startsWith('/api/')
      ? c.json(
          { error: { code: 'NOT_FOUND', message: `no such endpoint: ${c.req.method} ${c.req.path}` } },
          404,
        )
      : errorPage(c, 404, { code: 'NOT_FOUND', message: `There is no page at ${c.req.path}.` }),
  );
  return app;
}
