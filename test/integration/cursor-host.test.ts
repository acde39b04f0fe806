/**
 * engram for Cursor's agent, on the real bundles, with payloads written from Cursor's documentation (its
 * CLI cannot run against a local mock: test/fixtures/hosts/cursor/README.md). `engram install --host
 * cursor` merges flat entries into `~/.cursor/hooks.json` (with the `"version": 1` Cursor reads) and
 * `uninstall` puts the file back byte for byte; doctor sees it; the installed command, run the way
 * Cursor runs a user hook (`sh -c` from `~/.cursor`), captures a session by its hooks alone (the project
 * from `workspace_roots`), and the next session is told in Cursor's `additional_context`. The Claude Code
 * hook, which Cursor also runs when its third-party hooks are on, leaves Cursor's payloads alone.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createSandbox, HOOK_BUNDLE, REPO_ROOT, type Sandbox } from '../support/sandbox.ts';

const FIXTURES = join(REPO_ROOT, 'test', 'fixtures', 'hosts', 'cursor');
const PREFERENCE = 'Always use pnpm in this repository, never npm: the lockfile is pnpm-lock.yaml.';
const WRITTEN_PROMPT = 'Create notes.md with a greeting for the release team, then check missing-dir';

/** The documented session in firing order, in this sandbox, the user's prompt replaced by `prompt`. */
function session(project: string, home: string, prompt = PREFERENCE): Record<string, unknown>[] {
  const text = readFileSync(join(FIXTURES, 'session.json'), 'utf8')
    .replaceAll('{{project}}', project)
    .replaceAll('{{home}}', home)
    .replaceAll(WRITTEN_PROMPT, prompt);
  return JSON.parse(text) as Record<string, unknown>[];
}

type HooksFile = {
  version?: number;
  hooks: Record<string, { type?: string; command: string; timeout?: number }[]>;
};

function installedCommand(file: string, event: string): string {
  const json = JSON.parse(readFileSync(file, 'utf8')) as HooksFile;
  const command = json.hooks[event]?.at(-1)?.command;
  if (!command) throw new Error(`no ${event} hook in ${file}`);
  return command;
}

describe('engram for Cursor', () => {
  let sb: Sandbox;
  afterEach(() => sb?.cleanup());

  it('install --host cursor merges flat entries into ~/.cursor/hooks.json; uninstall restores it byte for byte', () => {
    sb = createSandbox();
    const dir = join(sb.home, '.cursor');
    mkdirSync(dir);
    const file = join(dir, 'hooks.json');
    const mine =
      '{\n  "version": 1,\n  "hooks": { "afterFileEdit": [{ "command": "./hooks/format.sh" }] }\n}\n';
    writeFileSync(file, mine);

    const first = sb.engram(['install', '--host', 'cursor', '--json']);
    expect(first.status, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ host: 'cursor', needsTrust: false, mcp: null });
    const hooks = JSON.parse(readFileSync(file, 'utf8')) as HooksFile;
    expect(hooks.version).toBe(1);
    expect(Object.keys(hooks.hooks).sort()).toEqual([
      'afterFileEdit',
      'beforeSubmitPrompt',
      'postToolUse',
      'postToolUseFailure',
      'preCompact',
      'sessionEnd',
      'sessionStart',
      'stop',
    ]);
    expect(hooks.hooks['afterFileEdit']).toEqual([{ command: './hooks/format.sh' }]);
    expect(hooks.hooks['stop']?.[0]).toMatchObject({ type: 'command', timeout: 15 });
    expect(hooks.hooks['sessionEnd']?.[0]?.timeout).toBe(5);
    expect(installedCommand(file, 'sessionStart')).toMatch(/hook\.cjs" --host cursor # engram-hook$/);
    expect(existsSync(join(sb.home, '.claude'))).toBe(false);

    type Doctor = { checks: { name: string; status: string; detail: string }[] };
    const doctor = () =>
      (JSON.parse(sb.engram(['doctor', '--json']).stdout) as Doctor).checks.filter((c) =>
        c.name.includes('cursor'),
      );
    expect(doctor()).toEqual([expect.objectContaining({ name: 'hooks cursor', status: 'ok' })]);

    const text = sb.engram(['uninstall', '--host', 'cursor']);
    expect(text.stdout).toContain('restored exactly as before');
    expect(readFileSync(file, 'utf8')).toBe(mine);
    expect(readdirSync(dir).filter((n) => n.endsWith('.engram-install.json'))).toEqual([]);

    // Without a file of the user's: created with the version Cursor reads, then deleted again.
    const fresh = createSandbox();
    try {
      expect(fresh.engram(['install', '--host', 'cursor']).status).toBe(0);
      const created = join(fresh.home, '.cursor', 'hooks.json');
      expect((JSON.parse(readFileSync(created, 'utf8')) as HooksFile).version).toBe(1);
      expect(fresh.engram(['uninstall', '--host', 'cursor']).status).toBe(0);
      expect(existsSync(created)).toBe(false);
    } finally {
      fresh.cleanup();
    }
  });

  it('captures a Cursor session by its hooks alone; the next session is told, in Cursor’s format', () => {
    sb = createSandbox();
    const project = sb.project('app', 'git@example.com:acme/app.git');
    expect(sb.engram(['install', '--host', 'cursor']).status).toBe(0);
    const file = join(sb.home, '.cursor', 'hooks.json');
    // A user hook runs from ~/.cursor, not the project: the project is the payload's workspace root.
    const run = (payload: Record<string, unknown>) =>
      spawnSync('sh', ['-c', installedCommand(file, String(payload['hook_event_name']))], {
        input: JSON.stringify(payload),
        cwd: join(sb.home, '.cursor'),
        env: { ...sb.env, CURSOR_PROJECT_DIR: project, CURSOR_VERSION: '2026.07.23-e383d2b' },
      });
    const payloads = session(project, sb.home);
    for (const payload of payloads) {
      const r = run(payload);
      expect(r.status, r.stderr.toString()).toBe(0);
      // Nothing to tell yet, and the prompt hook can only allow or block in Cursor: it prints nothing.
      expect(r.stdout.toString()).toBe('');
    }

    expect(sb.engram(['flush']).status).toBe(0);
    const status = JSON.parse(sb.engram(['status', '--json']).stdout) as {
      hosts: { host: string; sessions: number; events: number }[];
      projects: { name: string }[];
    };
    expect(status.hosts).toEqual([
      expect.objectContaining({ host: 'cursor', sessions: 1, events: payloads.length }),
    ]);
    expect(status.projects.map((p) => p.name)).toEqual(['app']);
    const found = JSON.parse(sb.engram(['search', 'pnpm', '--cwd', project, '--json']).stdout) as {
      results: { id: string; title: string }[];
    };
    const memory = found.results.find((r) => r.title === PREFERENCE);
    expect(memory, JSON.stringify(found)).toBeDefined();
    const shown = JSON.parse(sb.engram(['show', memory?.id ?? '', '--json']).stdout) as { host: string };
    expect(shown.host).toBe('cursor');
    // The next Cursor session of the repository: a top-level additional_context, nothing else.
    const [start] = session(project, sb.home);
    const next = run({
      ...start,
      conversation_id: 'b2c4e6f8-0000-4000-8000-000000000002',
      session_id: 'b2c4e6f8-0000-4000-8000-000000000002',
    });
    const out = JSON.parse(next.stdout.toString()) as Record<string, unknown>;
    expect(Object.keys(out)).toEqual(['additional_context']);
    expect(String(out['additional_context'])).toContain(PREFERENCE);
  });

  it('the Claude Code hook, which Cursor also runs, leaves Cursor’s payloads to the Cursor hooks', () => {
    sb = createSandbox();
    const project = sb.project('app', 'git@example.com:acme/app.git');
    for (const payload of session(project, sb.home)) {
      const r = spawnSync(process.execPath, [HOOK_BUNDLE], {
        input: JSON.stringify({ ...payload, hook_event_name: 'SessionStart' }),
        cwd: project,
        env: sb.env,
      });
      expect(r.status).toBe(0);
      expect(r.stdout.toString()).toBe('');
    }
    expect(sb.engram(['flush']).status).toBe(0);
    const status = JSON.parse(sb.engram(['status', '--json']).stdout) as { hosts: unknown[] };
    expect(status.hosts).toEqual([]);
  });
});
