/**
 * The review API: memories held in quarantine (instruction-like text from below the user's trust),
 * and a person's decision on each — approve (it may be injected, stand and sync) or reject
 * (invalidated, restorable) — through the mutation path with origin `viewer`.
 */
import type { Hono } from 'hono';
import { EngramError } from '../../core/errors.ts';
import type { Observation } from '../../core/model.ts';
import type { RouteDeps } from './deps.ts';
import { notFound } from './http-errors.ts';
import { memoryJson } from '../memory-json.ts';
import { jsonBody, optionalString } from './request-input.ts';
import type { ViewerEnv } from './security.ts';

/** What the Review page and `GET /api/review` show: the held memories, newest change first. */
export function heldMemories(deps: RouteDeps, limit = 200): { total: number; held: Observation[] } {
  return { total: deps.store.observations.heldCount(), held: deps.store.observations.held(null, limit) };
}

export function mountReviewApi(app: Hono<ViewerEnv>, deps: RouteDeps): void {
  const { store, clock } = deps;
  const idOf = (id: string) => {
    if (!/^obs_[0-9a-z]{20}$/.test(id) || !store.observations.get(id)) throw notFound('memory', id);
    return id;
  };

  app.get('/api/review', (c) => {
    const { total, held } = heldMemories(deps);
    return c.json({ total, held: held.map(memoryJson) });
  });

  app.post('/api/memories/:id/approve', (c) => {
    const id = idOf(c.req.param('id'));
    if (!store.memory.approve(id, { origin: 'viewer', at: clock.now() }))
      throw new EngramError('INPUT_INVALID', `${id} is not quarantined`);
    return c.json({ id, review: store.observations.get(id)?.review });
  });

  app.post('/api/memories/:id/reject', async (c) => {
    const id = idOf(c.req.param('id'));
    const reason = optionalString(await jsonBody(c), 'reason', 500)?.trim() ?? '';
    if (!store.memory.reject(id, reason, { origin: 'viewer', at: clock.now() }))
      throw new EngramError('INPUT_INVALID', `${id} is not quarantined`);
    return c.json({ id, status: store.observations.get(id)?.status });
  });
}
