/**
 * The page routes: each reads through the same models as the JSON API and renders into the layout.
 */
import type { Context, Hono } from 'hono';
import { parseMemoryFilter } from '../../../core/memory-filter.ts';
import type { RouteDeps } from '../deps.ts';
import { decodeSessionCursor, listSessions } from '../api-sessions.ts';
import { health, metrics } from '../api-system.ts';
import { notFound } from '../http-errors.ts';
import { memoryDetail } from '../memory-detail.ts';
import { showOne } from '../../../app/memory-view.ts';
import { intParam, projectParam, queryOf } from '../request-input.ts';
import type { ViewerEnv } from '../security.ts';
import { showSession } from '../../../app/session-view.ts';
import { graphPage } from './graph-page.ts';
import { healthPage } from './health-page.ts';
import { layout, type Html, type PageOptions } from './layout.ts';
import { memoryPage } from './memory-page.ts';
import { metricsPage } from './metrics-page.ts';
import { reviewPage } from './review-page.ts';
import { heldMemories } from '../../../app/review.ts';
import { projectNamesOf } from './parts.ts';
import { searchPage } from './search-page.ts';
import { sessionPage, sessionsPage } from './sessions-page.ts';
import { settingsPage } from './settings-page.ts';
import { streamPage } from './stream-page.ts';

export function mountPages(app: Hono<ViewerEnv>, deps: RouteDeps): void {
  const { store, clock } = deps;
  const render = (c: Context<ViewerEnv>, options: PageOptions, status: 200 | 404 = 200) =>
    c.html(layout(c.get('secureHeadersNonce') ?? '', deps.assets, options), status);
  const page = (c: Context<ViewerEnv>, title: string, nav: PageOptions['nav'], body: Html) =>
    render(c, { title, nav, body });

  app.get('/', (c) => page(c, 'Stream', 'stream', streamPage(deps)));

  app.get('/search', async (c) => {
    const q = queryOf(c);
    const body = await searchPage(deps, parseMemoryFilter(q), q['cursor']);
    return page(c, q['q'] ? `Search: ${q['q']}` : 'Search', 'search', body);
  });

  app.get('/memories/:id', (c) => {
    const id = c.req.param('id');
    if (!/^obs_[0-9a-z]{20}$/.test(id)) throw notFound('memory', id);
    const view = showOne(store, id);
    return render(c, {
      title: view.memory.title.slice(0, 80),
      nav: 'search',
      page: 'memory',
      body: memoryPage(memoryDetail(view), view.project?.name ?? view.memory.projectId, clock.now()),
    });
  });

  app.get('/sessions', (c) => {
    const q = queryOf(c);
    const project = projectParam(q['project']);
    const list = listSessions(store, project, 50, decodeSessionCursor(q['cursor']));
    const projects = [...projectNamesOf(store)].map(([id, name]) => ({ id, name }));
    return page(c, 'Sessions', 'sessions', sessionsPage(list, projects, project, !q['cursor'], clock.now()));
  });

  app.get('/sessions/:id', (c) => {
    const id = c.req.param('id');
    const view = showSession(store, id);
    return render(c, {
      title: `Session ${view.session.request?.slice(0, 60) ?? id}`,
      nav: 'sessions',
      page: 'session',
      body: sessionPage(view, clock.now()),
    });
  });

  app.get('/graph', (c) => page(c, 'Graph', 'graph', graphPage(deps, queryOf(c))));

  app.get('/review', (c) =>
    page(c, 'Review', 'review', reviewPage(heldMemories(store), projectNamesOf(store), clock.now())),
  );

  app.get('/metrics', (c) => {
    const days = intParam(queryOf(c)['days'], 'days', 1, 366, 30);
    return page(c, 'Metrics', 'metrics', metricsPage(metrics(deps, days), days));
  });

  app.get('/health', (c) => page(c, 'Health', 'health', healthPage(health(deps), clock.now())));

  app.get('/settings', (c) => page(c, 'Settings', 'settings', settingsPage(deps.settings.rows())));
}
