/**
 * engram in the real Gemini CLI, end to end: `engram install --host gemini` (temporary HOME and
 * ENGRAM_HOME), a real `gemini -p … --yolo` session against the loopback Gemini API mock in a git
 * repository — the user states a rule, a command fails and is fixed — captured by engram's hooks; the
 * next Gemini session of the repository is told the rule at its start, and so is a real Claude Code
 * session of the same repository, the memory saying it came from Gemini.
 */
import { randomUUID } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sequence, startMockModel, type MockModel } from '../support/mock-models/server.ts';
import { CLI_BIN } from '../support/sandbox.ts';
import { ensureClaudeCli, runClaude } from './support/claude-cli.ts';
import { startMockAnthropic, type MockAnthropic } from './support/mock-anthropic.ts';
import { geminiInvocation } from './support/hosts/host-configs.ts';
import { createHostWorld, runHostCli, shellCall, type HostWorld } from './support/hosts/host-session.ts';
import { ensurePinnedCli, GEMINI } from './support/hosts/pinned-cli.ts';

const RULE = 'Always use pnpm in this repository, never npm: the lockfile is pnpm-lock.yaml.';
const CHECK = 'node check.mjs';
const FIX = 'cp config.example.json config.json';

describe('engram in Gemini CLI', () => {
  let world: HostWorld;
  let mock: MockModel;
  let claudeMock: MockAnthropic;
  let cli: string;
  let claude: string;
  let engramHome: string;

  const engram = (args: string[]) => {
    const r = spawnSync(process.execPath, [CLI_BIN, ...args], {
      cwd: world.project,
      env: {
        PATH: process.env['PATH'] ?? '/usr/bin:/bin',
        HOME: world.home,
        ENGRAM_HOME: engramHome,
        ENGRAM_WORKER_AUTOSTART: 'false',
      },
    });
    return { status: r.status, stdout: r.stdout.toString(), stderr: r.stderr.toString() };
  };

  /** Gemini's settings for the mock, with engram's hooks installed by `engram install --host gemini`. */
  const gemini = async (apiUrl: string, prompt: string) => {
    const inv = geminiInvocation(world, { cliDir: cli, apiUrl, prompt });
    const settings = join(world.home, '.gemini', 'settings.json');
    const { hooks: _recorder, ...rest } = JSON.parse(readFileSync(settings, 'utf8')) as Record<
      string,
      unknown
    >;
    writeFileSync(settings, JSON.stringify(rest, null, 2));
    const installed = engram(['install', '--host', 'gemini']);
    expect(installed.status, installed.stderr).toBe(0);
    return runHostCli(inv.bin, inv.args, {
      cwd: world.project,
      env: { ...inv.env, ENGRAM_HOME: engramHome, ENGRAM_WORKER_AUTOSTART: 'false' },
      timeoutMs: 120_000,
    });
  };

  beforeAll(async () => {
    [cli, claude] = await Promise.all([ensurePinnedCli(GEMINI), ensureClaudeCli()]);
    world = createHostWorld('gemini');
    engramHome = join(world.root, 'engram-home');
    writeFileSync(
      join(world.project, 'check.mjs'),
      "import { readFileSync } from 'node:fs';\nJSON.parse(readFileSync('config.json', 'utf8'));\nconsole.log('config ok');\n",
    );
    writeFileSync(join(world.project, 'config.example.json'), '{"port": 8080}\n');
    mock = await startMockModel(
      sequence([
        { toolCalls: [shellCall('gemini', CHECK)] },
        { toolCalls: [shellCall('gemini', FIX)] },
        { toolCalls: [shellCall('gemini', CHECK)] },
        { text: 'Noted: pnpm only. check.mjs needs config.json, copied from config.example.json.' },
      ]),
    );
    claudeMock = await startMockAnthropic(() => ({ text: 'I will use pnpm.' }));
  }, 20 * 60_000);

  afterAll(async () => {
    await mock?.close();
    await claudeMock?.close();
    world?.cleanup();
  });

  it('captures a session through its hooks and tells the next Gemini and Claude Code sessions', async () => {
    const run = await gemini(mock.url, RULE);
    expect(run.timedOut, run.stderr).toBe(false);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(mock.errors).toEqual([]);
    expect(mock.mainTurns().length).toBe(4);
    expect(run.stderr).not.toMatch(/hook.*(?:fail|error)/i);

    expect(engram(['flush']).status).toBe(0);
    const status = JSON.parse(engram(['status', '--json']).stdout) as {
      hosts: { host: string; sessions: number }[];
      hooks: { hook: string; count: number }[];
    };
    expect(status.hosts).toEqual([expect.objectContaining({ host: 'gemini', sessions: 1 })]);
    expect(Object.fromEntries(status.hooks.map((h) => [h.hook, h.count]))).toEqual({
      SessionStart: 1,
      BeforeAgent: 1,
      AfterTool: 3,
      AfterAgent: 1,
      SessionEnd: 1,
      transcript: 1, // the chat file, read by the worker's Gemini reader
    });
    const found = JSON.parse(engram(['search', 'pnpm', '--json']).stdout) as {
      results: { id: string; title: string }[];
    };
    const memory = found.results.find((r) => r.title.includes('pnpm'));
    expect(memory, JSON.stringify(found)).toBeDefined();
    expect((JSON.parse(engram(['show', memory?.id ?? '', '--json']).stdout) as { host: string }).host).toBe(
      'gemini',
    );
    // The failing command and what fixed it: a gotcha of this repository.
    const gotchas = JSON.parse(engram(['search', 'check.mjs', '--json']).stdout) as {
      results: { type: string; title: string }[];
    };
    expect(gotchas.results).toContainEqual(
      expect.objectContaining({
        type: 'gotcha',
        title: expect.stringMatching(/node check\.mjs.*config\.json.*cp config\.example\.json config\.json/),
      }),
    );

    // The next Gemini session: the rule reaches the model with the prompt (Gemini's -p mode).
    const second = await startMockModel(sequence([{ text: 'Using pnpm.' }]));
    try {
      const again = await gemini(second.url, 'Install the deps');
      expect(again.exitCode, again.stderr).toBe(0);
      expect(second.mainTurns()[0]?.text).toContain(RULE);
      expect(second.mainTurns()[0]?.text).toContain(FIX);
    } finally {
      await second.close();
    }

    // A Claude Code session of the same repository.
    expect(engram(['install']).status).toBe(0);
    const prompt = 'Add a test script to package.json';
    const r = await runClaude({
      bin: claude,
      prompt,
      cwd: world.project,
      home: world.home,
      apiUrl: claudeMock.url,
      sessionId: randomUUID(),
      env: { ENGRAM_HOME: engramHome, ENGRAM_WORKER_AUTOSTART: 'false' },
      timeoutMs: 60_000,
    });
    expect(r.exitCode, r.stderr).toBe(0);
    const sent = claudeMock
      .requestsFor(prompt)
      .map((q) => claudeMock.textOf(q))
      .join('\n');
    expect(sent).toContain(RULE);
  });
});
