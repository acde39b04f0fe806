/**
 * engram for Gemini CLI, on the real bundles: `engram install --host gemini` merges its hooks into the
 * user's `~/.gemini/settings.json` (other settings kept; timeouts in milliseconds, a name per hook) and
 * `uninstall` puts the file back byte for byte; doctor checks them; the installed command, run the way
 * Gemini runs it (`/bin/sh -c`, cwd = the project), captures the recorded Gemini session, and the next
 * session — Gemini's or Claude Code's — of the same repository is told what it taught.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createSandbox, payloads, REPO_ROOT, type Sandbox } from '../support/sandbox.ts';

const FIXTURES = join(REPO_ROOT, 'test', 'fixtures', 'hosts', 'gemini');
const PREFERENCE = 'Always use pnpm in this repository, never npm: the lockfile is pnpm-lock.yaml.';

/** The recorded session's payloads in firing order, placed in this sandbox (its prompt replaced). */
function recordedSession(project: string, home: string): Record<string, unknown>[] {
  const order = JSON.parse(readFileSync(join(FIXTURES, 'order.json'), 'utf8')) as string[];
  const seen = new Map<string, number>();
  return order.map((event) => {
    const index = seen.get(event) ?? 0;
    seen.set(event, index + 1);
    const text = readFileSync(join(FIXTURES, 'payloads', `${event}.json`), 'utf8')
      .replaceAll('{{project}}', project)
      .replaceAll('{{home}}', home);
    const { payload } = (JSON.parse(text) as { payload: Record<string, unknown> }[])[index] ?? {};
    if (!payload) throw new Error(`no recorded ${event} #${index}`);
    return event === 'BeforeAgent' ? { ...payload, prompt: PREFERENCE } : payload;
  });
}

type Entry = { name?: string; command: string; timeout?: number };

function installedEntry(settings: string, event: string): Entry | null {
  const json = JSON.parse(readFileSync(settings, 'utf8')) as { hooks?: Record<string, { hooks: Entry[] }[]> };
  return json.hooks?.[event]?.at(-1)?.hooks.at(-1) ?? null;
}

describe('engram for Gemini CLI', () => {
  let sb: Sandbox;
  afterEach(() => sb?.cleanup());

  it('install --host gemini merges into the user’s settings.json; uninstall restores it byte for byte', () => {
    sb = createSandbox();
    const dir = join(sb.home, '.gemini');
    mkdirSync(dir);
    const file = join(dir, 'settings.json');
    const mine =
      '{\n  "security": {"auth": {"selectedType": "gemini-api-key"}},\n  "hooks": {"AfterTool": [{"matcher": "write_.*", "hooks": [{"type": "command", "command": "echo mine"}]}]}\n}\n';
    writeFileSync(file, mine);

    const first = sb.engram(['install', '--host', 'gemini', '--json']);
    expect(first.status, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ host: 'gemini', needsTrust: false, created: false });
    const json = JSON.parse(readFileSync(file, 'utf8')) as {
      security: unknown;
      hooks: Record<string, unknown[]>;
    };
    expect(json.security).toEqual({ auth: { selectedType: 'gemini-api-key' } });
    expect(Object.keys(json.hooks).sort()).toEqual([
      'AfterAgent',
      'AfterTool',
      'BeforeAgent',
      'SessionEnd',
      'SessionStart',
    ]);
    expect(JSON.stringify(json.hooks['AfterTool']?.[0])).toContain('echo mine'); // the user's own, first
    const start = installedEntry(file, 'SessionStart');
    expect(start?.command).toMatch(/hook\.cjs" --host gemini # engram-hook$/);
    expect(start).toMatchObject({ name: 'engram', timeout: 15_000 }); // Gemini's timeouts are milliseconds
    expect(existsSync(join(sb.home, '.claude'))).toBe(false); // Claude Code's settings untouched
    // The MCP server in the same file, as `gemini mcp add` writes it.
    expect((json as unknown as { mcpServers: unknown }).mcpServers).toEqual({
      engram: { command: process.execPath, args: [expect.stringMatching(/dist\/cli\.mjs$/), 'mcp'] },
    });
    expect(JSON.parse(first.stdout)).toMatchObject({ mcp: { path: file, changed: true } });

    const again = sb.engram(['install', '--host', 'gemini', '--json']);
    expect(JSON.parse(again.stdout)).toMatchObject({ added: [], backupPath: null });

    // engram doctor: installed; hooks turned off in Gemini; engram's hooks disabled by name.
    type Doctor = { checks: { name: string; status: string; detail: string }[] };
    const doctor = () =>
      Object.fromEntries(
        (JSON.parse(sb.engram(['doctor', '--json']).stdout) as Doctor).checks
          .filter((c) => c.name.includes('gemini'))
          .map((c) => [c.name, c.status]),
      );
    expect(doctor()).toEqual({ 'hooks gemini': 'ok', 'mcp gemini': 'ok' });
    const installed = readFileSync(file, 'utf8');
    const withConfig = (config: unknown) =>
      writeFileSync(file, JSON.stringify({ ...JSON.parse(installed), hooksConfig: config }));
    withConfig({ enabled: false });
    expect(doctor()).toEqual({ 'hooks gemini': 'ok', 'mcp gemini': 'ok', 'gemini hooks enabled': 'fail' });
    withConfig({ disabled: ['engram'] });
    expect(doctor()).toEqual({ 'hooks gemini': 'ok', 'mcp gemini': 'ok', 'gemini hooks enabled': 'fail' });
    writeFileSync(file, installed);

    const text = sb.engram(['uninstall', '--host', 'gemini']);
    expect(text.stdout).toContain('restored exactly as before');
    expect(text.stdout).toContain('removed the engram MCP server');
    expect(readFileSync(file, 'utf8')).toBe(mine);
    expect(readdirSync(dir).filter((n) => n.endsWith('.engram-install.json'))).toEqual([]);
    expect(doctor()).toEqual({ 'hooks gemini': 'ok' }); // Gemini set up, without engram: said, not a problem

    // Without a file of the user's: created, then deleted again.
    const emptyDir = join(sb.root, 'other-home');
    mkdirSync(emptyDir);
    const env = { HOME: emptyDir };
    expect(sb.engram(['install', '--host', 'gemini'], { env }).status).toBe(0);
    expect(existsSync(join(emptyDir, '.gemini', 'settings.json'))).toBe(true);
    expect(sb.engram(['uninstall', '--host', 'gemini'], { env }).status).toBe(0);
    expect(existsSync(join(emptyDir, '.gemini', 'settings.json'))).toBe(false);
  });

  it('captures a Gemini session through the installed hook; the next Gemini and Claude Code sessions are told', () => {
    sb = createSandbox();
    const project = sb.project('app', 'git@example.com:acme/app.git');
    expect(sb.engram(['install', '--host', 'gemini']).status).toBe(0);
    const settings = join(sb.home, '.gemini', 'settings.json');

    let started = '';
    for (const payload of recordedSession(project, sb.home)) {
      const event = String(payload['hook_event_name']);
      const entry = installedEntry(settings, event);
      if (entry === null) continue; // BeforeTool, PreCompress: engram registers no hook for them
      const r = spawnSync('/bin/sh', ['-c', entry.command], {
        input: JSON.stringify(payload),
        cwd: project,
        env: sb.env,
      });
      expect(r.status, r.stderr.toString()).toBe(0);
      if (event === 'SessionStart') started = r.stdout.toString();
    }
    expect(started).toBe(''); // nothing to tell yet: an empty memory

    expect(sb.engram(['flush']).status).toBe(0);
    const status = JSON.parse(sb.engram(['status', '--json']).stdout) as {
      hosts: { host: string; sessions: number }[];
      hooks: { hook: string; count: number }[];
    };
    expect(status.hosts).toEqual([expect.objectContaining({ host: 'gemini', sessions: 1 })]);
    expect(Object.fromEntries(status.hooks.map((h) => [h.hook, h.count]))).toEqual({
      SessionStart: 1,
      BeforeAgent: 1,
      AfterTool: 2,
      AfterAgent: 1,
      SessionEnd: 1,
    });
    const found = JSON.parse(sb.engram(['search', 'pnpm', '--cwd', project, '--json']).stdout) as {
      results: { id: string; title: string }[];
    };
    const memory = found.results.find((r) => r.title === PREFERENCE);
    expect(memory, JSON.stringify(found)).toBeDefined();
    const shown = JSON.parse(sb.engram(['show', memory?.id ?? '', '--json']).stdout) as { host: string };
    expect(shown.host).toBe('gemini');

    // A second Gemini session is told, in Gemini's output format.
    const [start] = recordedSession(project, sb.home);
    const gemini = spawnSync('/bin/sh', ['-c', installedEntry(settings, 'SessionStart')?.command ?? ''], {
      input: JSON.stringify({ ...start, session_id: 'b0000000-0000-4000-8000-000000000002' }),
      cwd: project,
      env: sb.env,
    });
    const out = JSON.parse(gemini.stdout.toString()) as {
      hookSpecificOutput: { hookEventName: string; additionalContext: string };
    };
    expect(out.hookSpecificOutput.hookEventName).toBe('SessionStart');
    expect(out.hookSpecificOutput.additionalContext).toContain(PREFERENCE);

    // A Claude Code session (the default host, Claude Code's payload) in the same repository.
    const claude = sb.hook(payloads('claude-session-1', project).start(), { cwd: project });
    expect(claude.status).toBe(0);
    const told = JSON.parse(claude.stdout) as { hookSpecificOutput: { additionalContext: string } };
    expect(told.hookSpecificOutput.additionalContext).toContain(PREFERENCE);
  });
});
