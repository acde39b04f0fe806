/**
 * The LLM step inside the real drain, over a real store and a loopback OpenAI-compatible server:
 * llm-sourced memories, supersedes, exactly-once when another drainer wins the race, the hard caps with
 * heuristic fallback, and a ledger that adds up to what the server reported.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveConfig } from '../core/config.ts';
import { projectIdFromKey } from '../core/ids.ts';
import type { CapturedEvent, Project } from '../core/model.ts';
import { createMemoryLogger } from '../core/ports.ts';
import { DEFAULT_PRICES } from '../core/prices.ts';
import { createHeuristicDistiller } from '../distill/heuristic-distiller.ts';
import { openDatabase } from '../store/database.ts';
import { createStore, type Store } from '../store/store.ts';
import {
  plausibleReply,
  startFakeLlmServer,
  type FakeLlmServer,
  type FakeReply,
} from '../../test/support/fake-llm-server.ts';
import { drainOnce, drainOnceAsync, type TurnPreparer } from './drain.ts';
import { createLlmTurnPreparer, utcDay } from './llm-turn.ts';
import { createLlmDistillerFromConfig } from './llm-wiring.ts';
import { appendEvent, insertMemory } from '../store/store.test-support.ts';

const project: Project = { id: projectIdFromKey('path:/p'), name: 'p', key: 'path:/p', root: '/p' };
const NOW = Date.UTC(2026, 10, 23, 12);
const GOOD_REPLY = JSON.stringify({ observations: [{ type: 'feature', title: 'Third feature is in' }] });

describe('LLM distillation in the drain', () => {
  let dir: string;
  let store: Store;
  let server: FakeLlmServer;
  let at = 0;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'engram-llm-turn-'));
    store = createStore(openDatabase(join(dir, 'db')));
  });
  afterEach(async () => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
    await server?.close();
  });

  const add = (sessionId: string, event: CapturedEvent) =>
    appendEvent(store, project, sessionId, event, ++at);
  const addTurn = (sessionId: string, request: string) => {
    add(sessionId, { kind: 'prompt', prompt: request });
    add(sessionId, {
      kind: 'tool',
      tool: 'Write',
      input: { file_path: `/p/src/${sessionId}-${at}.ts`, content: 'export const x = 1;\n' },
      response: {},
    });
    add(sessionId, { kind: 'stop', lastMessage: `${request}: it is now in src/${sessionId}.ts.` });
  };
  const options = { force: false, now: NOW, staleTurnMs: 10_000_000, maxAttempts: 3 };
  const logger = createMemoryLogger();

  async function preparer(script: (prompt: string) => FakeReply, env: Record<string, string> = {}) {
    server = await startFakeLlmServer((r) => script(r.prompt));
    const config = resolveConfig({
      env: {
        ENGRAM_DISTILL_PROVIDER: 'openai',
        ENGRAM_DISTILL_URL: server.url,
        ENGRAM_DISTILL_MODEL: 'claude-haiku-4-5', // priced by the default table
        ...env,
      },
    });
    const llm = createLlmDistillerFromConfig({
      config,
      env: {},
      home: dir,
      clock: { now: () => NOW },
      sleep: async () => undefined,
    });
    if (!llm) throw new Error('no LLM distiller');
    return createLlmTurnPreparer({
      store,
      heuristic: createHeuristicDistiller(),
      llm,
      logger,
      clock: { now: () => NOW },
      config,
      prices: DEFAULT_PRICES,
    });
  }
  const deps = () => ({ store, distiller: createHeuristicDistiller(), logger });

  it('stores the model\u2019s observations as llm memories, supersedes an old one, and counts them in the ledger', async () => {
    addTurn('s', 'Add a health endpoint');
    await drainOnceAsync(deps(), options, await preparer((p) => ({ text: plausibleReply(p) })));
    const first = store.observations.recent(project.id, 10);
    expect(first.map((o) => o.source)).toEqual(['llm']);
    const old = first[0];
    addTurn('s', 'Rename the health endpoint');
    const prepare = await preparer(() => ({
      text: JSON.stringify({
        observations: [{ type: 'change', title: 'Health endpoint is /healthz', supersedes: old?.id }],
        summary: { request: 'Rename the health endpoint' },
      }),
    }));
    const report = await drainOnceAsync(deps(), options, prepare);
    expect(report).toMatchObject({ turns: 1, observations: 1, failures: 0 });
    expect(store.observations.get(old?.id ?? '')?.status).toBe('superseded');
    const current = store.observations.recent(project.id, 10);
    expect(current.map((o) => o.title)).toEqual(['Health endpoint is /healthz']);
    expect(store.summaries.get('s')?.request).toBe('Rename the health endpoint');
    // The model saw the memory it superseded.
    expect(server.exchanges[0]?.text).toContain(`${old?.id} · `);
    const ledger = store.llmLedger.latest(10);
    expect(ledger.map((l) => [l.outcome, l.observations])).toEqual([
      ['ok', 1],
      ['ok', 1],
    ]);
    expect(ledger[0]?.costUsd).toBeGreaterThan(0);
  });

  it('lets the model supersede only a memory it was shown in that call', async () => {
    const hidden = insertMemory(store, {
      projectId: project.id,
      sessionId: 'old',
      createdAt: 1,
      title: 'Queue retries use exponential backoff',
    });
    // Newer memories push the hidden one out of what the model is shown (12 at most).
    for (let i = 0; i < 14; i++)
      insertMemory(store, { projectId: project.id, sessionId: 'old', createdAt: 10 + i, title: `Note ${i}` });
    addTurn('s', 'Add a health endpoint');
    const prepare = await preparer(() => ({
      text: JSON.stringify({
        observations: [{ type: 'change', title: 'Health endpoint added', supersedes: hidden }],
      }),
    }));
    await drainOnceAsync(deps(), options, prepare);
    expect(server.exchanges[0]?.text).not.toContain(hidden);
    expect(store.observations.get(hidden)?.status).toBe('active');
    const added = store.observations.recent(project.id, 50).find((o) => o.source === 'llm');
    expect(added).toMatchObject({ title: 'Health endpoint added', supersedes: null });
  });

  it('shows the model the memories relevant to the prompt, not only the most recent', async () => {
    const insert = (title: string, createdAt: number) =>
      insertMemory(store, {
        projectId: project.id,
        sessionId: 'old',
        source: 'hook',
        createdAt,
        title,
        draft: { type: 'decision' },
      });
    const relevant = insert('Invoices are rounded half-even in the billing service', 1);
    for (let i = 0; i < 20; i++) insert(`Unrelated change number ${i} to the docs`, 100 + i);
    addTurn('s', 'Make the billing service round invoices up');
    await drainOnceAsync(deps(), options, await preparer((p) => ({ text: plausibleReply(p) })));
    const sent = server.exchanges[0]?.text ?? '';
    expect(sent).toContain(`${relevant} · decision · Invoices are rounded half-even`);
    expect(sent).toContain('Unrelated change number 19');
    expect(sent).not.toContain('Unrelated change number 2 to');
  });

  it('adds what the transcript says (the assistant\u2019s reasons, extracted decisions) to the prompt', async () => {
    const transcript = join(dir, 'session.jsonl');
    const base = { sessionId: 's', cwd: '/p', timestamp: '2026-11-23T11:00:00Z' };
    const records = [
      {
        ...base,
        type: 'user',
        uuid: 'u1',
        message: { role: 'user', content: 'Set up caching for the user lookup' },
      },
      {
        ...base,
        type: 'assistant',
        uuid: 'a1',
        message: {
          id: 'msg_1',
          model: 'claude-x',
          content: [
            {
              type: 'text',
              text: "Since Redis is not installed here, I'll use an in-memory LRU map instead.",
            },
          ],
          usage: { input_tokens: 1, output_tokens: 1 },
        },
      },
    ];
    writeFileSync(transcript, records.map((r) => JSON.stringify(r)).join('\n') + '\n');
    const event = (e: CapturedEvent) =>
      store.transaction(() => {
        store.sessions.touch(project, { id: 's', cwd: '/p', transcriptPath: transcript }, 'x', ++at);
        store.events.append({
          sessionId: 's',
          projectId: project.id,
          hook: 'x',
          cwd: '/p',
          transcriptPath: transcript,
          at,
          event: e,
        });
      });
    event({ kind: 'prompt', prompt: 'Set up caching for the user lookup' });
    event({
      kind: 'tool',
      tool: 'Bash',
      input: { command: 'redis-cli ping' },
      response: { stdout: '', stderr: 'not found' },
    });
    event({ kind: 'stop', lastMessage: 'Added an LRU cache.' });
    await drainOnceAsync(deps(), options, await preparer((p) => ({ text: plausibleReply(p) })));
    const sent = server.exchanges[0]?.text ?? '';
    expect(sent).toContain('From the session transcript:');
    expect(sent).toContain(
      "assistant: Since Redis is not installed here, I'll use an in-memory LRU map instead.",
    );
    expect(sent).toMatch(/- decision: .*LRU map/);
  });

  it('scrubs what the model writes before it is stored', async () => {
    addTurn('s', 'Configure the deploy token');
    const token = `ghp_${'a1B2c3D4e5'.repeat(4).slice(0, 36)}`;
    await drainOnceAsync(
      deps(),
      options,
      await preparer(() => ({
        text: JSON.stringify({
          observations: [{ type: 'change', title: 'Deploy token set', facts: [`token is ${token}`] }],
        }),
      })),
    );
    const [stored] = store.observations.recent(project.id, 1);
    expect(stored?.source).toBe('llm');
    expect(stored?.facts.join(' ')).toMatch(/^token is \S+/);
    expect(stored?.facts.join(' ')).not.toContain(token);
  });

  it('falls back to the heuristic result for a turn after maxFailures, without blocking the queue', async () => {
    addTurn('s', 'Add a health endpoint');
    const report = await drainOnceAsync(deps(), options, await preparer(() => ({ status: 500 })));
    expect(report).toMatchObject({ turns: 1, failures: 0 });
    expect(store.events.counts()).toMatchObject({ pending: 0, parked: 0 });
    expect(store.observations.recent(project.id, 10).map((o) => [o.source, o.title])).toEqual([
      ['hook', 'Add a health endpoint: it is now in src/s.ts.'],
    ]);
    expect(store.llmLedger.latest(10).map((l) => l.outcome)).toEqual(['http_error', 'http_error']);
  });

  it('after an outage, leaves the provider alone for a cool-down instead of slowing every turn', async () => {
    let now = NOW;
    server = await startFakeLlmServer(() => (now < NOW + 400_000 ? { status: 503 } : { text: GOOD_REPLY }));
    const config = resolveConfig({
      env: {
        ENGRAM_DISTILL_PROVIDER: 'openai',
        ENGRAM_DISTILL_URL: server.url,
        ENGRAM_DISTILL_MODEL: 'claude-haiku-4-5',
      },
    });
    const clock = { now: () => now };
    const llm = createLlmDistillerFromConfig({
      config,
      env: {},
      home: dir,
      clock,
      sleep: async () => undefined,
    });
    if (!llm) throw new Error('no LLM distiller');
    const prepare = createLlmTurnPreparer({
      store,
      heuristic: createHeuristicDistiller(),
      llm,
      logger,
      clock,
      config,
      prices: DEFAULT_PRICES,
    });
    addTurn('s', 'First');
    await drainOnceAsync(deps(), options, prepare);
    expect(server.exchanges).toHaveLength(2);
    now += 60_000;
    addTurn('s', 'Second');
    await drainOnceAsync(deps(), options, prepare);
    expect(server.exchanges).toHaveLength(2); // cooling down: heuristic, no call
    now += 360_000;
    addTurn('s', 'Third');
    await drainOnceAsync(deps(), options, prepare);
    expect(server.exchanges).toHaveLength(3);
    expect(store.observations.recent(project.id, 10).map((o) => o.source)).toEqual(['llm', 'hook', 'hook']);
  });

  it('stays exactly-once when another drainer finishes the turn while the LLM call is in flight', async () => {
    addTurn('s', 'Add a health endpoint');
    const llm = await preparer((p) => ({ text: plausibleReply(p) }));
    const racing: TurnPreparer = async (events, now) => {
      const prepared = await llm(events, now);
      drainOnce(deps(), options); // a flush wins the race and commits the turn heuristically
      return prepared;
    };
    const report = await drainOnceAsync(deps(), options, racing);
    expect(report.turns).toBe(0);
    expect(store.events.counts()).toMatchObject({ pending: 0, done: 3 });
    expect(store.observations.recent(project.id, 10).map((o) => o.source)).toEqual(['hook']);
    expect(store.llmLedger.latest(1)[0]).toMatchObject({ outcome: 'ok', observations: 0 });
  });

  it('stops at a tiny daily token cap: heuristic afterwards, a budget_skip in the ledger, sums that add up', async () => {
    for (let i = 0; i < 6; i++) addTurn(`s${i}`, `Implement feature number ${i}`);
    const prepare = await preparer((p) => ({ text: plausibleReply(p) }), {
      ENGRAM_DISTILL_DAILY_TOKEN_CAP: '2000',
      ENGRAM_DISTILL_MAX_OUTPUT_TOKENS: '400',
    });
    const report = await drainOnceAsync(deps(), options, prepare);
    expect(report.turns).toBe(6);
    const rows = store.llmLedger.latest(100).reverse();
    const ok = rows.filter((r) => r.outcome === 'ok');
    const skipped = rows.filter((r) => r.outcome === 'budget_skip');
    expect(ok.length).toBeGreaterThanOrEqual(1);
    expect(skipped.length).toBeGreaterThanOrEqual(1);
    expect(ok.length + skipped.length).toBe(6);
    // Once the cap is reached nothing more is spent: every later turn is refused.
    expect(rows.findIndex((r) => r.outcome === 'budget_skip')).toBe(ok.length);
    expect(skipped[0]?.detail).toMatch(/daily token cap reached/);
    // The ledger adds up to what the server reported, and stays under the cap.
    const reported = server.reported();
    const spent = store.llmLedger.spentOnDay(utcDay(NOW));
    expect(spent.tokens).toBe(reported.input + reported.output);
    expect(spent.tokens).toBeLessThanOrEqual(2000);
    expect(server.exchanges).toHaveLength(ok.length);
    // Skipped turns were still distilled, heuristically.
    const sources = store.observations.recent(project.id, 50).map((o) => o.source);
    expect(sources.filter((s) => s === 'llm').length).toBeGreaterThanOrEqual(1);
    expect(sources.filter((s) => s === 'hook')).toHaveLength(skipped.length);
  });

  it('applies the session token cap and the daily dollar cap too', async () => {
    addTurn('a', 'First feature');
    addTurn('a', 'Second feature');
    const prepare = await preparer((p) => ({ text: plausibleReply(p) }), {
      ENGRAM_DISTILL_SESSION_TOKEN_CAP: '1200',
      ENGRAM_DISTILL_MAX_OUTPUT_TOKENS: '400',
    });
    await drainOnceAsync(deps(), options, prepare);
    expect(store.llmLedger.latest(10).map((l) => l.outcome)).toEqual(['budget_skip', 'ok']);
    expect(store.llmLedger.latest(1)[0]?.detail).toMatch(/session token cap/);
    addTurn('b', 'Third feature');
    const poor = await preparer((p) => ({ text: plausibleReply(p) }), {
      ENGRAM_DISTILL_DAILY_USD_CAP: '0.0001',
    });
    await drainOnceAsync(deps(), options, poor);
    expect(store.llmLedger.latest(1)[0]?.detail).toMatch(/daily spend cap/);
  });

  it('never runs a model the price table does not know while a dollar cap is set: it says why', async () => {
    addTurn('u', 'Add the export button');
    const unpriced = await preparer((p) => ({ text: plausibleReply(p) }), {
      ENGRAM_DISTILL_MODEL: 'mystery-model-7b',
    });
    await drainOnceAsync(deps(), options, unpriced);
    expect(server.exchanges).toHaveLength(0); // not a single call
    const last = store.llmLedger.latest(1)[0];
    expect(last?.outcome).toBe('budget_skip');
    expect(last?.detail).toMatch(/no price for model "mystery-model-7b"/);
    expect(store.observations.recent(project.id, 5).map((o) => o.source)).toEqual(['hook']); // heuristic
  });
});
