/**
 * /api/projects, /api/metrics, /api/health (+ retrying parked turns) and /api/config (read every key;
 * set one with validation; reset one to its default).
 */
import type { Hono } from 'hono';
import { join } from 'node:path';
import { EngramError } from '../../core/errors.ts';
import type { RouteDeps } from './deps.ts';
import type { ViewerEnv } from './security.ts';
import { status } from '../../app/health.ts';
import { metrics as metricsOf } from '../../app/metrics.ts';
import { intParam, jsonBody, queryOf } from './request-input.ts';

/** The health page's and API's report: the status verb's model, and the viewer's own process. */
export function health(deps: RouteDeps) {
  const { store, viewer } = deps;
  const live = { config: deps.config(), configIssues: deps.settings.problems(), now: deps.clock.now() };
  const report = status({ ...deps.statusDeps(live), store });
  return { ...report, viewer: { pid: viewer.pid, startedAt: viewer.startedAt, streams: viewer.streams() } };
}

/** The metrics page's and API's report over the last `days` days. */
export function metrics(deps: RouteDeps, days: number) {
  return metricsOf(
    {
      store: deps.store,
      config: deps.config(),
      prices: deps.prices(),
      pricesFile: join(deps.paths.home, 'prices.json'),
    },
    { days, now: deps.clock.now() },
  );
}

export function mountSystemApi(app: Hono<ViewerEnv>, deps: RouteDeps): void {
  const { store } = deps;
  app.get('/api/projects', (c) => c.json({ projects: store.sessions.projectStats() }));
  app.get('/api/metrics', (c) => c.json(metrics(deps, intParam(queryOf(c)['days'], 'days', 1, 366, 30))));
  app.get('/api/health', (c) => c.json(health(deps)));
  app.post('/api/health/retry', async (c) => {
    const seqs = (await jsonBody(c))['seqs'];
    if (seqs !== undefined && !(Array.isArray(seqs) && seqs.every((n) => Number.isSafeInteger(n))))
      throw new EngramError('INPUT_INVALID', 'seqs must be a list of parked event numbers (or absent: all)');
    return c.json({
      retried: store.transaction(() => store.events.retryParked(seqs as number[] | undefined)),
    });
  });
  app.get('/api/config', (c) => c.json({ settings: deps.settings.rows() }));
  app.put('/api/config/:key', async (c) => {
    const body = await jsonBody(c);
    return c.json({ setting: deps.settings.set(c.req.param('key'), body['value']) });
  });
  app.delete('/api/config/:key', (c) => c.json({ setting: deps.settings.unset(c.req.param('key')) }));
}
