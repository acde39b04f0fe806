/**
 * engram for GitHub Copilot CLI, on the real bundles: `engram install --host copilot` merges flat hook
 * entries into the user's `$COPILOT_HOME/settings.json` (their other settings and hooks kept) and
 * `uninstall` puts the file back byte for byte; doctor sees it; the installed command, run the way
 * Copilot runs it (`bash -c`, cwd = the project), captures the recorded Copilot session, the worker reads
 * the session's events.jsonl, and the next session is told what it taught in Copilot's format.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createSandbox, REPO_ROOT, type Sandbox } from '../support/sandbox.ts';

const FIXTURES = join(REPO_ROOT, 'test', 'fixtures', 'hosts', 'copilot');
const SESSION = '3fe14a49-7439-4580-8f4e-dfc7093dd8ac';
const PREFERENCE = 'Always use pnpm in this repository, never npm: the lockfile is pnpm-lock.yaml.';
const RECORDED_PROMPT = 'Create notes.md with a greeting for the release team, then check missing-dir';

const placed = (text: string, project: string, home: string) =>
  text
    .replaceAll('{{project}}', project)
    .replaceAll('{{home}}', home)
    .replaceAll(RECORDED_PROMPT, PREFERENCE);

/** The recorded session's PascalCase payloads (the ones engram registers) in firing order, in this sandbox. */
function recordedSession(project: string, home: string): Record<string, unknown>[] {
  const order = (JSON.parse(readFileSync(join(FIXTURES, 'order.json'), 'utf8')) as string[]).filter((e) =>
    /^[A-Z]/.test(e),
  );
  const seen = new Map<string, number>();
  return order.map((event) => {
    const index = seen.get(event) ?? 0;
    seen.set(event, index + 1);
    const text = placed(readFileSync(join(FIXTURES, 'payloads', `${event}.json`), 'utf8'), project, home);
    const { payload } = (JSON.parse(text) as { payload: Record<string, unknown> }[])[index] ?? {};
    if (!payload) throw new Error(`no recorded ${event} #${index}`);
    return payload;
  });
}

type Settings = { hooks: Record<string, { type: string; bash?: string; timeoutSec?: number }[]> };

function installedCommand(file: string, event: string): string {
  const json = JSON.parse(readFileSync(file, 'utf8')) as Settings;
  const command = json.hooks[event]?.at(-1)?.bash;
  if (!command) throw new Error(`no ${event} hook in ${file}`);
  return command;
}

describe('engram for GitHub Copilot CLI', () => {
  let sb: Sandbox;
  afterEach(() => sb?.cleanup());

  it('install --host copilot merges flat entries into settings.json; uninstall restores it byte for byte', () => {
    sb = createSandbox();
    const copilotHome = join(sb.home, 'copilot-home');
    mkdirSync(copilotHome);
    const file = join(copilotHome, 'settings.json');
    const mine =
      '{ "model": "gpt-4.1",\n  "hooks": {"sessionEnd": [{"type": "command", "bash": "echo mine"}], "Stop": [{"type": "command", "bash": "echo bye"}]} }\n';
    writeFileSync(file, mine);
    const env = { COPILOT_HOME: copilotHome };

    const first = sb.engram(['install', '--host', 'copilot', '--json'], { env });
    expect(first.status, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ host: 'copilot', needsTrust: false, created: false });
    const settings = JSON.parse(readFileSync(file, 'utf8')) as Settings & { model: string };
    expect(settings.model).toBe('gpt-4.1');
    expect(Object.keys(settings.hooks).sort()).toEqual([
      'PostToolUse',
      'PostToolUseFailure',
      'PreCompact',
      'SessionEnd',
      'SessionStart',
      'Stop',
      'UserPromptSubmit',
      'sessionEnd',
    ]);
    // Flat entries, the user's own first as before; no matcher groups (Copilot drops every hook then).
    expect(settings.hooks['Stop']?.[0]).toEqual({ type: 'command', bash: 'echo bye' });
    expect(settings.hooks['Stop']?.[1]).toMatchObject({ type: 'command', timeoutSec: 15 });
    expect(settings.hooks['SessionEnd']?.[0]?.timeoutSec).toBe(5);
    expect(installedCommand(file, 'SessionStart')).toMatch(/hook\.cjs" --host copilot # engram-hook$/);
    expect(JSON.stringify(settings)).not.toContain('matcher');
    expect(existsSync(join(sb.home, '.claude'))).toBe(false); // Claude Code's settings untouched
    // The MCP server in Copilot's own registry, as `copilot mcp add engram -- …` writes it.
    const mcpFile = join(copilotHome, 'mcp-config.json');
    expect(JSON.parse(readFileSync(mcpFile, 'utf8'))).toEqual({
      mcpServers: {
        engram: {
          type: 'local',
          command: process.execPath,
          args: [expect.stringMatching(/dist\/cli\.mjs$/), 'mcp'],
          tools: ['*'],
        },
      },
    });

    const again = sb.engram(['install', '--host', 'copilot', '--json'], { env });
    expect(JSON.parse(again.stdout)).toMatchObject({ added: [], backupPath: null });

    type Doctor = { checks: { name: string; status: string; detail: string }[] };
    const doctor = () =>
      (JSON.parse(sb.engram(['doctor', '--json'], { env }).stdout) as Doctor).checks.filter((c) =>
        c.name.includes('copilot'),
      );
    expect(doctor()).toEqual([
      expect.objectContaining({ name: 'hooks copilot', status: 'ok' }),
      expect.objectContaining({ name: 'mcp copilot', status: 'ok' }),
    ]);
    // One hook taken out by hand: doctor names it.
    const edited = JSON.parse(readFileSync(file, 'utf8')) as Settings;
    edited.hooks['Stop'] = [{ type: 'command', bash: 'echo bye' }];
    writeFileSync(file, JSON.stringify(edited));
    expect(doctor()).toEqual([
      expect.objectContaining({
        name: 'hooks copilot',
        status: 'fail',
        detail: expect.stringContaining('Stop'),
      }),
      expect.objectContaining({ name: 'mcp copilot', status: 'ok' }),
    ]);
    expect(sb.engram(['install', '--host', 'copilot'], { env }).status).toBe(0);
    writeFileSync(file, JSON.stringify(JSON.parse(readFileSync(file, 'utf8')))); // reformatted, same content

    const text = sb.engram(['uninstall', '--host', 'copilot'], { env });
    expect(text.stdout).toContain('restored exactly as before');
    expect(readFileSync(file, 'utf8')).toBe(mine);
    expect(existsSync(mcpFile)).toBe(false); // engram created it
    expect(readdirSync(copilotHome).filter((n) => n.endsWith('.engram-install.json'))).toEqual([]);
    expect(doctor()).toEqual([
      expect.objectContaining({ status: 'ok', detail: expect.stringContaining('without engram') }),
    ]);

    // Without a file of the user's: created, then deleted again.
    const fresh = join(sb.home, '.copilot');
    expect(sb.engram(['install', '--host', 'copilot'], {}).status).toBe(0);
    expect(existsSync(join(fresh, 'settings.json'))).toBe(true);
    expect(sb.engram(['uninstall', '--host', 'copilot'], {}).status).toBe(0);
    expect(existsSync(join(fresh, 'settings.json'))).toBe(false);
  });
  it('captures a Copilot session through the installed hooks; the next session is told, in Copilot’s format', () => {
    sb = createSandbox();
    const project = sb.project('app', 'git@example.com:acme/app.git');
    const copilotHome = join(sb.home, '.copilot');
    expect(sb.engram(['install', '--host', 'copilot']).status).toBe(0);
    const file = join(copilotHome, 'settings.json');
    const env = { ...sb.env, COPILOT_HOME: copilotHome, COPILOT_PROJECT_DIR: project };

    const run = (payload: Record<string, unknown>) =>
      spawnSync('bash', ['-c', installedCommand(file, String(payload['hook_event_name']))], {
        input: JSON.stringify(payload),
        cwd: project,
        env,
      });
    // The session's log where Stop says it is (Copilot writes it as the session runs).
    const log = join(copilotHome, 'session-state', SESSION, 'events.jsonl');
    mkdirSync(dirname(log), { recursive: true });
    writeFileSync(log, placed(readFileSync(join(FIXTURES, 'events.jsonl'), 'utf8'), project, sb.home));
    let started = '';
    let captured = 0;
    for (const payload of recordedSession(project, sb.home)) {
      if (payload['hook_event_name'] === 'PreToolUse') continue; // engram registers no PreToolUse hook
      captured += 1;
      const r = run(payload);
      expect(r.status, r.stderr.toString()).toBe(0);
      if (payload['hook_event_name'] === 'SessionStart') started = r.stdout.toString();
    }
    expect(started).toBe(''); // nothing to tell yet: an empty memory

    expect(sb.engram(['flush']).status).toBe(0);
    const status = JSON.parse(sb.engram(['status', '--json']).stdout) as {
      hosts: { host: string; sessions: number; events: number }[];
    };
    // Every captured hook event counted for its host.
    expect(status.hosts).toEqual([
      expect.objectContaining({ host: 'copilot', sessions: 1, events: captured }),
    ]);
    expect(sb.engram(['status']).stdout).toContain(`copilot 1 sessions, ${captured} events`);
    // The worker read events.jsonl after the turn: its records, and the token usage only it holds.
    const metrics = JSON.parse(sb.engram(['metrics', '--json']).stdout) as {
      capture: {
        transcripts: { files: number };
        recordTypes: { type: string; seen: number; skipped: number }[];
      };
    };
    expect(metrics.capture.transcripts.files).toBe(1);
    expect(metrics.capture.recordTypes).toContainEqual({ type: 'user.message', seen: 1, skipped: 0 });
    expect(metrics.capture.recordTypes).toContainEqual({
      type: 'tool.execution_complete',
      seen: 2,
      skipped: 0,
    });
    const found = JSON.parse(sb.engram(['search', 'pnpm', '--cwd', project, '--json']).stdout) as {
      results: { id: string; title: string }[];
    };
    const memory = found.results.find((r) => r.title === PREFERENCE);
    expect(memory, JSON.stringify(found)).toBeDefined();
    const shown = JSON.parse(sb.engram(['show', memory?.id ?? '', '--json']).stdout) as { host: string };
    expect(shown.host).toBe('copilot');

    // The next Copilot session of the repository: a top-level additionalContext, nothing else.
    const [start] = recordedSession(project, sb.home);
    const next = run({ ...start, session_id: '3fe14a49-0000-4000-8000-000000000002' });
    const out = JSON.parse(next.stdout.toString()) as Record<string, unknown>;
    expect(Object.keys(out)).toEqual(['additionalContext']);
    expect(String(out['additionalContext'])).toContain(PREFERENCE);
  });
});
