/**
 * engram as a Claude Code plugin, end to end: engram installed with npm (`npm install -g` of this
 * checkout into a temporary prefix), this repository added as a local marketplace and the plugin
 * installed from it with the real `claude plugin` commands (temporary HOME, offline), then real
 * `claude -p` sessions against the loopback mock: the first is captured by the plugin's hooks, the
 * second is told about it at SessionStart and gets it back from the plugin's MCP server.
 */
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pathWithout } from '../support/path-without.ts';
import { createSandbox, REPO_ROOT, type Sandbox } from '../support/sandbox.ts';
import { claudeCommand, ensureClaudeCli, runClaude, type StreamMessage } from './support/claude-cli.ts';
import { startMockAnthropic, type MockAnthropic, type Reply } from './support/mock-anthropic.ts';

const FIRST = 'Write the deploy checklist into checklist.md and show it';
const SECOND = 'What did we decide about the deploy checklist?';
/** Claude Code names a plugin's MCP tools `mcp__plugin_<plugin>_<server>__<tool>`. */
const SEARCH_TOOL = 'mcp__plugin_engram_engram__search';

interface Status {
  hooks: { hook: string; count: number }[];
  queue: { pending: number; parked: number; inbox: number };
}

describe('engram as a Claude Code plugin from a local marketplace', () => {
  let claude: string;
  let mock: MockAnthropic;
  let sb: Sandbox;
  let project: string;
  /** The directory npm put the `engram` command in. */
  let npmBin: string;

  beforeAll(async () => {
    claude = await ensureClaudeCli();
    sb = createSandbox({ ENGRAM_WORKER_AUTOSTART: 'true', ENGRAM_WORKER_IDLE_EXIT_SECONDS: '30' });
    project = sb.project('deploy-tools', 'git@github.com:example/deploy-tools.git');
    // engram installed with npm, as a user would from this checkout (a link: no download, no build).
    const prefix = join(sb.root, 'npm-global');
    const npm = spawnSync(
      'npm',
      [
        'install',
        '-g',
        '--prefix',
        prefix,
        '--offline',
        '--ignore-scripts',
        '--no-audit',
        '--no-fund',
        REPO_ROOT,
      ],
      { env: { PATH: process.env['PATH'] ?? '', HOME: sb.home }, encoding: 'utf8', timeout: 120_000 },
    );
    expect(npm.status, npm.stderr).toBe(0);
    npmBin = join(prefix, 'bin');
    expect(existsSync(join(npmBin, 'engram'))).toBe(true);

    mock = await startMockAnthropic((ctx): Reply => {
      if (ctx.lastPrompt.includes(SECOND)) {
        return ctx.stepInTurn === 0
          ? { toolUses: [{ name: SEARCH_TOOL, input: { query: 'deploy checklist' } }] }
          : { text: 'We wrote checklist.md with the deploy steps.' };
      }
      const steps: Reply[] = [
        {
          toolUses: [
            {
              name: 'Write',
              input: {
                file_path: join(project, 'checklist.md'),
                content: '# Deploy\n\n- run the migrations\n',
              },
            },
          ],
        },
        { toolUses: [{ name: 'Bash', input: { command: 'cat checklist.md', description: 'Show it' } }] },
        { text: 'Wrote checklist.md with the deploy steps and printed it.' },
      ];
      return steps[ctx.stepInTurn] ?? { text: 'Done.' };
    });

    const cli = { bin: claude, home: sb.home, cwd: sb.root };
    // Claude Code's own validator accepts the marketplace and the plugin (it exits 1 on an error).
    await claudeCommand(['plugin', 'validate', REPO_ROOT], cli);
    await claudeCommand(['plugin', 'validate', join(REPO_ROOT, 'plugins', 'engram')], cli);
    await claudeCommand(['plugin', 'marketplace', 'add', REPO_ROOT], cli);
    const installed = await claudeCommand(['plugin', 'install', 'engram@engram'], cli);
    expect(installed.stdout).toContain('engram@engram');
  }, 20 * 60_000);

  afterAll(async () => {
    // Stop the worker the plugin's hooks started (engram stops only the pid it recorded), then clean up.
    sb?.engram(['worker', 'stop']);
    await mock?.close();
    sb?.cleanup();
  });

  const run = (prompt: string, path: string, allowedTools?: string[]) =>
    runClaude({
      bin: claude,
      prompt,
      cwd: project,
      home: sb.home,
      apiUrl: mock.url,
      sessionId: randomUUID(),
      ...(allowedTools ? { allowedTools } : {}),
      env: {
        PATH: path,
        ENGRAM_HOME: sb.engramHome,
        ENGRAM_WORKER_AUTOSTART: 'true',
        ENGRAM_WORKER_IDLE_EXIT_SECONDS: '30',
        ENABLE_TOOL_SEARCH: 'false',
      },
    });
  const status = () => JSON.parse(sb.engram(['status', '--json']).stdout) as Status;
  const hookResponses = (messages: StreamMessage[]) =>
    messages.filter((m) => m.type === 'system' && m.subtype === 'hook_response');

  it('captures a session through the plugin and recalls it in the next one, at SessionStart and over MCP', async () => {
    const withEngram = [npmBin, dirname(process.execPath), process.env['PATH'] ?? ''].join(delimiter);
    // Only the plugin registers engram: no hooks in the user's settings, no MCP server in ~/.claude.json.
    const settings = JSON.parse(readFileSync(join(sb.home, '.claude', 'settings.json'), 'utf8')) as {
      hooks?: unknown;
      enabledPlugins?: Record<string, boolean>;
    };
    expect(settings.hooks).toBeUndefined();
    expect(settings.enabledPlugins).toEqual({ 'engram@engram': true });

    const r1 = await run(FIRST, withEngram);
    expect(r1.exitCode, r1.stderr).toBe(0);
    expect(readFileSync(join(project, 'checklist.md'), 'utf8')).toContain('run the migrations');
    const responses = hookResponses(r1.messages);
    expect(responses.length).toBeGreaterThan(0);
    expect(responses.every((m) => m['exit_code'] === 0)).toBe(true);

    const flush = sb.engram(['flush', '--json']);
    expect(flush.status, flush.stderr).toBe(0);
    const afterFirst = status();
    const seen = Object.fromEntries(afterFirst.hooks.map((h) => [h.hook, h.count]));
    expect(seen).toMatchObject({ SessionStart: 1, UserPromptSubmit: 1, Stop: 1 });
    expect(seen['PostToolUse']).toBe(2); // the Write and the Bash call
    expect(afterFirst.queue).toMatchObject({ pending: 0, parked: 0 });

    const r2 = await run(SECOND, withEngram, ['Bash', 'Write', 'Edit', 'Read', SEARCH_TOOL]);
    expect(r2.exitCode, r2.stderr).toBe(0);
    const requests = mock.requestsFor(SECOND);
    // SessionStart: the plugin's hook injected what the first session did.
    const context = mock.systemMessages(requests[0] ?? {}).join('\n');
    expect(context).toContain('SessionStart hook additional context');
    expect(context).toContain('engram memory for project "deploy-tools"');
    expect(context).toContain('checklist.md');
    // MCP: the plugin's server answered the model's search with the first session's memory.
    const offered = ((requests[0]?.tools ?? []) as { name?: string }[]).map((t) => t.name);
    expect(offered).toContain(SEARCH_TOOL);
    const answer = mock.toolResults().find((t) => t.name === SEARCH_TOOL);
    expect(answer?.isError).toBe(false);
    expect(answer?.content).toMatch(/obs_[0-9a-z]{20} \[\w+\] .*checklist\.md/);

    // engram never captures its own MCP calls: session 2 added no PostToolUse.
    expect(sb.engram(['flush']).status).toBe(0);
    const afterSecond = Object.fromEntries(status().hooks.map((h) => [h.hook, h.count]));
    expect(afterSecond).toMatchObject({ SessionStart: 2, UserPromptSubmit: 2, PostToolUse: 2 });
  });

  it('without engram on PATH, the hooks still exit 0 and SessionStart tells the user how to install it', async () => {
    const before = status();
    // node stays reachable (the hooks run with it); no engram command, even one npm linked beside node.
    const withoutEngram = pathWithout(
      'engram',
      [dirname(process.execPath), ...(process.env['PATH'] ?? '').split(delimiter)],
      join(sb.root, 'shadow-path'),
    );
    const r = await run('Say hello', withoutEngram);
    expect(r.exitCode, r.stderr).toBe(0);
    const responses = hookResponses(r.messages);
    expect(responses.length).toBeGreaterThan(0);
    expect(responses.every((m) => m['exit_code'] === 0)).toBe(true);
    const start = responses.find((m) => m['hook_event'] === 'SessionStart');
    expect(String(start?.['stdout'])).toContain('the engram command is not on PATH');
    expect(status().hooks).toEqual(before.hooks); // nothing captured
  });
});
