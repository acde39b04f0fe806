import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { projectIdFromKey } from '../core/ids.ts';
import type { Project } from '../core/model.ts';
import { openDatabase } from './database.ts';
import { createStore, type Store } from './store.ts';
import { appendEvent, insertMemory, TEST_CHANGE } from './store.test-support.ts';

const a: Project = { id: projectIdFromKey('path:/a'), name: 'a', key: 'path:/a', root: '/a' };
const b: Project = { id: projectIdFromKey('path:/b'), name: 'b', key: 'path:/b', root: '/b' };

describe('the viewer’s reads', () => {
  let dir: string;
  let store: Store;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'engram-viewer-repos-'));
    store = createStore(openDatabase(join(dir, 'engram.db')));
  });
  afterEach(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('pages every memory newest first by keyset, with filters, and counts them up to a cap', () => {
    // 25 memories: alternating projects, types and sources; three share one timestamp (ties by rowid).
    for (let i = 0; i < 25; i++) {
      insertMemory(store, {
        projectId: i % 2 === 0 ? a.id : b.id,
        title: `memory ${i}`,
        createdAt: i < 3 ? 1000 : 1000 + i * 10,
        sessionId: i < 10 ? 's1' : 's2',
        source: i % 3 === 0 ? 'transcript' : 'hook',
        draft: { type: i % 5 === 0 ? 'decision' : 'change' },
      });
    }
    const seen: string[] = [];
    let cursor: { createdAt: number; rowid: number } | undefined;
    for (;;) {
      const page = store.memoryList.page({}, 7, cursor);
      if (page.length === 0) break;
      seen.push(...page.map((k) => k.id));
      const last = page[page.length - 1] as { createdAt: number; rowid: number };
      cursor = { createdAt: last.createdAt, rowid: last.rowid };
    }
    expect(seen).toHaveLength(25);
    expect(new Set(seen).size).toBe(25);
    const titles = seen.map((id) => store.observations.get(id)?.title);
    expect(titles[0]).toBe('memory 24');
    expect(titles.slice(-3)).toEqual(['memory 2', 'memory 1', 'memory 0']);

    const decisionsOfA = store.memoryList
      .page({ projectId: a.id, types: ['decision'] }, 50)
      .map((k) => store.observations.get(k.id)?.title);
    expect(decisionsOfA).toEqual(['memory 20', 'memory 10', 'memory 0']);
    expect(store.memoryList.count({ sessionId: 's1', sources: ['transcript'] }, 100)).toBe(4);
    expect(store.memoryList.count({ from: 1000 + 20 * 10 }, 100)).toBe(5);
    expect(store.memoryList.count({ to: 1001 }, 100)).toBe(3);
    expect(store.memoryList.count({}, 10)).toBe(11); // capped: "more than 10"

    const first = seen[0] as string;
    store.memory.invalidate(first, 'wrong', TEST_CHANGE);
    expect(store.memoryList.count({}, 100)).toBe(24);
    expect(store.memoryList.page({ statuses: ['invalidated'] }, 5).map((k) => k.id)).toEqual([first]);
  });

  it('lists sessions by latest activity with their prompts, and logs what each hook call injected', () => {
    appendEvent(store, a, 'old', { kind: 'prompt', prompt: 'first' }, 100);
    appendEvent(store, b, 'new', { kind: 'prompt', prompt: 'second' }, 200);
    store.summaries.addPrompt('new', b.id, 7, 'fix the login form', 200);
    insertMemory(store, { projectId: b.id, title: 'login form fixed', sessionId: 'new' });
    const page = store.sessionList.page(null, 10);
    expect(page.map((s) => s.id)).toEqual(['new', 'old']);
    expect(page[0]).toMatchObject({ projectName: 'b', prompts: 1, memories: 1 });
    const next = store.sessionList.page(null, 1, { lastEventAt: 200, id: 'new' });
    expect(next.map((s) => s.id)).toEqual(['old']);
    expect(store.sessionList.page(a.id, 10).map((s) => s.id)).toEqual(['old']);
    expect(store.sessionList.prompts('new')).toEqual([{ seq: 7, at: 200, prompt: 'fix the login form' }]);

    store.contextLog.add({
      sessionId: 'new',
      projectId: b.id,
      hook: 'UserPromptSubmit',
      startSource: null,
      eventSeq: 7,
      at: 200,
      text: 'engram: …',
      tokens: 12,
      items: [{ id: 'obs_x', tokens: 9, score: 0.5, why: 'match' }],
      latencyMs: 40,
    });
    const [logged] = store.contextLog.ofSession('new');
    expect(logged).toMatchObject({ eventSeq: 7, tokens: 12, items: [{ id: 'obs_x', score: 0.5 }] });
    expect(store.contextLog.latency(0)).toEqual([{ hook: 'UserPromptSubmit', calls: 1, p50: 40, p95: 40 }]);
    expect(store.contextLog.perDay(0)).toEqual([{ day: '1970-01-01', calls: 1, injected: 1, tokens: 12 }]);
    // Retention: only rows logged before the cut-off go.
    expect(store.contextLog.pruneBefore(200)).toBe(0);
    expect(store.contextLog.pruneBefore(201)).toBe(1);
    expect(store.contextLog.ofSession('new')).toEqual([]);
  });

  it('keeps pending forgets by batch until they are due', () => {
    store.pendingForgets.add({
      observationId: 'obs_1',
      batch: 'b1',
      archived: true,
      requestedAt: 0,
      dueAt: 10,
    });
    store.pendingForgets.add({
      observationId: 'obs_2',
      batch: 'b1',
      archived: true,
      requestedAt: 0,
      dueAt: 10,
    });
    store.pendingForgets.add({
      observationId: 'obs_3',
      batch: 'b2',
      archived: false,
      requestedAt: 0,
      dueAt: 50,
    });
    expect(store.pendingForgets.due(9, 10)).toEqual([]);
    expect(
      store.pendingForgets
        .due(10, 10)
        .map((p) => p.observationId)
        .sort(),
    ).toEqual(['obs_1', 'obs_2']);
    expect(store.pendingForgets.ofBatch('b2').map((p) => p.observationId)).toEqual(['obs_3']);
    expect(store.pendingForgets.remove('obs_3')).toBe(true);
    expect(store.pendingForgets.get('obs_3')).toBeNull();
  });
});
