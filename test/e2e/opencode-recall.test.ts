/**
 * engram in the real opencode (pinned, against the loopback chat completions mock): `engram install
 * --host opencode` writes engram's plugin into opencode's plugin folder (temporary HOME, XDG directories
 * and ENGRAM_HOME); an `opencode run` session in a git repository is captured through it — the session
 * start, the prompt, the shell calls (one failing), the end of the turn and the session's end when
 * opencode exits; the next opencode session of the repository gets what the first taught in its system
 * prompt; the turn's end reads the session from opencode's store (the assistant's words between tool
 * calls reach memory without a backfill), so `engram backfill --host opencode` finds nothing new in it.
 * `engram uninstall --host opencode` leaves the config folder as it was.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sequence, startMockModel, type MockModel } from '../support/mock-models/server.ts';
import { CLI_BIN } from '../support/sandbox.ts';
import { opencodeEnv, opencodeInvocation } from './support/hosts/host-configs.ts';
import { GREETING_COMMAND } from './support/hosts/host-fixtures.ts';
import { createHostWorld, runHostCli, shellCall, type HostWorld } from './support/hosts/host-session.ts';
import { ensurePinnedCli, OPENCODE } from './support/hosts/pinned-cli.ts';

const PREFERENCE = 'Always use pnpm in this repository, never npm: the lockfile is pnpm-lock.yaml.';

describe('engram in opencode: captured through its plugin, recalled in the next session', () => {
  let world: HostWorld;
  let cliDir: string;
  let engramHome: string;
  const mocks: MockModel[] = [];

  const engram = (args: string[]) => {
    const r = spawnSync(process.execPath, [CLI_BIN, ...args], {
      cwd: world.project,
      env: {
        ...opencodeEnv(world),
        ENGRAM_HOME: engramHome,
        ENGRAM_WORKER_AUTOSTART: 'false',
      },
    });
    return { status: r.status, stdout: r.stdout.toString(), stderr: r.stderr.toString() };
  };

  /** One `opencode run` against a fresh mock, with engram's plugin only (no recorder). */
  const session = async (prompt: string, script: Parameters<typeof sequence>[0]) => {
    const mock = await startMockModel(sequence(script));
    mocks.push(mock);
    const inv = opencodeInvocation(world, { cliDir, apiUrl: mock.url, prompt, recorderPlugin: false });
    const run = await runHostCli(inv.bin, inv.args, {
      cwd: world.project,
      env: { ...inv.env, ENGRAM_HOME: engramHome, ENGRAM_WORKER_AUTOSTART: 'false' },
      timeoutMs: 120_000,
    });
    expect(run.timedOut, run.stderr).toBe(false);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(mock.errors).toEqual([]);
    return { mock, run };
  };

  /** Every hook event engram has durably received (inbox files not yet imported, or imported). */
  const hooksSeen = () => {
    expect(engram(['flush']).status).toBe(0);
    const status = JSON.parse(engram(['status', '--json']).stdout) as {
      hosts: { host: string; sessions: number }[];
      hooks: { hook: string; count: number }[];
    };
    return { hosts: status.hosts, hooks: Object.fromEntries(status.hooks.map((h) => [h.hook, h.count])) };
  };

  beforeAll(async () => {
    cliDir = await ensurePinnedCli(OPENCODE);
    world = createHostWorld('opencode');
    engramHome = join(world.root, 'engram-home');
  }, 20 * 60_000);

  afterAll(async () => {
    for (const m of mocks) await m.close();
    world?.cleanup();
  });

  it('installs its plugin where opencode looks for one, and doctor sees it', () => {
    const installed = engram(['install', '--host', 'opencode', '--json']);
    expect(installed.status, installed.stderr).toBe(0);
    const plugin = join(world.home, '.config', 'opencode', 'plugins', 'engram.js');
    // Nothing of opencode's was there yet: engram made the folders, and says so.
    expect(JSON.parse(installed.stdout)).toMatchObject({
      pluginPath: plugin,
      outcome: 'created',
      createdDirs: [
        join(world.home, '.config'),
        join(world.home, '.config', 'opencode'),
        join(world.home, '.config', 'opencode', 'plugins'),
      ],
    });
    expect(existsSync(plugin)).toBe(true);
    const doctor = JSON.parse(engram(['doctor', '--json']).stdout) as {
      checks: { name: string; status: string }[];
    };
    expect(doctor.checks).toContainEqual(expect.objectContaining({ name: 'plugin opencode', status: 'ok' }));
  });

  it('a preference said in one opencode session is in the system prompt of the next', async () => {
    const first = await session(PREFERENCE, [
      { toolCalls: [shellCall('opencode', 'cat README.md')] },
      { toolCalls: [shellCall('opencode', 'ls missing-dir')] },
      { text: 'Noted: pnpm only.' },
    ]);
    expect(first.mock.mainTurns()[0]?.text).not.toContain('# engram memory for project'); // nothing yet

    const seen = hooksSeen();
    expect(seen.hosts).toEqual([expect.objectContaining({ host: 'opencode', sessions: 1 })]);
    expect(seen.hooks).toMatchObject({
      SessionStart: 1,
      UserPromptSubmit: 1,
      PostToolUse: 2,
      Stop: 1,
      SessionEnd: 1,
    });
    const found = JSON.parse(engram(['search', 'pnpm', '--json']).stdout) as {
      results: { id: string; title: string }[];
    };
    const memory = found.results.find((r) => r.title.includes('pnpm'));
    expect(memory, JSON.stringify(found)).toBeDefined();
    const shown = JSON.parse(engram(['show', memory?.id ?? '', '--json']).stdout) as { host: string };
    expect(shown.host).toBe('opencode');

    // The turn's end already read the session from opencode's store (`flush` above): backfilling it
    // finds nothing new in it, makes no second session and says the preference no second time.
    const pnpmTitles = () =>
      (JSON.parse(engram(['search', 'pnpm', '--json']).stdout) as { results: { title: string }[] }).results
        .map((r) => r.title)
        .filter((t) => t.includes('pnpm'));
    const titles = pnpmTitles();
    const backfilled = engram(['backfill', '--host', 'opencode', '--json']);
    expect(backfilled.status, backfilled.stderr).toBe(0);
    expect(JSON.parse(backfilled.stdout)).toMatchObject({
      files: 1,
      records: 0,
      created: 0,
      hosts: { opencode: 1 },
    });
    expect(hooksSeen().hosts).toEqual([expect.objectContaining({ host: 'opencode', sessions: 1 })]);
    expect(pnpmTitles()).toEqual(titles);

    const second = await session('Install the deps', [{ text: 'Using pnpm.' }]);
    const system = second.mock.mainTurns()[0]?.text ?? '';
    expect(system).toContain('# engram memory for project'); // SessionStart's index, in the system prompt
    expect(system).toContain('pnpm-lock.yaml');
    expect(hooksSeen().hosts).toEqual([expect.objectContaining({ host: 'opencode', sessions: 2 })]);
  });

  it('the assistant’s words between tool calls are read from opencode’s store at the turn’s end', async () => {
    // Said before the shell call, in the same message: no plugin event carries it (the Stop carries
    // only the turn's last words), so only opencode's store can bring it to engram.
    const DECISION =
      'I will use printf instead of echo to write the greeting into notes.md, since printf writes the newline the same way in every shell.';
    await session('Put the greeting into notes.md', [
      { text: DECISION, toolCalls: [shellCall('opencode', GREETING_COMMAND)] },
      { text: 'Done.' },
    ]);
    hooksSeen(); // `engram flush`: the turn distilled as the worker does it, and nothing backfilled
    const found = JSON.parse(engram(['search', 'printf instead of echo', '--json']).stdout) as {
      results: { id: string; title: string }[];
    };
    const memory = found.results.find((r) => r.title.includes('printf instead of echo'));
    expect(memory, JSON.stringify(found)).toBeDefined();
    const shown = JSON.parse(engram(['show', memory?.id ?? '', '--json']).stdout) as {
      host: string;
      narrative: string;
    };
    expect(shown.host).toBe('opencode');
    expect(shown.narrative).toContain(DECISION);
    // The turn's end wrote the session's log where backfill writes it: backfill finds nothing new.
    const logs = readdirSync(join(engramHome, 'host-sessions', 'opencode'));
    expect(logs).toHaveLength(3);
    const backfilled = JSON.parse(engram(['backfill', '--host', 'opencode', '--json']).stdout) as {
      files: number;
      records: number;
      created: number;
    };
    expect(backfilled).toMatchObject({ files: 3, records: 0, created: 0 });
  });

  it('uninstall removes the plugin and nothing else', () => {
    const dir = join(world.home, '.config', 'opencode');
    const before = readdirSync(dir).sort();
    const removed = engram(['uninstall', '--host', 'opencode']);
    expect(removed.status, removed.stderr).toBe(0);
    expect(existsSync(join(dir, 'plugins', 'engram.js'))).toBe(false);
    // engram made plugins/ (empty now: removed); opencode has filled the folders above it since: kept.
    expect(readdirSync(dir).sort()).toEqual(before.filter((f) => f !== 'plugins'));
    expect(JSON.parse(engram(['uninstall', '--host', 'opencode', '--json']).stdout)).toMatchObject({
      removed: false,
      foreign: false,
    });
  });
});
