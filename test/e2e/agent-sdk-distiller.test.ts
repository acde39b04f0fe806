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
import { createAgentSdkProvider } from '../../src/distill/llm/agent-sdk-provider.ts';
import { parseReply } from '../../src/distill/llm/reply-schema.ts';
import { createSandbox, type Sandbox } from '../support/sandbox.ts';
import { startMockAnthropic, type MockAnthropic } from './support/mock-anthropic.ts';

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
    mock = await startMockAnthropic(
      () => ({ text: ANSWER, usage: { input_tokens: 321, output_tokens: 45 } }),
      {
        sideReply: () => ({ text: ANSWER, usage: { input_tokens: 321, output_tokens: 45 } }),
      },
    );
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
      expect(mock.textOf(r)).toContain('durable project memory');
    }
    // Nothing reached engram: no inbox file, no database, no session transcript anywhere under HOME.
    expect(inboxFiles(sb.engramHome)).toEqual([]);
    expect(existsSync(join(sb.engramHome, 'engram.db'))).toBe(false);
    expect(sessionFiles(join(sb.home, '.claude'))).toEqual([]);
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
