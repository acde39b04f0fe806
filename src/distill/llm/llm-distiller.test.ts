import { afterEach, describe, expect, it } from 'vitest';
import type { Sleep } from '../../core/llm.ts';
import {
  startFakeLlmServer,
  type FakeLlmServer,
  type FakeReply,
} from '../../../test/support/fake-llm-server.ts';
import { createHeuristicDistiller } from '../heuristic-distiller.ts';
import { abs, bash, prompt, ROOT, stop, tool, turn } from '../queued-events.test-support.ts';
import { createLlmDistiller, type LlmCall } from './llm-distiller.ts';
import { createOpenAiProvider } from './openai-provider.ts';
import { createAnthropicProvider } from './anthropic-provider.ts';

const GOOD = JSON.stringify({
  observations: [
    {
      type: 'bugfix',
      title: 'Login no longer fails on expired sessions',
      subtitle: 'src/auth/session.ts refreshes the token',
      narrative: 'Expired sessions threw; now the token is refreshed first.',
      facts: ['refreshToken() runs before validate()'],
      concepts: ['problem-solution'],
      filesModified: ['src/auth/session.ts'],
      supersedes: 'obs_old',
    },
  ],
  summary: { request: 'Fix the login bug', completed: 'Token refresh before validation' },
});

const events = turn(
  prompt('Fix the login bug: expired sessions throw'),
  tool('Edit', { file_path: abs('src/auth/session.ts'), old_string: 'a', new_string: 'refreshToken();' }),
  bash('npm test', '12 passed'),
  stop('Fixed: the session token is refreshed before validation.'),
);
const heuristic = createHeuristicDistiller().distilTurn({ projectRoot: ROOT, events, previousSummary: null });
const input = {
  projectName: 'shop',
  projectRoot: ROOT,
  events,
  previousSummary: null,
  heuristic,
  memories: [{ id: 'obs_old', type: 'bugfix', title: 'Login fails on expired sessions' }],
};

describe('the LLM distiller', () => {
  let server: FakeLlmServer;
  const slept: number[] = [];
  const sleep: Sleep = async (ms) => {
    slept.push(ms);
  };
  afterEach(async () => {
    slept.length = 0;
    await server?.close();
  });

  async function setup(
    script: (i: number) => FakeReply,
    opts: { maxFailures?: number; timeoutMs?: number; maxInputChars?: number; anthropic?: boolean } = {},
  ) {
    server = await startFakeLlmServer((r) => script(r.index));
    const fetch = (url: string, init: RequestInit) => globalThis.fetch(url, init);
    const provider = opts.anthropic
      ? createAnthropicProvider({ url: server.url, apiKey: 'k', model: 'claude-haiku-4-5', fetch })
      : createOpenAiProvider({ url: server.url, model: 'qwen2.5-coder', fetch });
    let t = 0;
    const distiller = createLlmDistiller({
      provider,
      clock: { now: () => (t += 7) },
      sleep,
      maxInputChars: opts.maxInputChars ?? 12_000,
      maxOutputTokens: 500,
      timeoutMs: opts.timeoutMs ?? 5000,
      maxFailures: opts.maxFailures ?? 2,
      backoffMs: 100,
    });
    const calls: LlmCall[] = [];
    const hooks = {
      budget: () => null,
      record: (c: LlmCall) => {
        calls.push(c);
        return calls.length;
      },
    };
    return { distiller, calls, hooks };
  }

  it('turns a valid answer into observations (with supersedes) and records the call with the server\u2019s usage', async () => {
    const { distiller, calls, hooks } = await setup(() => ({ text: GOOD }), { anthropic: true });
    const r = await distiller.distilTurn(input, hooks);
    expect(r).toMatchObject({
      ok: true,
      ledgerId: 1,
      distillation: {
        observations: [
          {
            type: 'bugfix',
            title: 'Login no longer fails on expired sessions',
            supersedes: 'obs_old',
            filesRead: [],
            filesModified: ['src/auth/session.ts'],
          },
        ],
        summary: { request: 'Fix the login bug', completed: 'Token refresh before validation' },
      },
    });
    const sent = server.exchanges[0];
    expect(sent?.text).toContain('obs_old · bugfix · Login fails on expired sessions');
    expect(sent?.text).toContain('[Edit] src/auth/session.ts');
    expect(sent?.text).toContain('Heuristic draft');
    expect(calls).toEqual([
      expect.objectContaining({
        provider: 'anthropic',
        outcome: 'ok',
        inputTokens: sent?.inputTokens,
        outputTokens: sent?.outputTokens,
        latencyMs: 7,
      }),
    ]);
  });

  it('repairs a fenced answer wrapped in prose', async () => {
    const { distiller, hooks } = await setup(() => ({
      text: `Here you go:\n\`\`\`json\n${GOOD}\n\`\`\`\nDone.`,
    }));
    expect(await distiller.distilTurn(input, hooks)).toMatchObject({ ok: true });
  });

  it('retries a malformed answer once with backoff, then succeeds', async () => {
    const { distiller, calls, hooks } = await setup((i) =>
      i === 0 ? { text: 'Sure! The turn fixed a login bug.' } : { text: GOOD },
    );
    const r = await distiller.distilTurn(input, hooks);
    expect(r.ok).toBe(true);
    expect(calls.map((c) => c.outcome)).toEqual(['malformed', 'ok']);
    expect(calls[0]?.inputTokens).toBeGreaterThan(0); // a malformed answer still cost tokens
    expect(slept).toEqual([100]);
  });

  it('rejects an answer that breaks the schema (no title)', async () => {
    const bad = JSON.stringify({ observations: [{ type: 'bugfix', title: '   ' }] });
    const { distiller, calls, hooks } = await setup(() => ({ text: bad }));
    const r = await distiller.distilTurn(input, hooks);
    expect(r).toMatchObject({ ok: false, budget: false });
    expect(calls.map((c) => c.outcome)).toEqual(['malformed', 'malformed']);
  });

  it('gives up after maxFailures 5xx answers, with doubling backoff', async () => {
    const { distiller, calls, hooks } = await setup(() => ({ status: 502 }), { maxFailures: 3 });
    const r = await distiller.distilTurn(input, hooks);
    expect(r).toMatchObject({ ok: false, budget: false });
    expect(calls.map((c) => c.outcome)).toEqual(['http_error', 'http_error', 'http_error']);
    expect(calls.every((c) => c.inputTokens === 0 && c.outputTokens === 0)).toBe(true);
    expect(slept).toEqual([100, 200]);
    expect(server.exchanges).toHaveLength(3);
  });

  it('does not retry a 4xx', async () => {
    const { distiller, calls, hooks } = await setup(() => ({ status: 401 }), { maxFailures: 3 });
    expect((await distiller.distilTurn(input, hooks)).ok).toBe(false);
    expect(calls.map((c) => c.outcome)).toEqual(['http_error']);
  });

  it('times out a server that never answers, then succeeds on the retry', async () => {
    const { distiller, calls, hooks } = await setup((i) => (i === 0 ? { hang: true } : { text: GOOD }), {
      timeoutMs: 150,
    });
    const r = await distiller.distilTurn(input, hooks);
    expect(r.ok).toBe(true);
    expect(calls.map((c) => c.outcome)).toEqual(['timeout', 'ok']);
  });

  it('asks the budget first and records a refusal without calling the provider', async () => {
    const { distiller, calls } = await setup(() => ({ text: GOOD }));
    const estimates: number[] = [];
    const r = await distiller.distilTurn(input, {
      budget: (e) => (estimates.push(e.inputTokens + e.outputTokens), 'daily token cap reached'),
      record: (c) => (calls.push(c), 9),
    });
    expect(r).toEqual({ ok: false, reason: 'daily token cap reached', budget: true });
    expect(calls).toEqual([expect.objectContaining({ outcome: 'budget_skip', inputTokens: 0 })]);
    expect(estimates[0]).toBeGreaterThan(500); // input estimate + the output allowance
    expect(server.exchanges).toHaveLength(0);
  });

  it('never sends more than maxInputChars: a long turn is cut in the middle', async () => {
    const long = turn(
      prompt('Refactor the catalogue'),
      ...Array.from({ length: 200 }, (_, i) => bash(`node step-${i}.js`, 'x'.repeat(400))),
      stop('Refactored.'),
    );
    const { distiller, calls, hooks } = await setup(() => ({ text: GOOD }), { maxInputChars: 4000 });
    await distiller.distilTurn({ ...input, events: long }, hooks);
    const body = server.exchanges[0]?.body as { messages: { content: string }[] };
    const chars = body.messages.reduce((n, m) => n + m.content.length, 0);
    expect(chars).toBeLessThanOrEqual(4000);
    expect(calls[0]?.inputChars).toBe(chars);
    expect(server.exchanges[0]?.text).toContain('[user] Refactor the catalogue');
    expect(server.exchanges[0]?.text).toContain('[assistant] Refactored.');
    expect(server.exchanges[0]?.text).toMatch(/\[… \d+ events left out …\]/);
  });
});
