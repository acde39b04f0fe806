/**
 * One memory across agents, end to end with both real CLIs: engram's hooks installed into Codex with
 * `engram install --host codex` (temporary HOME, CODEX_HOME and ENGRAM_HOME), a real `codex exec`
 * session against the loopback Responses mock in a git repository, captured by engram; then a real
 * Claude Code session (`engram install`, the Anthropic mock) in the same repository is told what the
 * Codex session taught — and the memory says it came from Codex.
 */
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sequence, startMockModel, type MockModel } from '../support/mock-models/server.ts';
import { CLI_BIN } from '../support/sandbox.ts';
import { ensureClaudeCli, runClaude } from './support/claude-cli.ts';
import { startMockAnthropic, type MockAnthropic } from './support/mock-anthropic.ts';
import { codexInvocation } from './support/hosts/host-configs.ts';
import { createHostWorld, runHostCli, shellCall, type HostWorld } from './support/hosts/host-session.ts';
import { CODEX, ensurePinnedCli } from './support/hosts/pinned-cli.ts';
import { spawnSync } from 'node:child_process';

const PREFERENCE = 'Always use pnpm in this repository, never npm: the lockfile is pnpm-lock.yaml.';
const CLAUDE_PROMPT = 'Add a test script to package.json';

describe('one memory across Codex CLI and Claude Code', () => {
  let world: HostWorld;
  let codexMock: MockModel;
  let claudeMock: MockAnthropic;
  let claude: string;
  let codexCli: string;
  let engramHome: string;
  let codexHome: string;

  const engram = (args: string[]) => {
    const r = spawnSync(process.execPath, [CLI_BIN, ...args], {
      cwd: world.project,
      env: {
        PATH: process.env['PATH'] ?? '/usr/bin:/bin',
        HOME: world.home,
        ENGRAM_HOME: engramHome,
        CODEX_HOME: codexHome,
        ENGRAM_WORKER_AUTOSTART: 'false',
      },
    });
    return { status: r.status, stdout: r.stdout.toString(), stderr: r.stderr.toString() };
  };

  beforeAll(async () => {
    [codexCli, claude] = await Promise.all([ensurePinnedCli(CODEX), ensureClaudeCli()]);
    world = createHostWorld('codex');
    engramHome = join(world.root, 'engram-home');
    codexHome = join(world.home, '.codex');
    codexMock = await startMockModel(
      sequence([{ toolCalls: [shellCall('codex', 'cat README.md')] }, { text: 'Noted: pnpm only.' }]),
    );
    claudeMock = await startMockAnthropic(() => ({ text: 'I will use pnpm.' }));
  }, 20 * 60_000);

  afterAll(async () => {
    await codexMock?.close();
    await claudeMock?.close();
    world?.cleanup();
  });

  it('a preference said in a Codex session is told to the next Claude Code session of the repository', async () => {
    // Codex's model provider and config (the test's own hooks.json replaced by engram's).
    const inv = codexInvocation(world, { cliDir: codexCli, apiUrl: codexMock.url, prompt: PREFERENCE });
    rmSync(join(codexHome, 'hooks.json'));
    const installed = engram(['install', '--host', 'codex']);
    expect(installed.status, installed.stderr).toBe(0);
    expect(installed.stdout).toContain('/hooks'); // how to trust them (the run below bypasses trust)

    const run = await runHostCli(inv.bin, inv.args, {
      cwd: world.project,
      env: { ...inv.env, ENGRAM_HOME: engramHome, ENGRAM_WORKER_AUTOSTART: 'false' },
      timeoutMs: 120_000,
    });
    expect(run.timedOut, run.stderr).toBe(false);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(codexMock.errors).toEqual([]);
    expect(run.stderr).not.toMatch(/hook: \w+ Failed/);

    const flushed = engram(['flush']);
    expect(flushed.status, flushed.stderr).toBe(0);
    const status = JSON.parse(engram(['status', '--json']).stdout) as {
      hosts: { host: string; sessions: number }[];
      hooks: { hook: string; count: number }[];
    };
    expect(status.hosts).toEqual([expect.objectContaining({ host: 'codex', sessions: 1 })]);
    const seen = Object.fromEntries(status.hooks.map((h) => [h.hook, h.count]));
    expect(seen).toMatchObject({
      SessionStart: 1,
      UserPromptSubmit: 1,
      PostToolUse: 1,
      Stop: 1,
      SessionEnd: 1,
    });
    const found = JSON.parse(engram(['search', 'pnpm', '--json']).stdout) as {
      results: { id: string; title: string }[];
    };
    const memory = found.results.find((r) => r.title.includes('pnpm'));
    expect(memory, JSON.stringify(found)).toBeDefined();
    expect((JSON.parse(engram(['show', memory?.id ?? '', '--json']).stdout) as { host: string }).host).toBe(
      'codex',
    );

    // Claude Code in the same repository.
    const claudeInstalled = engram(['install']);
    expect(claudeInstalled.status, claudeInstalled.stderr).toBe(0);
    const r = await runClaude({
      bin: claude,
      prompt: CLAUDE_PROMPT,
      cwd: world.project,
      home: world.home,
      apiUrl: claudeMock.url,
      sessionId: randomUUID(),
      env: { ENGRAM_HOME: engramHome, ENGRAM_WORKER_AUTOSTART: 'false' },
      timeoutMs: 60_000,
    });
    expect(r.exitCode, r.stderr).toBe(0);
    const sent = claudeMock
      .requestsFor(CLAUDE_PROMPT)
      .map((q) => claudeMock.textOf(q))
      .join('\n');
    expect(sent).toContain('SessionStart hook additional context');
    expect(sent).toContain(PREFERENCE);

    // A second Codex session is told too: engram's answer passes Codex's strict output check.
    const second = await startMockModel(sequence([{ text: 'Using pnpm.' }]));
    try {
      const again = codexInvocation(world, {
        cliDir: codexCli,
        apiUrl: second.url,
        prompt: 'Install the deps',
      });
      rmSync(join(codexHome, 'hooks.json'));
      expect(engram(['install', '--host', 'codex']).status).toBe(0);
      const run2 = await runHostCli(again.bin, again.args, {
        cwd: world.project,
        env: { ...again.env, ENGRAM_HOME: engramHome, ENGRAM_WORKER_AUTOSTART: 'false' },
        timeoutMs: 120_000,
      });
      expect(run2.exitCode, run2.stderr).toBe(0);
      expect(run2.stderr).not.toMatch(/hook: \w+ Failed/);
      expect(second.mainTurns()[0]?.text).toContain(PREFERENCE);
    } finally {
      await second.close();
    }
  });
});
