/**
 * The viewer's edges refuse what they do not understand, with a 4xx that says why: unknown filter
 * keys (a bulk forget never means "everything" by mistake), bodies past the size limit, JSON nested
 * past the depth limit.
 */
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { insertMemory } from '../../store/store.test-support.ts';
import { createTestViewer, ORIGIN, type TestViewer } from './viewer.test-support.ts';

type Json = Record<string, unknown>;

describe('the viewer refuses what it does not understand', () => {
  let v: TestViewer;
  let ids: string[];
  beforeEach(async () => {
    v = await createTestViewer();
    ids = ['Build with esbuild', 'Tests run with vitest', 'Open task: fix login'].map((title, i) =>
      insertMemory(v.store, {
        projectId: v.project.id,
        title,
        draft: { type: i === 2 ? 'task' : 'decision' },
      }),
    );
  });
  afterEach(() => v.close());

  /** A raw body, as a script (not the viewer's page) might send it. */
  const raw = (path: string, body: string, method = 'POST') =>
    v.app.request(`${ORIGIN}${path}`, {
      method,
      headers: { cookie: v.cookie, origin: ORIGIN, 'content-type': 'application/json' },
      body,
    });
  const active = () => ids.filter((id) => v.store.observations.get(id)?.status === 'active');

  it('a bulk forget with an unknown filter key is a 400 naming it, never every memory', async () => {
    const dry = await v.request('/api/memories/forget', { body: { filter: { typo: 'task' }, dryRun: true } });
    expect(dry.status).toBe(400);
    expect(await dry.json()).toMatchObject({
      error: { code: 'INPUT_INVALID', message: expect.stringContaining('"typo"') },
    });
    const confirm = await v.request('/api/memories/forget', {
      body: { filter: { typo: 'task' }, expectCount: 3 },
    });
    expect(confirm.status).toBe(400);
    // A filter value that is not text is refused too (it was silently dropped: "everything").
    const list = await v.request('/api/memories/forget', {
      body: { filter: { type: ['task'] }, dryRun: true },
    });
    expect(list.status).toBe(400);
    expect(active()).toEqual(ids);
    // The known keys still work.
    const tasks = await v.request('/api/memories/forget', {
      body: { filter: { type: 'task' }, dryRun: true },
    });
    expect(await tasks.json()).toMatchObject({ dryRun: true, count: 1 });
  });

  it('a body past the size limit is a 413 with the JSON error shape', async () => {
    const huge = JSON.stringify({ title: 'x'.repeat(50 * 1024 * 1024) });
    const r = await raw(`/api/memories/${ids[0]}`, huge, 'PATCH');
    expect(r.status).toBe(413);
    expect(await r.json()).toMatchObject({ error: { code: 'INPUT_TOO_LARGE' } });
    expect(v.store.observations.get(ids[0] as string)?.title).toBe('Build with esbuild');
  });

  it('JSON nested past the depth limit is a 400, on every endpoint that reads a body', async () => {
    const deep = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
    const bodies = [
      ['/api/memories/forget', `{"filter":{"type":"task"},"dryRun":true,"x":${deep(200_000)}}`, 'POST'],
      [`/api/memories/${ids[0]}`, `{"title":"t","facts":${deep(100_000)}}`, 'PATCH'],
      [`/api/memories/${ids[0]}/invalidate`, `{"reason":${deep(100_000)}}`, 'POST'],
      ['/api/recall/test', `{"prompt":${deep(100_000)}}`, 'POST'],
    ] as const;
    for (const [path, body, method] of bodies) {
      const r = await raw(path, body, method);
      expect(r.status, path).toBe(400);
      expect(((await r.json()) as { error: Json }).error, path).toMatchObject({
        code: 'INPUT_INVALID',
        message: expect.stringMatching(/nested/),
      });
    }
    // Ordinary nesting is fine.
    const ok = await raw('/api/memories/forget', '{"filter":{"type":"task"},"dryRun":true}');
    expect(ok.status).toBe(200);
  });

  it('a busy database is a 503 that says to try again, not a 500', async () => {
    // Another process holds the write lock; the viewer's write waits a moment, then gives up.
    v.store.db.pragma('busy_timeout = 20');
    const other = new Database(v.paths.db);
    other.exec('BEGIN IMMEDIATE');
    try {
      const r = await v.request(`/api/memories/${ids[0]}`, { method: 'PATCH', body: { title: 'Renamed' } });
      expect(r.status).toBe(503);
      expect(((await r.json()) as { error: Json }).error).toMatchObject({
        code: 'STORE_BUSY',
        hint: expect.stringMatching(/try again/),
      });
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    expect(v.store.observations.get(ids[0] as string)?.title).toBe('Build with esbuild');
  });
});
