import { ownStamp } from '../store/process-identity.ts';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveConfig } from '../core/config.ts';
import { projectIdFromKey } from '../core/ids.ts';
import type { CapturedEvent, Project } from '../core/model.ts';
import { createMemoryLogger } from '../core/ports.ts';
import { createHeuristicDistiller } from '../distill/heuristic-distiller.ts';
import { createOllamaEmbedder } from '../recall/embedders/ollama-embedder.ts';
import {
  startFakeEmbedServer,
  type FakeEmbedServer,
} from '../recall/embedders/fake-embed-server.test-support.ts';
import { openDatabase } from '../store/database.ts';
import { loadSqliteVec } from '../store/sqlite-vec-loader.ts';
import { createStore, type Store } from '../store/store.ts';
import { runWorker, type WorkerExit } from './run-worker.ts';
import { appendEvent } from '../store/store.test-support.ts';

const project: Project = { id: projectIdFromKey('path:/p'), name: 'p', key: 'path:/p', root: '/p' };

async function until(check: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

describe('background embedding in the worker', () => {
  let dir: string;
  let store: Store;
  let server: FakeEmbedServer;
  let at = 0;
  let running: { controller: AbortController; done: Promise<WorkerExit> } | null = null;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'engram-embed-worker-'));
    mkdirSync(join(dir, 'inbox'));
    store = createStore(openDatabase(join(dir, 'engram.db')), { loadVectorExtension: loadSqliteVec });
    server = await startFakeEmbedServer();
  });
  afterEach(async () => {
    running?.controller.abort();
    await running?.done;
    running = null;
    await server.close();
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const turn = (sessionId: string, request: string) => {
    const events: CapturedEvent[] = [
      { kind: 'prompt', prompt: request },
      {
        kind: 'tool',
        tool: 'Write',
        input: { file_path: `/p/src/${sessionId}.ts`, content: 'export {};\n' },
        response: {},
      },
      { kind: 'stop', lastMessage: `${request}: it is now in src/${sessionId}.ts.` },
    ];
    for (const event of events) appendEvent(store, project, sessionId, event, ++at);
  };

  const start = (clock: { now: () => number }) => {
    const controller = new AbortController();
    const logger = createMemoryLogger();
    const config = resolveConfig({
      env: { ENGRAM_WORKER_POLL_MS: '10', ENGRAM_EMBED_TIMEOUT_MS: '200', ENGRAM_EMBED_BATCH_SIZE: '2' },
    });
    const embedder = createOllamaEmbedder({ model: 'fake', url: server.url });
    const done: Promise<WorkerExit> = runWorker({
      store,
      distiller: createHeuristicDistiller(),
      logger,
      clock,
      config,
      stamp: ownStamp(),
      signal: controller.signal,
      inboxDir: join(dir, 'inbox'),
      embedder,
    });
    running = { controller, done };
    return { controller, logger, done, embedder };
  };

  it('embeds new memories after distilling them, in small batches', async () => {
    for (let i = 0; i < 5; i++) turn(`s${i}`, `Add the health endpoint number ${i} to the shop service`);
    const w = start({ now: () => Date.now() });
    await until(() => store.events.counts().done === 15, 'distillation');
    const active = store.observations.countByStatus().active;
    expect(active).toBeGreaterThanOrEqual(5);
    await until(() => store.vectors.count(w.embedder.id) === active, 'embedding');
    expect(store.vectors.pending(w.embedder.id)).toBe(0);
    expect(server.requests.every((r) => (r.body.input ?? []).length <= 2)).toBe(true);
    w.controller.abort();
    expect(await w.done).toBe('stopped');
    expect(w.logger.lines.some((l) => l.includes('embedded memories'))).toBe(true);
  });

  it('a memory the embedder refuses is skipped; the others in its batch still get vectors', async () => {
    for (const [i, what] of [
      'Tune the search index',
      'Fix the poison pill parser',
      'Add a login form',
      'Rename the cart module',
    ].entries())
      turn(`p${i}`, what);
    server.rejectWord = 'poison';
    const w = start({ now: () => Date.now() });
    await until(() => store.events.counts().done === 12, 'distillation');
    const poisoned = store.observations.recent(project.id, 50).filter((o) => /poison/i.test(o.title));
    expect(poisoned.length).toBeGreaterThan(0);
    const active = store.observations.countByStatus().active;
    await until(
      () => store.vectors.count(w.embedder.id) === active - poisoned.length,
      'the others to be embedded',
    );
    expect(
      store.vectors
        .missing(w.embedder.id, 50)
        .map((m) => m.observationId)
        .sort(),
    ).toEqual(poisoned.map((o) => o.id).sort());
    expect(
      w.logger.lines.some((l) => l.includes('the embedder refuses this memory') && l.includes('HTTP 400')),
    ).toBe(true);
    expect(w.logger.lines.some((l) => l.includes('embedding failed'))).toBe(false);
    server.rejectWord = null;
  });

  it('an embedder that fails or hangs blocks nothing; memories get their vectors once it is back', async () => {
    let now = 1_800_000_000_000;
    const clock = { now: () => now };
    server.mode = 'hang';
    turn('a', 'Fix the cart total rounding bug in checkout');
    const w = start(clock);
    await until(() => server.requests.length >= 1, 'a first embedding attempt');
    // The embedder hangs: distillation of new events goes on regardless.
    turn('b', 'Document the release process for the shop');
    await until(() => store.events.counts().done === 6, 'distillation while the embedder hangs');
    await until(() => w.logger.lines.some((l) => l.includes('embedding failed')), 'the timeout to be logged');
    expect(store.vectors.count(w.embedder.id)).toBe(0);
    // Down with errors now; the worker backs off instead of hammering it.
    server.mode = 'error500';
    now += 6000;
    await until(() => w.logger.lines.filter((l) => l.includes('embedding failed')).length >= 2, 'a retry');
    const attempts = server.requests.length;
    await sleep(100);
    expect(server.requests.length).toBe(attempts);
    expect(w.logger.lines.find((l) => l.includes('embedding failed'))).toMatch(/no answer in time/);
    // Back up: the memories made meanwhile are embedded.
    server.mode = 'ok';
    now += 20_000;
    const active = store.observations.countByStatus().active;
    await until(() => store.vectors.count(w.embedder.id) === active, 'embedding after recovery');
    expect(w.logger.lines.some((l) => l.includes('embedder reachable again'))).toBe(true);
    w.controller.abort();
    expect(await w.done).toBe('stopped');
    expect(store.events.counts()).toMatchObject({ pending: 0, parked: 0, done: 6 });
  });
});
