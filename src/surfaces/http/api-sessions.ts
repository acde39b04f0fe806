/**
 * /api/sessions (newest activity first, keyset pages), one session with its summary, prompts, the
 * exact context injected into it and the memories it left; and /api/recall/test: what a prompt (or a
 * new session) would be told right now — read-only, nothing is recorded as injected.
 */
import type { Hono } from 'hono';
import { EngramError } from '../../core/errors.ts';
import type { ProjectId } from '../../core/ids.ts';
import { context } from '../../app/context.ts';
import { renderPromptContext, type RenderedContext } from '../../recall/render-context.ts';
import type { SessionCursor } from '../../store/session-list-repo.ts';
import type { Store } from '../../store/store.ts';
import type { RouteDeps } from './deps.ts';
import type { ViewerEnv } from './security.ts';
import { notFound } from './http-errors.ts';
import { intParam, jsonBody, optionalString, projectParam, queryOf } from './request-input.ts';
import { injectedItems, showSession } from '../../app/session-view.ts';

/** The session id a recall test asks as: no real session, so nothing counts as already told. */
const TEST_SESSION = 'viewer:recall-test';

export function encodeSessionCursor(c: SessionCursor): string {
  return `${c.lastEventAt}.${c.id}`;
}

export function decodeSessionCursor(text: string | undefined): SessionCursor | undefined {
  if (!text) return undefined;
  const m = /^(\d{1,15})\.([\w.:-]{1,200})$/.exec(text);
  if (!m)
    throw new EngramError('INPUT_INVALID', 'that page cursor is not valid', {
      hint: 'Start from the first page.',
    });
  return { lastEventAt: Number(m[1]), id: m[2] as string };
}

/** A page of sessions and the cursor of the next one. */
export function listSessions(
  store: Store,
  projectId: ProjectId | null,
  limit: number,
  cursor?: SessionCursor,
) {
  const rows = store.sessionList.page(projectId, limit + 1, cursor);
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  return { items, next: rows.length > limit && last ? encodeSessionCursor(last) : null };
}

/** What the recall test returns: the text, and each memory with its title, score and token cost. */
function recallView(store: Store, ctx: RenderedContext) {
  return { text: ctx.text, tokens: ctx.tokens, items: injectedItems(store, ctx.items) };
}

export function mountSessionApi(app: Hono<ViewerEnv>, deps: RouteDeps): void {
  const { store, clock } = deps;

  app.get('/api/sessions', (c) => {
    const q = queryOf(c);
    return c.json(
      listSessions(
        store,
        projectParam(q['project']),
        intParam(q['limit'], 'limit', 1, 200, 50),
        decodeSessionCursor(q['cursor']),
      ),
    );
  });

  app.get('/api/sessions/:id', (c) => {
    return c.json(showSession(store, c.req.param('id')));
  });

  app.post('/api/recall/test', async (c) => {
    const body = await jsonBody(c);
    const projectId = projectParam(optionalString(body, 'project', 40));
    if (!projectId) throw new EngramError('INPUT_INVALID', 'name the project: {"project": "prj_…"}');
    const prompt = optionalString(body, 'prompt', 20_000);
    const config = deps.config();
    const now = clock.now();
    if (prompt === undefined || prompt.trim() === '') {
      const project = store.sessions.project(projectId);
      if (!project) throw notFound('project', projectId);
      const told = context(store, config, { project, sessionId: TEST_SESSION, source: 'startup', now });
      return c.json({ hook: 'SessionStart', ...recallView(store, told) });
    }
    const ctx = renderPromptContext(store, {
      projectId,
      sessionId: TEST_SESSION,
      prompt,
      now,
      budgetTokens: config['context.promptTokens'],
      maxItems: config['context.promptMaxItems'],
      minScore: config['context.promptMinScore'],
    });
    return c.json({ hook: 'UserPromptSubmit', ...recallView(store, ctx) });
  });
}
