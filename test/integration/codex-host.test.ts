/**
 * engram for OpenAI Codex CLI, on the real bundles: `engram install --host codex` merges its hooks into
 * the user's `$CODEX_HOME/hooks.json` and `uninstall` puts the file back byte for byte; the installed
 * command, run the way Codex runs it (`/bin/sh -c`, cwd = the project), captures the recorded Codex
 * session; and a Claude Code session of the same repository is then told what the Codex session taught.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createSandbox, payloads, REPO_ROOT, type Sandbox } from '../support/sandbox.ts';

const FIXTURES = join(REPO_ROOT, 'test', 'fixtures', 'hosts', 'codex');
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
    return event === 'UserPromptSubmit' ? { ...payload, prompt: PREFERENCE } : payload;
  });
}

function installedCommand(hooksFile: string, event: string): string {
  const json = JSON.parse(readFileSync(hooksFile, 'utf8')) as {
    hooks: Record<string, { hooks: { command: string }[] }[]>;
  };
  const command = json.hooks[event]?.at(-1)?.hooks.at(-1)?.command;
  if (!command) throw new Error(`no ${event} hook in ${hooksFile}`);
  return command;
}

describe('engram for Codex CLI', () => {
  let sb: Sandbox;
  afterEach(() => sb?.cleanup());

  it('install --host codex merges into the user’s hooks.json; uninstall restores it byte for byte', () => {
    sb = createSandbox();
    const codexHome = join(sb.home, 'codex-home');
    mkdirSync(codexHome);
    const file = join(codexHome, 'hooks.json');
    const mine =
      '{ "hooks": {"Stop": [{"matcher": "", "hooks": [{"type": "command", "command": "echo mine"}]}]},\n  "x": 1 }\n';
    writeFileSync(file, mine);
    const config = join(codexHome, 'config.toml');
    const myConfig = 'model = "o3" # mine\n\n[mcp_servers.docs]\ncommand = "docs-mcp"';
    writeFileSync(config, myConfig);
    const env = { CODEX_HOME: codexHome };

    const first = sb.engram(['install', '--host', 'codex', '--json'], { env });
    expect(first.status, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ host: 'codex', needsTrust: true, created: false });
    const hooks = (JSON.parse(readFileSync(file, 'utf8')) as { hooks: Record<string, unknown[]> }).hooks;
    expect(Object.keys(hooks).sort()).toEqual([
      'PostCompact',
      'PostToolUse',
      'PreCompact',
      'SessionEnd',
      'SessionStart',
      'Stop',
      'UserPromptSubmit',
    ]);
    expect(JSON.stringify(hooks['Stop']?.[0])).toContain('echo mine'); // the user's own hook, first as before
    expect(installedCommand(file, 'SessionStart')).toMatch(/hook\.cjs" --host codex # engram-hook$/);
    expect(JSON.stringify(hooks['SessionEnd'])).toContain('"timeout":3');
    expect(existsSync(join(sb.home, '.claude'))).toBe(false); // Claude Code's settings untouched
    // The MCP server in config.toml, after the user's own text (every byte of it kept).
    expect(JSON.parse(first.stdout)).toMatchObject({ mcp: { path: config, changed: true } });
    const toml = readFileSync(config, 'utf8');
    expect(toml.startsWith(`${myConfig}\n`)).toBe(true);
    expect(toml).toMatch(
      /\n\[mcp_servers\.engram\]\ncommand = ".+"\nargs = \[".+dist\/cli\.mjs", "mcp"\]\nenv_vars = \["ENGRAM_HOME"\]\n$/,
    );

    const again = sb.engram(['install', '--host', 'codex', '--json'], { env });
    expect(JSON.parse(again.stdout)).toMatchObject({ added: [], backupPath: null });

    const text = sb.engram(['uninstall', '--host', 'codex'], { env });
    expect(text.stdout).toContain('restored exactly as before');
    expect(readFileSync(file, 'utf8')).toBe(mine);
    expect(readFileSync(config, 'utf8')).toBe(myConfig);
    expect(text.stdout).toContain(`removed the engram MCP server from ${config}`);
    expect(readdirSync(codexHome).filter((n) => n.endsWith('.engram-install.json'))).toEqual([]);

    // Without a file of the user's: created, then deleted again.
    const fresh = join(sb.home, '.codex');
    expect(sb.engram(['install', '--host', 'codex'], {}).status).toBe(0);
    expect(existsSync(join(fresh, 'hooks.json'))).toBe(true);
    expect(existsSync(join(fresh, 'config.toml'))).toBe(true);
    expect(sb.engram(['uninstall', '--host', 'codex'], {}).status).toBe(0);
    expect(existsSync(join(fresh, 'hooks.json'))).toBe(false);
    expect(existsSync(join(fresh, 'config.toml'))).toBe(false);

    // engram doctor: installed, not yet trusted (a warning), trusted, the hooks feature turned off.
    type Doctor = { checks: { name: string; status: string; detail: string }[] };
    const doctor = () =>
      Object.fromEntries(
        (JSON.parse(sb.engram(['doctor', '--json'], { env }).stdout) as Doctor).checks
          .filter((c) => c.name.includes('codex'))
          .map((c) => [c.name, c.status]),
      );
    expect(doctor()).toEqual({ 'hooks codex': 'ok' }); // Codex set up, without engram: said, not a problem
    expect(sb.engram(['install', '--host', 'codex'], { env }).status).toBe(0);
    expect(doctor()).toEqual({ 'hooks codex': 'ok', 'mcp codex': 'ok', 'codex hook trust': 'warn' });
    // Codex records trust in config.toml after engram's table.
    const append = (more: string) => writeFileSync(config, readFileSync(config, 'utf8') + more);
    append(`\n[hooks.state."${file}:session_start:1:0"]\ntrusted_hash = "sha256:00"\n`);
    expect(doctor()).toEqual({ 'hooks codex': 'ok', 'mcp codex': 'ok', 'codex hook trust': 'ok' });
    append('\n[features]\nhooks = false\n');
    expect(doctor()).toMatchObject({ 'codex hooks feature': 'fail' });
    const bundle = join(sb.root, 'moved', 'dist', 'cli.mjs');
    writeFileSync(
      config,
      readFileSync(config, 'utf8').replace(/"[^"]+dist\/cli\.mjs"/, JSON.stringify(bundle)),
    );
    expect(doctor()).toMatchObject({ 'mcp codex': 'fail' }); // its CLI bundle is gone
    expect(sb.engram(['uninstall', '--host', 'codex'], { env }).status).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(mine);
    expect(readFileSync(config, 'utf8')).toBe(
      `${myConfig}\n[hooks.state."${file}:session_start:1:0"]\ntrusted_hash = "sha256:00"\n\n[features]\nhooks = false\n`,
    );

    const bad = sb.engram(['install', '--host', 'nope']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('claude-code, codex');
  });

  it('captures a Codex session through the installed hook; Claude Code in the same repository is told', () => {
    sb = createSandbox();
    const project = sb.project('app', 'git@example.com:acme/app.git');
    const codexHome = join(sb.home, '.codex');
    expect(sb.engram(['install', '--host', 'codex']).status).toBe(0);
    const hooksFile = join(codexHome, 'hooks.json');

    let started = '';
    for (const payload of recordedSession(project, sb.home)) {
      const event = String(payload['hook_event_name']);
      const command = event === 'PreToolUse' ? null : installedCommand(hooksFile, event);
      if (command === null) continue; // engram registers no PreToolUse hook
      const r = spawnSync('/bin/sh', ['-c', command], {
        input: JSON.stringify(payload),
        cwd: project,
        env: { ...sb.env, CODEX_HOME: codexHome },
      });
      expect(r.status, r.stderr.toString()).toBe(0);
      if (event === 'SessionStart') started = r.stdout.toString();
    }
    expect(started).toBe(''); // nothing to tell yet: an empty memory

    expect(sb.engram(['flush']).status).toBe(0);
    const status = JSON.parse(sb.engram(['status', '--json']).stdout) as {
      hosts: { host: string; sessions: number }[];
    };
    expect(status.hosts).toEqual([expect.objectContaining({ host: 'codex', sessions: 1 })]);
    const found = JSON.parse(sb.engram(['search', 'pnpm', '--cwd', project, '--json']).stdout) as {
      results: { id: string; title: string }[];
    };
    const memory = found.results.find((r) => r.title === PREFERENCE);
    expect(memory).toBeDefined();
    const shown = JSON.parse(sb.engram(['show', memory?.id ?? '', '--json']).stdout) as { host: string };
    expect(shown.host).toBe('codex');

    // A Claude Code session (the default host, Claude Code's payload) in the same repository.
    const claude = sb.hook(payloads('claude-session-1', project).start(), { cwd: project });
    expect(claude.status).toBe(0);
    const told = JSON.parse(claude.stdout) as { hookSpecificOutput: { additionalContext: string } };
    expect(told.hookSpecificOutput.additionalContext).toContain(PREFERENCE);

    // And a second Codex session gets it in Codex's strict format: only the two fields Codex knows.
    const [start] = recordedSession(project, sb.home);
    const codex = spawnSync('/bin/sh', ['-c', installedCommand(hooksFile, 'SessionStart')], {
      input: JSON.stringify({ ...start, session_id: '01a21e00-0000-7000-8000-000000000002' }),
      cwd: project,
      env: { ...sb.env, CODEX_HOME: codexHome },
    });
    const out = JSON.parse(codex.stdout.toString()) as Record<string, Record<string, unknown>>;
    expect(Object.keys(out)).toEqual(['hookSpecificOutput']);
    expect(Object.keys(out['hookSpecificOutput'] ?? {}).sort()).toEqual([
      'additionalContext',
      'hookEventName',
    ]);
    expect(String(out['hookSpecificOutput']?.['additionalContext'])).toContain(PREFERENCE);
  });
});
