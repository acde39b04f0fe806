import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appendEvent, insertMemory, TEST_CHANGE } from '../../store/store.test-support.ts';
import { STREAM_BACKLOG } from './api-stream.ts';
import { createTestViewer, ORIGIN, type TestViewer } from './viewer.test-support.ts';

type Json = Record<string, unknown>;
const json = async (r: Response) => (await r.json()) as Json;

/** Read server-sent events from a response until `enough` says stop; then close the stream. */
async function readEvents(
  response: Response,
  enough: (events: { id?: string; event?: string; data: string }[]) => boolean,
  onEvent: (e: { event?: string }) => void = () => undefined,
): Promise<{ id?: string; event?: string; data: string }[]> {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  const events: { id?: string; event?: string; data: string }[] = [];
  let buffer = '';
  while (!enough(events)) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) !== -1) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const e: { id?: string; event?: string; data: string } = { data: '' };
      for (const line of block.split('\n')) {
        const [field, ...rest] = line.split(': ');
        const value = rest.join(': ');
        if (field === 'id') e.id = value;
        else if (field === 'event') e.event = value;
        else if (field === 'data') e.data += value;
      }
      if (e.event) {
        events.push(e);
        onEvent(e);
      }
    }
  }
  await reader.cancel();
  return events;
}

describe('the viewer’s system API and live stream', () => {
  let v: TestViewer;
  beforeEach(async () => {
    v = await createTestViewer({ env: { ENGRAM_LOG_LEVEL: 'warn' } });
  });
  afterEach(() => v.close());

  it('reads every config key with its source, saves a valid value and refuses an invalid one', async () => {
    const all = await json(await v.request('/api/config'));
    const rows = all['settings'] as Json[];
    expect(rows.find((r) => r['key'] === 'log.level')).toMatchObject({ value: 'warn', source: 'env' });
    expect(
      rows.every((r) => typeof r['description'] === 'string' && (r['description'] as string).length > 10),
    ).toBe(true);
    const saved = await json(
      await v.request('/api/config/context.promptMaxItems', { method: 'PUT', body: { value: '5' } }),
    );
    expect(saved['setting']).toMatchObject({ key: 'context.promptMaxItems', value: 5, source: 'file' });
    expect(JSON.parse(readFileSync(v.paths.config, 'utf8'))).toEqual({ context: { promptMaxItems: 5 } });
    const tooBig = await v.request('/api/config/context.promptMaxItems', {
      method: 'PUT',
      body: { value: '500' },
    });
    expect(tooBig.status).toBe(400);
    expect(await json(tooBig)).toMatchObject({
      error: { code: 'CONFIG_INVALID', message: expect.stringContaining('at most 20') },
    });
    expect((await v.request('/api/config/no.such', { method: 'PUT', body: { value: '1' } })).status).toBe(
      404,
    );
    const reset = await json(await v.request('/api/config/context.promptMaxItems', { method: 'DELETE' }));
    expect(reset['setting']).toMatchObject({ value: 3, source: 'default' });
  });

  it('reports health with parked turns, and retries them', async () => {
    const seq = appendEvent(
      v.store,
      v.project,
      'session-1',
      { kind: 'stop', lastMessage: 'done' },
      v.clock.now(),
    ) as number;
    v.store.transaction(() => v.store.events.park([seq], 'distiller exploded'));
    const h = await json(await v.request('/api/health'));
    expect(h['queue']).toMatchObject({ parked: 1 });
    expect((h['parked'] as Json[])[0]).toMatchObject({ seq, error: 'distiller exploded' });
    expect(await json(await v.request('/api/health/retry', { body: {} }))).toEqual({ retried: 1 });
    expect((await json(await v.request('/api/health')))['queue']).toMatchObject({ parked: 0, pending: 1 });
  });

  it('counts memories per day and by type for the metrics, from what was recorded', async () => {
    const day = 86_400_000;
    insertMemory(v.store, {
      projectId: v.project.id,
      title: 'today',
      createdAt: v.clock.now(),
      draft: { type: 'decision' },
    });
    insertMemory(v.store, {
      projectId: v.project.id,
      title: 'yesterday',
      createdAt: v.clock.now() - day,
      source: 'transcript',
    });
    insertMemory(v.store, {
      projectId: v.project.id,
      title: 'long ago',
      createdAt: v.clock.now() - 90 * day,
    });
    const m = await json(await v.request('/api/metrics?days=7'));
    expect(m['days']).toHaveLength(7);
    expect(m['memoriesPerDay']).toEqual([
      { day: '2026-11-19', key: 'transcript', count: 1 },
      { day: '2026-11-20', key: 'manual', count: 1 },
    ]);
    expect(m['memoriesByType']).toEqual(
      expect.arrayContaining([{ type: 'decision', status: 'active', count: 1 }]),
    );
    expect((await v.request('/api/metrics?days=0')).status).toBe(400);
  });

  it('streams the change log live with event ids, resumes from Last-Event-ID and caps the backlog', async () => {
    const before = v.store.changes.lastSeq();
    const live = await v.request('/api/stream');
    expect(live.headers.get('content-type')).toMatch(/text\/event-stream/);
    // Written once the stream is open (as the worker would, committed in another transaction).
    const events = await readEvents(
      live,
      (es) => es.some((e) => e.event === 'change'),
      (e) => {
        if (e.event === 'hello')
          insertMemory(v.store, { projectId: v.project.id, title: 'distilled just now' });
      },
    );
    expect(events[0]?.event).toBe('hello');
    const change = events.find((e) => e.event === 'change');
    expect(Number(change?.id)).toBe(before + 1);
    expect(JSON.parse(change?.data ?? '{}')).toMatchObject({
      op: 'create',
      origin: 'cli',
      memory: { title: 'distilled just now' },
    });

    // Missed two changes: the backlog brings them, in order, with their ids.
    const last = v.store.changes.lastSeq();
    const a = insertMemory(v.store, { projectId: v.project.id, title: 'missed one' });
    v.store.memory.pin(a, true, TEST_CHANGE);
    const resumed = await v.app.request(`${ORIGIN}/api/stream`, {
      headers: { cookie: v.cookie, 'last-event-id': String(last) },
    });
    const backlog = await readEvents(resumed, (es) => es.filter((e) => e.event === 'change').length >= 2);
    expect(
      backlog.filter((e) => e.event === 'change').map((e) => [Number(e.id), JSON.parse(e.data).op]),
    ).toEqual([
      [last + 1, 'create'],
      [last + 2, 'pin'],
    ]);

    // Edges added together are one row of the log: each goes out, under that row's id.
    const edges = v.store.changes.lastSeq();
    v.store.memory.linkAll(
      a,
      [
        ['touches', 'fil_00000000000000000001'],
        ['touches', 'fil_00000000000000000002'],
      ],
      v.project.id,
      { origin: 'hook', at: 3 },
    );
    v.store.memory.pin(a, false, TEST_CHANGE);
    const withEdges = await v.app.request(`${ORIGIN}/api/stream`, {
      headers: { cookie: v.cookie, 'last-event-id': String(edges) },
    });
    const edgeEvents = await readEvents(
      withEdges,
      (es) => es.filter((e) => e.event === 'change').length >= 3,
    );
    expect(
      edgeEvents
        .filter((e) => e.event === 'change')
        .map((e) => [Number(e.id), JSON.parse(e.data).entityId, JSON.parse(e.data).op]),
    ).toEqual([
      [edges + 1, `${a} touches fil_00000000000000000001`, 'add'],
      [edges + 1, `${a} touches fil_00000000000000000002`, 'add'],
      [edges + 2, a, 'unpin'],
    ]);

    // Too far behind: one reset instead of a flood.
    v.store.transaction(() => {
      for (let i = 0; i < STREAM_BACKLOG + 5; i++)
        insertMemory(v.store, { projectId: v.project.id, title: `bulk ${i}` });
    });
    const behind = await v.app.request(`${ORIGIN}/api/stream`, {
      headers: { cookie: v.cookie, 'last-event-id': String(last) },
    });
    const reset = await readEvents(behind, (es) => es.some((e) => e.event === 'reset'));
    expect(reset.filter((e) => e.event === 'change')).toHaveLength(0);
    expect(Number(reset.find((e) => e.event === 'reset')?.id)).toBe(v.store.changes.lastSeq());
    expect(v.feed.listeners()).toBe(0);
  });
});
