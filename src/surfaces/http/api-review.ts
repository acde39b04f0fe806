/**
 * The review API: memories held in quarantine (instruction-like text from below the user's trust),
 * and a person's decision on each — approve (it may be injected, stand and sync) or reject
 * (invalidated, restorable) — through the mutation path with origin `viewer`.
 */
import type { Hono } from 'hono';
import { decideOne, heldMemories } from '../../app/review.ts';
import { EngramError } from '../../core/errors.ts';
import type { RouteDeps } from './deps.ts';
import { memoryJson } from '../memory-json.ts';
import { jsonBody, optionalString } from './request-input.ts';
import type { ViewerEnv } from './security.ts';

export function mountReviewApi(app: Hono<ViewerEnv>, deps: RouteDeps): void {
  const { store, clock } = deps;
  const ctx = () => ({ origin: 'viewer' as const, at: clock.now() });
  const idOf = (id: string) => {
    if (!/^obs_[0-9a-z]{20}$/.test(id))
      throw new EngramError('INPUT_INVALID', `"${id}" is not a memory id`, { hint: 'Ids look like obs_…' });
    return id;
  };

  app.get('/api/review', (c) => {
    const { total, held } = heldMemories(store);
    return c.json({ total, held: held.map(memoryJson) });
  });

  app.post('/api/memories/:id/approve', (c) => {
    const id = idOf(c.req.param('id'));
    return c.json({ id, review: decideOne(store, 'approve', id, '', ctx()).review });
  });

  app.post('/api/memories/:id/reject', async (c) => {
    const id = idOf(c.req.param('id'));
    const reason = optionalString(await jsonBody(c), 'reason', 500)?.trim() ?? '';
    return c.json({ id, status: decideOne(store, 'reject', id, reason, ctx()).status });
  });
}
