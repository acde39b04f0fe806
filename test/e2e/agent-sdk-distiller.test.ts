/**
 * The Agent SDK provider with the real, pinned `@anthropic-ai/claude-agent-sdk` (its bundled native
 * CLI) against the loopback Messages mock: it answers, reports usage, and stays invisible. engram's
 * hooks are installed for real into a temporary HOME; the provider's call must not reach them (no
 * inbox file, no database) and must leave no session where `claude --resume` or a backfill would find
 * it. A control run of the same SDK without the lock-down shows the hooks would have fired.
 */
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { query } from '@anthropic-ai/claude-agent-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EngramError } from '../../src/core/errors.ts';
import { isRetryable } from '../../src/core/llm.ts';
import { createAgentSdkProvider } from '../../src/distill/llm/agent-sdk-provider.ts';
import { createLlmDistiller, type LlmCall } from '../../src/distill/llm/llm-distiller.ts';
import { parseReply } from '../../src/distill/llm/reply-schema.ts';
import { createSandbox, type Sandbox } from '../support/sandbox.ts';
import { startMockAnthropic, type MockAnthropic, type Reply } from './support/mock-anthropic.ts';

const ANSWER = JSON.stringify({
  observations: [
    {
      type: 'decision',
      title: 'Use an in-memory LRU map for the user lookup cache',
      facts: ['Redis was rejected'],
    },
  ],
  summary: { request: 'cache the user lookup', completed: 'LRU cache added' },
});

/** Session transcripts under a Claude config dir (what `--resume` lists and a backfill reads). */
function sessionFiles(configDir: string): string[] {
  const projects = join(configDir, 'projects');
  if (!existsSync(projects)) return [];
  return readdirSync(projects, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.jsonl'));
}

const inboxFiles = (engramHome: string) =>
  existsSync(join(engramHome, 'inbox'))
    ? readdirSync(join(engramHome, 'inbox')).filter((f) => f.endsWith('.json'))
    : [];

describe('the Agent SDK provider', () => {
  let sb: Sandbox;
  let mock: MockAnthropic;
  let env: Record<string, string>;
  let workDir: string;

  beforeAll(async () => {
    sb = createSandbox();
    // Each request's prompt names what to answer: a scripted failure, prose, or the JSON answer.
    const reply = (text: string): Reply =>
      text.includes('[answer 503]')
        ? { error: { status: 503, type: 'overloaded_error', message: 'overloaded' } }
        : text.includes('[answer prose]') && !text.includes('second try')
          ? { text: 'Sure! This turn was about caching.', usage: { input_tokens: 200, output_tokens: 9 } }
          : { text: ANSWER, usage: { input_tokens: 321, output_tokens: 45 } };
    mock = await startMockAnthropic((ctx) => reply(mock.textOf(ctx.request)), {
      sideReply: (request) => reply(mock.textOf(request)),
    });
    const install = sb.engram(['install']);
    expect(install.status, install.stderr).toBe(0);
    expect(existsSync(join(sb.home, '.claude', 'settings.json'))).toBe(true);
    workDir = sb.project('distiller-cwd');
    const tmp = join(sb.root, 'tmp');
    mkdirSync(tmp, { recursive: true });
    env = {
      PATH: process.env['PATH'] ?? '/usr/bin:/bin',
      HOME: sb.home,
      TMPDIR: tmp,
      LANG: 'C.UTF-8',
      ENGRAM_HOME: sb.engramHome,
      ENGRAM_WORKER_AUTOSTART: 'false',
      ANTHROPIC_BASE_URL: mock.url,
      ANTHROPIC_API_KEY: 'test',
      DISABLE_TELEMETRY: '1',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_AUTOUPDATER: '1',
      CLAUDE_CODE_MAX_RETRIES: '1',
    };
  });
  afterAll(async () => {
    await mock?.close();
    sb?.cleanup();
  });

  it('answers with usage, fires none of engram\u2019s hooks and persists no session', async () => {
    const provider = createAgentSdkProvider({ model: 'claude-haiku-4-5', env, cwd: workDir });
    const reply = await provider.complete({
      system: 'You distil one turn of an AI coding session into durable project memory.',
      prompt: 'Turn: the user asked to cache the user lookup; Redis was rejected.',
      maxTokens: 800,
      signal: AbortSignal.timeout(60_000),
    });
    expect(parseReply(reply.text)).toMatchObject({
      ok: true,
      value: {
        observations: [{ type: 'decision', title: 'Use an in-memory LRU map for the user lookup cache' }],
      },
    });
    expect(reply).toMatchObject({ inputTokens: 321, outputTokens: 45 });
    const sent = mock.requests.filter((r) => mock.textOf(r).includes('Redis was rejected'));
    expect(sent.length).toBeGreaterThanOrEqual(1);
    for (const r of sent) {
      expect(r.tools ?? []).toEqual([]);
      expect((r['thinking'] as { type?: string } | undefined)?.type ?? 'disabled').toBe('disabled');
      expect(mock.textOf(r)).toContain('durable project memory');
    }
    // Nothing reached engram: no inbox file, no database, no session transcript anywhere under HOME.
    expect(inboxFiles(sb.engramHome)).toEqual([]);
    expect(existsSync(join(sb.engramHome, 'engram.db'))).toBe(false);
    expect(sessionFiles(join(sb.home, '.claude'))).toEqual([]);
  });

  it('reports a 5xx from the API as a retryable HTTP error, and a timeout as LLM_TIMEOUT', async () => {
    const provider = createAgentSdkProvider({ model: 'claude-haiku-4-5', env, cwd: workDir });
    const call = (prompt: string, timeoutMs: number) =>
      provider
        .complete({ system: 'You distil.', prompt, maxTokens: 200, signal: AbortSignal.timeout(timeoutMs) })
        .then(
          () => null,
          (e: unknown) => e,
        );
    const http = await call('[answer 503] a turn', 60_000);
    expect(http).toBeInstanceOf(EngramError);
    expect((http as EngramError).code).toBe('LLM_HTTP');
    expect((http as EngramError).message).toContain('HTTP 503');
    expect(isRetryable(http)).toBe(true);
    // 300 ms is less than the bundled CLI needs to start: the signal must end the call (and the process).
    const slow = await call('a turn', 300);
    expect((slow as EngramError).code).toBe('LLM_TIMEOUT');
  });

  it('goes through the LLM distiller: a prose answer is malformed, the retry succeeds', async () => {
    let n = 0;
    const provider = createAgentSdkProvider({ model: 'claude-haiku-4-5', env, cwd: workDir });
    const retrying = {
      ...provider,
      complete: (r: Parameters<typeof provider.complete>[0]) =>
        provider.complete({ ...r, prompt: n++ === 0 ? r.prompt : `${r.prompt} (second try)` }),
    };
    const calls: LlmCall[] = [];
    const distiller = createLlmDistiller({
      provider: retrying,
      clock: { now: () => 0 },
      sleep: async () => undefined,
      maxInputChars: 12_000,
      maxOutputTokens: 400,
      timeoutMs: 60_000,
      maxFailures: 2,
    });
    const heuristic = { observations: [], summary: null };
    const events = [
      {
        seq: 1,
        sessionId: 's',
        projectId: 'prj_0000000000000000' as never,
        cwd: '/p',
        transcriptPath: null,
        at: 1,
        event: { kind: 'prompt' as const, prompt: '[answer prose] cache the user lookup' },
        attempts: 0,
      },
    ];
    const r = await distiller.distilTurn(
      { projectName: 'p', projectRoot: '/p', events, previousSummary: null, heuristic, memories: [] },
      { budget: () => null, record: (c) => (calls.push(c), calls.length) },
    );
    expect(r.ok).toBe(true);
    expect(calls.map((c) => [c.provider, c.outcome, c.inputTokens, c.outputTokens])).toEqual([
      ['agent-sdk', 'malformed', 200, 9],
      ['agent-sdk', 'ok', 321, 45],
    ]);
  });

  it('control: the same SDK without the lock-down does fire the installed hooks and keeps a session', async () => {
    for await (const m of query({
      prompt: 'Say hello.',
      options: {
        model: 'claude-haiku-4-5',
        cwd: workDir,
        env,
        tools: [],
        maxTurns: 1,
        settingSources: ['user'],
      },
    })) {
      if ((m as { type?: string }).type === 'result') break;
    }
    const captured =
      inboxFiles(sb.engramHome).length + (existsSync(join(sb.engramHome, 'engram.db')) ? 1 : 0);
    expect(captured).toBeGreaterThan(0);
    expect(sessionFiles(join(sb.home, '.claude')).length).toBeGreaterThan(0);
  });
});
