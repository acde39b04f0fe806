/**
 * The Claude Code plugin's hook launcher (plugins/engram/scripts/run-hook.cjs) as Claude Code runs it:
 * `node run-hook.cjs` with a payload on stdin and whatever PATH the session has. With engram installed
 * the way npm installs a command (a symlink on PATH to the package's bin/engram) it runs engram's hook;
 * without it, it still exits 0. The manifests agree with what `engram install` registers.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOOK_EVENTS } from '../../src/core/model.ts';
import { pathWithout } from '../support/path-without.ts';
import { CLI_BIN, createSandbox, payloads, REPO_ROOT, type Sandbox } from '../support/sandbox.ts';

const PLUGIN = join(REPO_ROOT, 'plugins', 'engram');
const LAUNCHER = join(PLUGIN, 'scripts', 'run-hook.cjs');
const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;

describe('the Claude Code plugin', () => {
  let sb: Sandbox;
  /** A PATH directory holding `engram` as npm links it; another with a stray `engram` (no hook bundle). */
  let npmBin: string;
  let strayBin: string;

  beforeAll(() => {
    sb = createSandbox();
    npmBin = join(sb.root, 'npm-global', 'bin');
    mkdirSync(npmBin, { recursive: true });
    symlinkSync(CLI_BIN, join(npmBin, 'engram'));
    strayBin = join(sb.root, 'stray', 'bin');
    mkdirSync(strayBin, { recursive: true });
    writeFileSync(join(strayBin, 'engram'), '#!/bin/sh\nexit 3\n', { mode: 0o755 });
  });
  afterAll(() => sb.cleanup());

  const launch = (payload: unknown, pathDirs: string[]) => {
    const r = spawnSync(process.execPath, [LAUNCHER], {
      input: JSON.stringify(payload),
      cwd: sb.root,
      // node stays reachable; an engram installed on this machine (npm link puts one beside node) does not.
      env: {
        ...sb.env,
        PATH: [...pathDirs, pathWithout('engram', [dirname(process.execPath)], sb.root)].join(delimiter),
      },
      encoding: 'utf8',
    });
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
  };
  const queue = () =>
    (JSON.parse(sb.engram(['status', '--json']).stdout) as { queue: { inbox: number } }).queue;

  it('registers every hook event engram install does, through the launcher, and the MCP server', () => {
    const hooks = readJson(join(PLUGIN, 'hooks', 'hooks.json'))['hooks'] as Record<
      string,
      { hooks: { type: string; command: string }[] }[]
    >;
    expect(Object.keys(hooks).sort()).toEqual([...HOOK_EVENTS].sort());
    for (const groups of Object.values(hooks))
      expect(groups.flatMap((g) => g.hooks.map((h) => h.command))).toEqual([
        'node "${CLAUDE_PLUGIN_ROOT}/scripts/run-hook.cjs"',
      ]);
    expect(readJson(join(PLUGIN, '.mcp.json'))).toEqual({
      mcpServers: { engram: { command: 'engram', args: ['mcp'] } },
    });
    const manifest = readJson(join(PLUGIN, '.claude-plugin', 'plugin.json'));
    expect(manifest['name']).toBe('engram');
    expect(manifest['version']).toBe(readJson(join(REPO_ROOT, 'package.json'))['version']);
    const market = readJson(join(REPO_ROOT, '.claude-plugin', 'marketplace.json'));
    expect(market['plugins']).toEqual([
      expect.objectContaining({ name: 'engram', source: './plugins/engram' }),
    ]);
  });

  it('runs the hook of the engram on PATH (past a stray one without a hook bundle)', () => {
    const cwd = sb.project('plugged', 'git@github.com:example/plugged.git');
    const p = payloads('plugin-session', cwd);
    const tool = launch(p.tool('Bash', { command: 'npm test' }, { stdout: 'ok\n', stderr: '' }), [
      strayBin,
      npmBin,
    ]);
    expect(tool).toMatchObject({ status: 0, stdout: '' });
    expect(queue().inbox).toBe(1);
    const start = launch(p.start(), [npmBin]);
    expect(start).toMatchObject({ status: 0, stderr: '' });
    // SessionStart goes through engram's database half (dist/hook-context.cjs), which leaves the event
    // in the inbox with what it injected (nothing yet: no memories).
    const inboxDir = join(sb.engramHome, 'inbox');
    const records = readdirSync(inboxDir)
      .filter((n) => n.endsWith('.json'))
      .map((n) => JSON.parse(readFileSync(join(inboxDir, n), 'utf8')) as Record<string, unknown>);
    const started = records.find((r) => r['hook'] === 'SessionStart');
    expect(started?.['injected']).toMatchObject({ text: '', tokens: 0, observationIds: [] });
    expect(sb.engram(['flush']).status).toBe(0);
    const hooks = (JSON.parse(sb.engram(['status', '--json']).stdout) as { hooks: { hook: string }[] }).hooks;
    expect(hooks.map((h) => h.hook)).toContain('SessionStart');
  });

  it('exits 0 without engram on PATH, and tells the user at SessionStart only', () => {
    const before = queue().inbox;
    const p = payloads('no-engram', sb.project('unplugged'));
    const start = launch(p.start(), [strayBin]);
    expect(start.status).toBe(0);
    expect((JSON.parse(start.stdout) as { systemMessage: string }).systemMessage).toContain(
      'the engram command is not on PATH',
    );
    const tool = launch(p.tool('Bash', { command: 'ls' }, { stdout: '', stderr: '' }), []);
    expect(tool).toMatchObject({ status: 0, stdout: '' });
    expect(tool.stderr).toContain('not on PATH');
    const garbage = spawnSync(process.execPath, [LAUNCHER], { input: 'not json', env: { PATH: '' } });
    expect(garbage.status).toBe(0);
    expect(queue().inbox).toBe(before);
  });
});
