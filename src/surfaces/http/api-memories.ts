/**
 * /api/memories: list (filters, keyset pages), count (the bulk forget's dry run), search (score parts),
 * timeline, export (JSON or markdown, streamed), one memory with its history and where it was
 * injected; and the corrections: edit, pin, invalidate, archive, restore, forget (with an undo window)
 * and bulk forget by filter. Every write goes through the store's mutation path with origin `viewer`.
 */
import type { Context, Hono } from 'hono';
import type { Observation } from '../../core/model.ts';
import { stream } from 'hono/streaming';
import { EngramError } from '../../core/errors.ts';
import type { ProjectId } from '../../core/ids.ts';
import { LIST_FILTER_KEYS, parseMemoryFilter, type MemoryFilter } from '../../core/memory-filter.ts';
import type { MutationContext } from '../../store/memory-writer.ts';
import {
  archive,
  edit,
  EDITABLE_FIELDS,
  invalidate,
  pinOne,
  restore,
  type MemoryPatch,
} from '../../app/corrections.ts';
import { history } from '../../app/history.ts';
import { remember } from '../../app/remember.ts';
import { memoryOf } from '../../app/scope.ts';
import { search } from '../../app/search.ts';
import { timeline } from '../../app/timeline.ts';
import type { RouteDeps } from './deps.ts';
import type { ViewerEnv } from './security.ts';
import { MAX_FORGET } from '../../app/forgetting.ts';
import { memoryDetail } from './memory-detail.ts';
import { showOne } from '../../app/memory-view.ts';
import { exportMarkdown } from './memory-export.ts';
import { memoryJson } from '../memory-json.ts';
import { decodeCursor, listMemories } from '../../app/memory-list.ts';
import {
  intParam,
  jsonBody,
  optionalString,
  optionalStrings,
  optionalBoolean,
  projectParam,
  queryOf,
  requiredBoolean,
} from './request-input.ts';

const ID = /^obs_[0-9a-z]{20}$/;

function idOf(c: Context): string {
  const id = c.req.param('id') ?? '';
  if (!ID.test(id))
    throw new EngramError('INPUT_INVALID', `"${id}" is not a memory id`, { hint: 'Ids look like obs_…' });
  return id;
}

/** The fields of an edit, each read as its kind (the edit verb checks the rest). */
function editPatch(body: Record<string, unknown>): MemoryPatch {
  const patch: Record<string, unknown> = {};
  for (const key of EDITABLE_FIELDS) {
    const list = key === 'facts' || key === 'concepts' || key === 'filesRead' || key === 'filesModified';
    const v = list
      ? optionalStrings(body, key)
      : optionalString(body, key, key === 'narrative' ? 100_000 : key === 'type' ? 40 : 2000);
    if (v !== undefined) patch[key] = v;
  }
  return patch as MemoryPatch;
}

/** A bulk forget's filter: the list filters only (a search ranks; a forget needs an exact set). */
function bulkFilter(body: Record<string, unknown>): MemoryFilter {
  const raw = body['filter'];
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
    throw new EngramError('INPUT_INVALID', 'filter must be an object of list filters', {
      hint: 'e.g. {"filter": {"project": "prj_…", "type": "task", "to": "2026-01-31"}}',
    });
  // A key or value it does not understand is refused: dropping it would widen the set to forget.
  const params: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw)) {
    if (k === 'q')
      throw new EngramError('INPUT_INVALID', 'a bulk forget takes list filters, not search words', {
        hint: `Use ${LIST_FILTER_KEYS.join(', ')}.`,
      });
    if (!(LIST_FILTER_KEYS as readonly string[]).includes(k))
      throw new EngramError('INPUT_INVALID', `unknown filter "${k}"`, {
        hint: `A bulk forget's filter takes ${LIST_FILTER_KEYS.join(', ')}.`,
      });
    if (typeof v !== 'string')
      throw new EngramError('INPUT_INVALID', `filter "${k}" must be text`, {
        hint: 'Lists are comma-separated: {"type": "task,change"}.',
      });
    params[k] = v;
  }
  return parseMemoryFilter(params);
}

export function mountMemoryApi(app: Hono<ViewerEnv>, deps: RouteDeps): void {
  const { store, clock, forgetting } = deps;
  const ctx = (): MutationContext => ({ origin: 'viewer', at: clock.now() });
  const answer = (r: { memory: Observation }) => ({ memory: memoryJson(r.memory) });

  app.post('/api/memories', async (c) => {
    const body = await jsonBody(c);
    const id = projectParam(optionalString(body, 'project', 40));
    const project = id ? store.sessions.project(id) : null;
    if (!project)
      throw new EngramError(
        'INPUT_INVALID',
        'name a project engram knows: {"project": "prj_…", "title": "…"}',
        {
          hint: 'GET /api/projects lists them.',
        },
      );
    const r = remember(
      store,
      {
        project,
        cwd: project.root,
        title: optionalString(body, 'title', 2000) ?? '',
        narrative: optionalString(body, 'narrative'),
        type: optionalString(body, 'type', 40),
        facts: optionalStrings(body, 'facts'),
        files: optionalStrings(body, 'files'),
        standing: optionalBoolean(body, 'standing'),
      },
      ctx(),
    );
    return c.json({ ...r, memory: r.memory ? memoryJson(r.memory) : null });
  });

  app.get('/api/memories', (c) => {
    const q = queryOf(c);
    const page = listMemories(store, parseMemoryFilter(q), {
      cursor: decodeCursor(q['cursor']),
      limit: intParam(q['limit'], 'limit', 1, 500, 50),
    });
    const stale = store.anchors.staleOf(page.items.map((o) => o.id));
    return c.json({
      ...page,
      items: page.items.map((o) => ({ ...memoryJson(o), stale: stale.get(o.id) ?? null })),
    });
  });

  app.get('/api/memories/count', (c) => {
    const filter = parseMemoryFilter(queryOf(c));
    const count = store.memoryList.count(filter, MAX_FORGET);
    return c.json({ count: Math.min(count, MAX_FORGET), capped: count > MAX_FORGET, max: MAX_FORGET });
  });

  app.get('/api/memories/search', async (c) => {
    const q = queryOf(c);
    const filter = parseMemoryFilter(q);
    if (!filter.query) throw new EngramError('INPUT_INVALID', 'search needs words: ?q=…');
    const result = await search(
      { store, embedder: deps.embedder, queryTimeoutMs: deps.config()['embed.queryTimeoutMs'] },
      {
        query: filter.query,
        projectId: filter.projectId ?? null,
        limit: intParam(q['limit'], 'limit', 1, 200, 20),
        now: clock.now(),
        filter,
      },
    );
    return c.json({
      query: filter.query,
      mode: result.mode,
      vectorError: result.vectorError,
      hits: result.hits.map((h) => ({ memory: memoryJson(h.memory), ...h.parts, project: h.project })),
    });
  });

  app.get('/api/memories/timeline', (c) => {
    const q = queryOf(c);
    const id = q['id'];
    const project = projectParam(q['project']);
    if (!id && !project) throw new EngramError('INPUT_INVALID', 'give a memory id, or a project and a date');
    const t = timeline(store, {
      ...(id ? { id } : { date: q['date'] ?? new Date(clock.now()).toISOString() }),
      projectId: project ?? ('' as ProjectId),
      before: intParam(q['before'], 'before', 0, 50, 5),
      after: intParam(q['after'], 'after', 0, 50, 5),
    });
    return c.json({ ...t, items: t.items.map(memoryJson) });
  });

  app.get('/api/memories/export', (c) => {
    const q = queryOf(c);
    const filter = parseMemoryFilter(q);
    const format = q['format'] ?? 'json';
    if (format !== 'json' && format !== 'markdown')
      throw new EngramError('INPUT_INVALID', 'format is json or markdown');
    const day = new Date(clock.now()).toISOString().slice(0, 10);
    c.header(
      'content-type',
      format === 'json' ? 'application/json; charset=utf-8' : 'text/markdown; charset=utf-8',
    );
    c.header(
      'content-disposition',
      `attachment; filename="engram-memories-${day}.${format === 'json' ? 'json' : 'md'}"`,
    );
    return stream(c, async (out) => {
      let cursor;
      let first = true;
      await out.write(format === 'json' ? '{"memories":[\n' : `# engram memories (exported ${day})\n`);
      for (;;) {
        const page = listMemories(store, filter, { cursor, limit: 500, count: false });
        for (const o of page.items) {
          await out.write(
            format === 'json' ? `${first ? '' : ',\n'}${JSON.stringify(memoryJson(o))}` : exportMarkdown(o),
          );
          first = false;
        }
        if (!page.next) break;
        cursor = decodeCursor(page.next);
      }
      if (format === 'json') await out.write('\n]}\n');
    });
  });

  app.get('/api/memories/:id', (c) => c.json(memoryDetail(showOne(store, idOf(c)))));

  app.get('/api/memories/:id/history', (c) => {
    const h = history(store, idOf(c));
    return c.json({ ...h, current: memoryJson(h.current) });
  });

  app.patch('/api/memories/:id', async (c) =>
    c.json(answer(edit(store, idOf(c), editPatch(await jsonBody(c)), ctx()))),
  );

  app.post('/api/memories/:id/pin', async (c) => {
    const id = idOf(c);
    return c.json(answer(pinOne(store, id, requiredBoolean(await jsonBody(c), 'pinned'), ctx())));
  });

  app.post('/api/memories/:id/invalidate', async (c) => {
    const reason = optionalString(await jsonBody(c), 'reason', 500) ?? '';
    return c.json(answer(invalidate(store, idOf(c), reason, ctx())));
  });

  app.post('/api/memories/:id/archive', async (c) => {
    const reason = optionalString(await jsonBody(c), 'reason', 500);
    return c.json(answer(archive(store, idOf(c), reason, ctx())));
  });

  app.post('/api/memories/:id/restore', (c) => c.json(answer(restore(store, idOf(c), ctx()))));

  app.post('/api/memories/:id/forget', (c) => {
    const id = idOf(c);
    memoryOf(store, id);
    return c.json(forgetting.request([id]));
  });

  app.post('/api/memories/forget', async (c) => {
    const body = await jsonBody(c);
    const filter = bulkFilter(body);
    const count = store.memoryList.count(filter, MAX_FORGET);
    if (body['dryRun'] === true)
      return c.json({ dryRun: true, count: Math.min(count, MAX_FORGET), capped: count > MAX_FORGET });
    if (count > MAX_FORGET)
      throw new EngramError('INPUT_INVALID', `more than ${MAX_FORGET} memories match`, {
        hint: 'Narrow the filter.',
      });
    if (body['expectCount'] !== count)
      throw new EngramError(
        'INPUT_INVALID',
        `the filter now matches ${count} memories, not ${String(body['expectCount'])}`,
        {
          hint: 'Run the dry run again ({"dryRun": true}) and confirm the new count.',
        },
      );
    const ids = store.memoryList.page(filter, MAX_FORGET).map((k) => k.id);
    return c.json(forgetting.request(ids));
  });

  app.post('/api/forgets/:batch/undo', (c) => {
    const batch = c.req.param('batch');
    if (!/^fgt_[0-9a-f]{16}$/.test(batch))
      throw new EngramError('INPUT_INVALID', 'that is not a forget request id');
    return c.json(forgetting.undo(batch));
  });
}
