/**
 * engram in the real GitHub Copilot CLI (pinned, BYOK offline against the loopback chat completions
 * mock): `engram install --host copilot` puts engram's hooks in `$COPILOT_HOME/settings.json` (temporary
 * HOME, COPILOT_HOME and ENGRAM_HOME); a `copilot -p` session in a git repository is captured through
 * them, its events.jsonl read by the worker; the next Copilot session of the repository is told what
 * the first one taught, through the SessionStart hook's additionalContext reaching the model.
 */
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sequence, startMockModel, type MockModel } from '../support/mock-models/server.ts';
import { CLI_BIN } from '../support/sandbox.ts';
import { copilotInvocation } from './support/hosts/host-configs.ts';
import { createHostWorld, runHostCli, shellCall, type HostWorld } from './support/hosts/host-session.ts';
import { COPILOT, ensurePinnedCli } from './support/hosts/pinned-cli.ts';

const PREFERENCE = 'Always use pnpm in this repository, never npm: the lockfile is pnpm-lock.yaml.';

describe('engram in GitHub Copilot CLI: captured through its hooks, recalled in the next session', () => {
  let world: HostWorld;
  let cliDir: string;
  let engramHome: string;
  let copilotHome: string;
  const mocks: MockModel[] = [];

  const engram = (args: string[]) => {
    const r = spawnSync(process.execPath, [CLI_BIN, ...args], {
      cwd: world.project,
      env: {
        PATH: process.env['PATH'] ?? '/usr/bin:/bin',
        HOME: world.home,
        ENGRAM_HOME: engramHome,
        COPILOT_HOME: copilotHome,
        ENGRAM_WORKER_AUTOSTART: 'false',
      },
    });
    return { status: r.status, stdout: r.stdout.toString(), stderr: r.stderr.toString() };
  };

  /** One `copilot -p` session against a fresh mock, with engram's hooks (the test's recorder hooks removed). */
  const session = async (prompt: string, script: Parameters<typeof sequence>[0]) => {
    const mock = await startMockModel(sequence(script));
    mocks.push(mock);
    const sessionId = randomUUID();
    const inv = copilotInvocation(world, { cliDir, apiUrl: mock.url, prompt, sessionId });
    rmSync(join(copilotHome, 'settings.json'));
    const installed = engram(['install', '--host', 'copilot']);
    expect(installed.status, installed.stderr).toBe(0);
    const run = await runHostCli(inv.bin, inv.args, {
      cwd: world.project,
      env: { ...inv.env, ENGRAM_HOME: engramHome, ENGRAM_WORKER_AUTOSTART: 'false' },
      timeoutMs: 120_000,
    });
    expect(run.timedOut, run.stderr).toBe(false);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(mock.errors).toEqual([]);
    return { mock, sessionId, run };
  };

  beforeAll(async () => {
    cliDir = await ensurePinnedCli(COPILOT);
    world = createHostWorld('copilot');
    engramHome = join(world.root, 'engram-home');
    copilotHome = join(world.home, '.copilot');
  }, 20 * 60_000);

  afterAll(async () => {
    for (const m of mocks) await m.close();
    world?.cleanup();
  });

  it('a preference said in one Copilot session is told to the next one of the repository', async () => {
    const first = await session(PREFERENCE, [
      { toolCalls: [shellCall('copilot', 'cat README.md')] },
      { text: 'Noted: pnpm only.' },
    ]);

    expect(first.mock.mainTurns()[0]?.text).not.toContain('# engram memory for project'); // nothing yet
    expect(engram(['flush']).status).toBe(0);
    const status = JSON.parse(engram(['status', '--json']).stdout) as {
      hosts: { host: string; sessions: number }[];
      hooks: { hook: string; count: number }[];
    };
    expect(status.hosts).toEqual([expect.objectContaining({ host: 'copilot', sessions: 1 })]);
    const seen = Object.fromEntries(status.hooks.map((h) => [h.hook, h.count]));
    expect(seen).toMatchObject({
      SessionStart: 1,
      UserPromptSubmit: 1,
      PostToolUse: 1,
      Stop: 1,
      SessionEnd: 1,
    });
    // The worker read the session's events.jsonl (the one Stop named) after the turn.
    const metrics = JSON.parse(engram(['metrics', '--json']).stdout) as {
      capture: { transcripts: { files: number }; recordTypes: { type: string; seen: number }[] };
    };
    expect(metrics.capture.transcripts.files).toBe(1);
    expect(metrics.capture.recordTypes).toContainEqual(
      expect.objectContaining({ type: 'user.message', seen: 1 }),
    );
    const found = JSON.parse(engram(['search', 'pnpm', '--json']).stdout) as {
      results: { id: string; title: string }[];
    };
    const memory = found.results.find((r) => r.title.includes('pnpm'));
    expect(memory, JSON.stringify(found)).toBeDefined();
    const shown = JSON.parse(engram(['show', memory?.id ?? '', '--json']).stdout) as { host: string };
    expect(shown.host).toBe('copilot');

    // The next session: engram's additionalContext reaches the model before the prompt.
    const second = await session('Install the deps', [{ text: 'Using pnpm.' }]);
    const sent = second.mock.mainTurns()[0]?.text ?? '';
    expect(sent).toContain('# engram memory for project'); // SessionStart's index, before the prompt
    expect(sent.indexOf(PREFERENCE)).toBeLessThan(sent.lastIndexOf('Install the deps'));
    expect(sent).toContain('Install the deps');
    expect(second.run.stderr).not.toMatch(/hook.*(?:failed|error)/i);
  });
});
