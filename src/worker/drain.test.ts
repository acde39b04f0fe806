import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { projectIdFromKey } from '../core/ids.ts';
import type { CapturedEvent, Project } from '../core/model.ts';
import { createMemoryLogger } from '../core/ports.ts';
import { createHeuristicDistiller, type Distiller } from '../distill/heuristic-distiller.ts';
import { openDatabase } from '../store/database.ts';
import { createStore, type Store } from '../store/store.ts';
import { drainOnce } from './drain.ts';
import { appendEvent } from '../store/store.test-support.ts';

const project: Project = { id: projectIdFromKey('path:/p'), name: 'p', key: 'path:/p', root: '/p' };

describe('drainOnce', () => {
  let dir: string;
  let store: Store;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'engram-drain-'));
    store = createStore(openDatabase(join(dir, 'db')));
  });
  afterEach(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  let at = 0;
  const add = (sessionId: string, event: CapturedEvent) =>
    appendEvent(store, project, sessionId, event, ++at);
  const options = (force = false) => ({ force, now: 1_000_000, staleTurnMs: 10_000_000, maxAttempts: 2 });

  it('distils closed turns, leaves an open turn for later unless forced, and ends sessions', () => {
    add('s', { kind: 'prompt', prompt: 'Add a health endpoint' });
    add('s', {
      kind: 'tool',
      tool: 'Write',
      input: { file_path: '/p/src/health.ts', content: 'export const ok = 1;\n' },
      response: {},
    });
    add('s', { kind: 'stop', lastMessage: 'The service now has a health endpoint in src/health.ts.' });
    add('s', { kind: 'prompt', prompt: 'Now document it' });
    const deps = { store, distiller: createHeuristicDistiller(), logger: createMemoryLogger() };
    expect(drainOnce(deps, options())).toMatchObject({ turns: 1, events: 3, failures: 0 });
    expect(store.events.counts()).toEqual({ pending: 1, done: 3, parked: 0 });
    expect(store.observations.recent(project.id, 5).map((o) => o.title)).toEqual([
      'The service now has a health endpoint in src/health.ts.',
    ]);
    add('s', { kind: 'session_end', reason: 'prompt_input_exit' });
    expect(drainOnce(deps, options())).toMatchObject({ turns: 1, events: 2 }); // the open turn, closed by the end
    expect(store.sessions.get('s')).toMatchObject({ status: 'completed', endedAt: at });
    expect(store.summaries.get('s')).toMatchObject({ final: true, request: 'Add a health endpoint' });
    expect(drainOnce(deps, options(true))).toMatchObject({ turns: 0, events: 0 });
  });

  it('does not read a session again while it only waits for its open turn, and goes on once it changes or goes stale', () => {
    add('w', { kind: 'prompt', prompt: 'Refactor the billing module' });
    add('w', { kind: 'tool', tool: 'Read', input: { file_path: '/p/src/billing.ts' }, response: {} });
    let reads = 0;
    const counting: Distiller = createHeuristicDistiller();
    const waiting = new Map<string, string>();
    const watched = {
      ...store,
      events: { ...store.events, pendingOf: (id: string) => (reads++, store.events.pendingOf(id)) },
    };
    const deps = { store: watched as Store, distiller: counting, logger: createMemoryLogger(), waiting };
    expect(drainOnce(deps, options())).toMatchObject({ turns: 0 });
    expect(drainOnce(deps, options())).toMatchObject({ turns: 0 });
    expect(drainOnce(deps, options())).toMatchObject({ turns: 0 });
    expect(reads).toBe(1); // read once, then skipped: nothing new
    add('w', {
      kind: 'stop',
      lastMessage: 'Billing now computes totals in one place, covered by its tests.',
    });
    expect(drainOnce(deps, options())).toMatchObject({ turns: 1, events: 3 });
    add('w', { kind: 'prompt', prompt: 'Now the invoices' });
    expect(drainOnce(deps, options())).toMatchObject({ turns: 0 });
    // Past the stale time the open turn is distilled without its Stop, although nothing changed.
    expect(drainOnce(deps, { ...options(), now: at + 10_000_000 })).toMatchObject({ turns: 1, events: 1 });
  });

  it('retries a failing turn, then parks it with its error, keeping later sessions moving', () => {
    let calls = 0;
    const flaky: Distiller = {
      distilTurn(input) {
        calls++;
        if (input.events.some((e) => e.event.kind === 'prompt' && e.event.prompt.includes('poison'))) {
          throw new Error('distiller exploded');
        }
        return createHeuristicDistiller().distilTurn(input);
      },
    };
    const logger = createMemoryLogger();
    add('bad', { kind: 'prompt', prompt: 'poison pill' });
    add('bad', { kind: 'stop', lastMessage: 'x' });
    add('good', { kind: 'prompt', prompt: 'Fine request' });
    add('good', { kind: 'stop', lastMessage: 'Fine.' });
    const deps = { store, distiller: flaky, logger };
    expect(drainOnce(deps, options())).toMatchObject({ failures: 1, turns: 1 });
    expect(store.events.counts()).toEqual({ pending: 2, done: 2, parked: 0 });
    expect(drainOnce(deps, options())).toMatchObject({ failures: 1, turns: 0 });
    expect(store.events.counts()).toEqual({ pending: 0, done: 2, parked: 2 });
    expect(store.events.parked(5).map((p) => p.lastError)).toEqual([
      'Error: distiller exploded',
      'Error: distiller exploded',
    ]);
    expect(calls).toBe(3);
    expect(logger.lines.filter((l) => l.startsWith('error distillation failed'))).toHaveLength(2);
    // Parked events can be put back once the cause is fixed.
    expect(store.events.retryParked()).toBe(2);
  });

  it('parks an unreadable row at once instead of failing the whole drain', () => {
    add('s', { kind: 'prompt', prompt: 'Good one' });
    store.db
      .prepare(
        `INSERT INTO events (session_id, project_id, hook, kind, cwd, payload, bytes, at) VALUES ('s', ?, 'x', 'tool', '/p', '{not json', 9, ?)`,
      )
      .run(project.id, ++at);
    add('s', { kind: 'stop', lastMessage: 'ok' });
    const deps = { store, distiller: createHeuristicDistiller(), logger: createMemoryLogger() };
    expect(drainOnce(deps, options())).toMatchObject({ turns: 1, events: 2, failures: 1 });
    expect(store.events.counts()).toEqual({ pending: 0, done: 2, parked: 1 });
    expect(store.events.parked(5)[0]?.lastError).toBe('unreadable event payload');
  });
  it("a command fact keeps its run's own trust in a turn that also fetched a web page; the assistant's account falls to external", () => {
    add('t', { kind: 'prompt', prompt: 'Check the docs page and then make the tests pass' });
    add('t', {
      kind: 'tool',
      tool: 'WebFetch',
      input: { url: 'https://docs.example.com/testing' },
      response: { result: 'Use vitest.' },
    });
    add('t', {
      kind: 'tool',
      tool: 'Edit',
      input: { file_path: '/p/src/cart.ts', old_string: 'a', new_string: 'b' },
      response: {},
    });
    add('t', {
      kind: 'tool',
      tool: 'Bash',
      input: { command: 'npm test' },
      response: {
        stdout: ' Test Files  3 passed (3)\n      Tests  12 passed (12)\n',
        stderr: '',
        interrupted: false,
      },
    });
    add('t', {
      kind: 'stop',
      lastMessage: 'The cart total now rounds to cents in src/cart.ts and the tests pass.',
    });
    const deps = { store, distiller: createHeuristicDistiller(), logger: createMemoryLogger() };
    drainOnce(deps, options(true));
    const all = store.observations.recent(project.id, 20);
    const fact = all.find((o) => o.type === 'fact' && o.title === 'Commands: test `npm test`');
    expect(fact?.trust).toBe('tool');
    const others = all.filter((o) => o !== fact);
    expect(others.length).toBeGreaterThan(0);
    for (const o of others) expect(o.trust, o.title).toBe('external');
  });
});
