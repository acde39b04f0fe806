import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { insertMemory } from '../../store/store.test-support.ts';
import { createTestViewer, type TestViewer } from './viewer.test-support.ts';

type Json = Record<string, unknown>;
const json = async (r: Response) => (await r.json()) as Json;

describe('/api/memories', () => {
  let v: TestViewer;
  beforeEach(async () => {
    v = await createTestViewer();
  });
  afterEach(() => v.close());

  const seed = (n: number) =>
    Array.from({ length: n }, (_, i) =>
      insertMemory(v.store, {
        projectId: v.project.id,
        title: `memory number ${i} about ${i % 2 === 0 ? 'parsing tokens' : 'the login form'}`,
        sessionId: 'session-1',
        createdAt: v.clock.now() - (n - i) * 60_000,
        source: i % 3 === 0 ? 'transcript' : 'hook',
        draft: { type: i % 4 === 0 ? 'decision' : 'change', narrative: `narrative ${i}` },
      }),
    );

  it('lists newest first in keyset pages with filters in the query, and counts the total', async () => {
    const ids = seed(12);
    const first = await json(await v.request('/api/memories?limit=5'));
    expect((first['items'] as Json[]).map((m) => m['id'])).toEqual(ids.slice(-5).reverse());
    expect(first).toMatchObject({ total: 12, capped: false });
    const second = await json(await v.request(`/api/memories?limit=5&cursor=${String(first['next'])}`));
    expect((second['items'] as Json[]).map((m) => m['id'])).toEqual(ids.slice(2, 7).reverse());
    const decisions = await json(
      await v.request(`/api/memories?type=decision&source=transcript&project=${v.project.id}`),
    );
    expect((decisions['items'] as Json[]).map((m) => m['id'])).toEqual([ids[0]]);
    expect(decisions['total']).toBe(1);
    const bad = await v.request('/api/memories?type=nonsense');
    expect(bad.status).toBe(400);
    expect(await json(bad)).toMatchObject({ error: { code: 'INPUT_INVALID' } });
    expect((await v.request('/api/memories?cursor=zzz')).status).toBe(400);
  });

  it('searches with filters and says why each hit ranks where it does', async () => {
    seed(8);
    const r = await json(await v.request('/api/memories/search?q=login+form&type=change'));
    const hits = r['hits'] as Json[];
    expect(hits.length).toBeGreaterThan(0);
    for (const h of hits) {
      expect((h['memory'] as Json)['type']).toBe('change');
      const parts = ['relevance', 'recency', 'typeWeight', 'statusWeight'].map((k) => h[k] as number);
      expect(h['score'] as number).toBeCloseTo(
        parts.reduce((a, b) => a * b, 1),
        6,
      );
      // Session neighbours of strong matches come in by context; the matches hold the words.
      if (h['via'] === 'lexical') {
        expect((h['memory'] as Json)['title']).toMatch(/login form/);
        expect(h['coverage']).toBe(1);
      }
    }
    expect(hits[0]).toMatchObject({ via: 'lexical' });
    expect((await v.request('/api/memories/search')).status).toBe(400);
  });

  it('shows one memory with its history; edits, pins, invalidates, archives and restores it (origin viewer)', async () => {
    const [id] = seed(1) as [string];
    const edited = await json(
      await v.request(`/api/memories/${id}`, {
        method: 'PATCH',
        body: { title: 'A better title', facts: ['one fact'] },
      }),
    );
    expect(edited['memory']).toMatchObject({ id, title: 'A better title', facts: ['one fact'], version: 2 });
    expect((await v.request(`/api/memories/${id}`, { method: 'PATCH', body: { type: 'nope' } })).status).toBe(
      400,
    );
    expect((await v.request(`/api/memories/${id}`, { method: 'PATCH', body: {} })).status).toBe(400);
    await v.request(`/api/memories/${id}/pin`, { body: { pinned: true } });
    expect((await v.request(`/api/memories/${id}/invalidate`, { body: {} })).status).toBe(400);
    await v.request(`/api/memories/${id}/invalidate`, { body: { reason: 'it was wrong' } });
    expect(v.store.observations.get(id)).toMatchObject({
      status: 'invalidated',
      statusReason: 'it was wrong',
      pinned: true,
    });
    const restored = await json(await v.request(`/api/memories/${id}/restore`, { body: {} }));
    expect(restored['memory']).toMatchObject({ status: 'active' });
    await v.request(`/api/memories/${id}/archive`, { body: {} });
    expect(v.store.observations.get(id)?.status).toBe('archived');

    const detail = await json(await v.request(`/api/memories/${id}`));
    expect((detail['changes'] as Json[]).map((c) => [c['op'], c['origin']])).toEqual([
      ['create', 'cli'],
      ['edit', 'viewer'],
      ['pin', 'viewer'],
      ['invalidate', 'viewer'],
      ['restore', 'viewer'],
      ['archive', 'viewer'],
    ]);
    expect((detail['versions'] as Json[]).length).toBe(5);
    const history = await json(await v.request(`/api/memories/${id}/history`));
    expect((history['versions'] as Json[])[0]).toMatchObject({ version: 5, replacedByOp: 'archive' });
    expect((await v.request('/api/memories/obs_00000000000000000000')).status).toBe(404);
    expect((await v.request('/api/memories/not-an-id')).status).toBe(400);
  });

  it('forgets with an undo window: hidden at once, restored by undo, erased once due', async () => {
    const [keep, drop] = seed(2) as [string, string];
    const first = await json(await v.request(`/api/memories/${keep}/forget`, { body: {} }));
    expect(v.store.observations.get(keep)?.status).toBe('archived');
    expect(first['dueAt']).toBe(v.clock.now() + 10_000);
    const undone = await json(await v.request(`/api/forgets/${String(first['batch'])}/undo`, { body: {} }));
    expect(undone).toEqual({ restored: 1 });
    expect(v.store.observations.get(keep)?.status).toBe('active');
    expect((await v.request(`/api/forgets/${String(first['batch'])}/undo`, { body: {} })).status).toBe(404);

    const second = await json(await v.request(`/api/memories/${drop}/forget`, { body: {} }));
    const detail = await json(await v.request(`/api/memories/${drop}`));
    expect(detail['pendingForget']).toEqual({ batch: second['batch'], dueAt: second['dueAt'] });
    expect(v.forgetting.sweep()).toBe(0); // not due yet
    v.clock.set(Number(second['dueAt']));
    expect(v.forgetting.sweep()).toBe(1);
    expect(v.store.observations.get(drop)).toMatchObject({
      status: 'forgotten',
      title: '[forgotten]',
      narrative: '',
    });
    expect(v.store.changes.ofEntity(drop).at(-1)).toMatchObject({ op: 'forget', origin: 'viewer' });

    // Restoring a memory by other means during its window cancels its forget.
    const third = await json(await v.request(`/api/memories/${keep}/forget`, { body: {} }));
    await v.request(`/api/memories/${keep}/restore`, { body: {} });
    v.clock.set(Number(third['dueAt']));
    expect(v.forgetting.sweep()).toBe(0);
    expect(v.store.observations.get(keep)?.status).toBe('active');
  });

  it('bulk-forgets by filter after a dry-run count, and refuses when the count moved', async () => {
    seed(9); // decisions: 0, 4, 8
    const filter = { type: 'decision' };
    const dry = await json(await v.request('/api/memories/forget', { body: { filter, dryRun: true } }));
    expect(dry).toMatchObject({ dryRun: true, count: 3 });
    expect(v.store.memoryList.count({ types: ['decision'] }, 100)).toBe(3);
    const stale = await v.request('/api/memories/forget', { body: { filter, expectCount: 2 } });
    expect(stale.status).toBe(400);
    expect((await v.request('/api/memories/forget', { body: { filter: { q: 'parsing' } } })).status).toBe(
      400,
    );
    const done = await json(await v.request('/api/memories/forget', { body: { filter, expectCount: 3 } }));
    expect(done['count']).toBe(3);
    expect(v.store.memoryList.count({ types: ['decision'] }, 100)).toBe(0);
    expect(v.store.memoryList.count({ types: ['decision'], statuses: ['archived'] }, 100)).toBe(3);
    await v.request(`/api/forgets/${String(done['batch'])}/undo`, { body: {} });
    expect(v.store.memoryList.count({ types: ['decision'] }, 100)).toBe(3);
  });

  it('shows the memories around one, and a page for what does not exist', async () => {
    const ids = seed(7);
    const t = await json(await v.request(`/api/memories/timeline?id=${ids[3]}&before=1&after=2`));
    expect((t['items'] as Json[]).map((m) => m['id'])).toEqual(ids.slice(2, 6));
    expect(t['anchorId']).toBe(ids[3]);
    expect((await v.request('/api/memories/timeline?project=nope')).status).toBe(400);
    const page = await v.request('/memories/obs_00000000000000000000');
    expect(page.status).toBe(404);
    const html = await page.text();
    expect(html).toContain('<h1>Not found</h1>');
    expect(html).toContain('no memory with id obs_00000000000000000000');
    expect((await v.request('/no/such/page')).status).toBe(404);
  });

  it('exports the filter’s memories as JSON and as markdown', async () => {
    const ids = seed(3);
    const r = await v.request('/api/memories/export?format=json');
    expect(r.headers.get('content-disposition')).toMatch(
      /attachment; filename="engram-memories-\d{4}-\d{2}-\d{2}\.json"/,
    );
    const exported = JSON.parse(await r.text()) as { memories: Json[] };
    expect(exported.memories.map((m) => m['id'])).toEqual([...ids].reverse());
    const md = await (await v.request('/api/memories/export?format=markdown&type=decision')).text();
    expect(md).toContain('## memory number 0 about parsing tokens');
    expect(md).not.toContain('memory number 1');
    expect((await v.request('/api/memories/export?format=pdf')).status).toBe(400);
  });
});

describe('/api/memories and the memory graph', () => {
  let v: TestViewer;
  beforeEach(async () => {
    v = await createTestViewer();
  });
  afterEach(() => v.close());

  it('filters, marks and explains stale memories, and shows links and backlinks', async () => {
    const at = v.clock.now();
    const fresh = insertMemory(v.store, {
      projectId: v.project.id,
      title: 'parse the retry header',
      createdAt: at,
    });
    const old = insertMemory(v.store, {
      projectId: v.project.id,
      title: 'parse the retry header twice',
      createdAt: at - 1,
    });
    // The code under `old` changed: its anchor is stale.
    v.store.anchors.add(
      old,
      v.project.id,
      { path: 'src/retry.ts', blobHash: 'a'.repeat(40), size: 10, scope: { kind: 'file' }, partHash: 'p' },
      null,
      at,
    );
    const [anchor] = v.store.anchors.ofMemory(old);
    v.store.anchors.markStale(anchor?.rowid as number, at, 'src/retry.ts changed', at);

    const staleOnly = await json(await v.request('/api/memories?stale=yes'));
    expect((staleOnly['items'] as Json[]).map((m) => [m['id'], (m['stale'] as Json)['reason']])).toEqual([
      [old, 'src/retry.ts changed'],
    ]);
    const current = await json(await v.request('/api/memories?stale=no'));
    expect((current['items'] as Json[]).map((m) => m['id'])).toEqual([fresh]);
    const hits = (await json(await v.request('/api/memories/search?q=parse+retry+header')))['hits'] as Json[];
    const staleHit = hits.find((h) => (h['memory'] as Json)['id'] === old) as Json;
    expect(staleHit['staleWeight']).toBeLessThan(1);
    const parts = ['relevance', 'recency', 'typeWeight', 'statusWeight', 'staleWeight'].map(
      (k) => staleHit[k] as number,
    );
    expect(staleHit['score'] as number).toBeCloseTo(
      parts.reduce((a, b) => a * b, 1),
      6,
    );
    expect((await v.request('/api/memories?stale=maybe')).status).toBe(400);

    v.store.memory.link(fresh, 'related', old, v.project.id, { origin: 'cli', at });
    const detail = await json(await v.request(`/api/memories/${old}`));
    expect(detail['stale']).toMatchObject({ reason: 'src/retry.ts changed' });
    expect(detail['backlinks']).toEqual([
      {
        kind: 'related',
        node: expect.objectContaining({ id: fresh, kind: 'memory', label: 'parse the retry header' }),
      },
    ]);
    const page = await (await v.request(`/graph?id=${fresh}`)).text();
    expect(page).toContain('related →');
    expect(page).toContain('parse the retry header twice');
    expect(page).toMatch(/class="node memory stale"/);
    expect(await (await v.request(`/memories/${old}`)).text()).toMatch(
      /Stale since .*src\/retry\.ts changed/s,
    );
  });
});
