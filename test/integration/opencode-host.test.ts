/**
 * engram for opencode, on the real bundles: `engram install --host opencode` writes engram's plugin where
 * opencode looks ($OPENCODE_CONFIG_DIR, else $XDG_CONFIG_HOME/opencode, else ~/.config/opencode), never
 * over a file that is not engram's; doctor checks it and fails once what it runs is gone; the installed
 * plugin, loaded as opencode loads it and fed the session recorded from the real opencode, runs the real
 * hook bundle, and the session is in engram.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createSandbox, REPO_ROOT, type Sandbox } from '../support/sandbox.ts';

const FIXTURES = join(REPO_ROOT, 'test', 'fixtures', 'hosts', 'opencode');

type Hooks = Record<string, (...args: unknown[]) => Promise<void>>;

/** The recorded callbacks and bus events, in order, with the project placed in this sandbox. */
function recordedSession(project: string): { event: string; payload: Record<string, unknown> }[] {
  const order = JSON.parse(readFileSync(join(FIXTURES, 'order.json'), 'utf8')) as string[];
  const next = new Map<string, number>();
  return order.map((event) => {
    const i = next.get(event) ?? 0;
    next.set(event, i + 1);
    const text = readFileSync(join(FIXTURES, 'payloads', `${event}.json`), 'utf8').replaceAll(
      '{{project}}',
      project,
    );
    return { event, payload: (JSON.parse(text) as { payload: Record<string, unknown> }[])[i]?.payload ?? {} };
  });
}

describe('engram for opencode', () => {
  let sb: Sandbox;
  afterEach(() => sb?.cleanup());

  it('installs where opencode looks, refuses a file that is not its own, and doctor follows', () => {
    sb = createSandbox();
    const xdg = join(sb.home, 'xdg');
    const custom = join(sb.home, 'custom-opencode');
    const env = { XDG_CONFIG_HOME: xdg };
    const first = sb.engram(['install', '--host', 'opencode', '--json'], { env });
    expect(first.status, first.stderr).toBe(0);
    const plugin = join(xdg, 'opencode', 'plugins', 'engram.js');
    expect(JSON.parse(first.stdout)).toMatchObject({
      host: 'opencode',
      pluginPath: plugin,
      outcome: 'created',
    });
    const again = sb.engram(['install', '--host', 'opencode', '--json'], { env });
    expect(JSON.parse(again.stdout)).toMatchObject({ outcome: 'unchanged' });

    const withDir = sb.engram(['install', '--host', 'opencode', '--json'], {
      env: { ...env, OPENCODE_CONFIG_DIR: custom },
    });
    expect(JSON.parse(withDir.stdout)).toMatchObject({ pluginPath: join(custom, 'plugins', 'engram.js') });

    const doctor = (e: NodeJS.ProcessEnv) =>
      (
        JSON.parse(sb.engram(['doctor', '--json'], { env: e }).stdout) as {
          checks: { name: string; status: string }[];
        }
      ).checks.filter((c) => c.name === 'plugin opencode');
    expect(doctor(env)).toEqual([expect.objectContaining({ status: 'ok' })]);
    // A plugin that runs a hook bundle that is not there any more (engram moved): doctor fails.
    writeFileSync(
      plugin,
      readFileSync(plugin, 'utf8').replace(/^const HOOK = .*$/m, 'const HOOK = "/gone/hook.cjs";'),
    );
    expect(doctor(env)).toEqual([expect.objectContaining({ status: 'fail' })]);

    // Someone else's engram.js is never replaced nor deleted.
    const foreignDir = join(sb.home, 'other', 'plugins');
    mkdirSync(foreignDir, { recursive: true });
    writeFileSync(join(foreignDir, 'engram.js'), 'export const Mine = async () => ({});\n');
    const otherEnv = { OPENCODE_CONFIG_DIR: join(sb.home, 'other') };
    const refused = sb.engram(['install', '--host', 'opencode'], { env: otherEnv });
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toContain("is not engram's plugin");
    expect(sb.engram(['uninstall', '--host', 'opencode'], { env: otherEnv }).stdout).toContain(
      'left as it is',
    );
    expect(readFileSync(join(foreignDir, 'engram.js'), 'utf8')).toBe(
      'export const Mine = async () => ({});\n',
    );
    expect(doctor(otherEnv)).toEqual([expect.objectContaining({ status: 'fail' })]);
  });

  it('the installed plugin, fed the recorded session, runs the real hook and the session is captured', async () => {
    sb = createSandbox({ ENGRAM_WORKER_AUTOSTART: 'false' });
    const project = sb.project('oc');
    const env = { XDG_CONFIG_HOME: join(sb.home, '.config') };
    expect(sb.engram(['install', '--host', 'opencode'], { env }).status).toBe(0);
    const file = join(sb.home, '.config', 'opencode', 'plugins', 'engram.js');
    // The plugin runs in opencode's process and hands opencode's environment to the hook.
    const saved = { ...process.env };
    Object.assign(process.env, sb.env);
    try {
      const mod = (await import(pathToFileURL(file).href)) as Record<
        string,
        (ctx: unknown) => Promise<Hooks>
      >;
      const hooks = await mod['EngramMemory']?.({ client: {}, directory: project, worktree: project });
      if (!hooks) throw new Error('no plugin');
      const system: string[] = [];
      for (const { event, payload } of recordedSession(project)) {
        if (event === 'plugin.init') continue;
        if (event.includes('.execute.') || event === 'chat.message' || event.startsWith('experimental.'))
          await hooks[event]?.(payload['input'], payload['output']);
        else await hooks['event']?.({ event: { type: event, properties: payload } });
      }
      const output = { system };
      await hooks['experimental.chat.system.transform']?.({ sessionID: 'ses_none' }, output);
      await hooks['dispose']?.();
    } finally {
      for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
      Object.assign(process.env, saved);
    }
    expect(sb.engram(['flush']).status).toBe(0);
    const status = JSON.parse(sb.engram(['status', '--json']).stdout) as {
      hosts: { host: string; sessions: number }[];
      hooks: { hook: string; count: number }[];
    };
    expect(status.hosts).toEqual([expect.objectContaining({ host: 'opencode', sessions: 1 })]);
    expect(Object.fromEntries(status.hooks.map((h) => [h.hook, h.count]))).toMatchObject({
      SessionStart: 1,
      UserPromptSubmit: 1,
      PostToolUse: 2,
      Stop: 1,
      SessionEnd: 1,
    });
  });
});
