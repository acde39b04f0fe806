/**
 * engram's MCP server inside the other hosts' real CLIs: `engram install --host <name>` registers
 * `engram mcp` in the host's own registry (Codex's config.toml, Gemini CLI's settings.json, Copilot
 * CLI's mcp-config.json); the host, run against the loopback model mock, starts the server and offers
 * its tools; the mock calls `remember`, then `search`, and sees the memory come back; the memory is in
 * the store the hooks write to (ENGRAM_HOME reaches the server through the host), credited to that host.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockModel, type MockModel, type Script, type Turn } from '../support/mock-models/server.ts';
import { CLI_BIN } from '../support/sandbox.ts';
import {
  codexInvocation,
  copilotInvocation,
  geminiInvocation,
  type Invocation,
} from './support/hosts/host-configs.ts';
import {
  createHostWorld,
  runHostCli,
  shellCall,
  type HostName,
  type HostWorld,
} from './support/hosts/host-session.ts';
import { CODEX, COPILOT, ensurePinnedCli, GEMINI, type PinnedCli } from './support/hosts/pinned-cli.ts';

const TITLE = 'Release notes live in notes.md, newest release first';
const PROMPT = 'Remember where the release notes live, then look it up';

/** The host's name for an engram tool (`mcp__engram__search`, …), or undefined when it offers none. */
const toolNamed = (turn: Turn, tool: string): string | undefined =>
  turn.tools.find((n) => n.includes('engram') && n.endsWith(tool));

/** How many no-op shell steps the script takes while the host has not yet offered engram's tools. */
const READINESS_STEPS = 30;

/**
 * remember → search → a closing text; each step chosen by the tool results that came back. Codex
 * starts its MCP servers beside the session and offers their tools from the first model request
 * after they have listed them: until then the script runs a no-op command and asks again.
 */
function mcpScript(host: HostName): Script {
  let waited = 0;
  return (turn) => {
    const last = turn.toolResults.at(-1);
    const remember = toolNamed(turn, 'remember');
    const search = toolNamed(turn, 'search');
    if (!remember || !search) {
      if (waited++ < READINESS_STEPS) return { toolCalls: [shellCall(host, 'true')] };
      return `no engram tools among: ${turn.tools.join(', ')}`;
    }
    if (!last || !last.name?.includes('engram'))
      return { toolCalls: [{ name: remember, args: { title: TITLE, type: 'convention' } }] };
    if (last.name === remember) return { toolCalls: [{ name: search, args: { query: 'release notes' } }] };
    return 'Found it.';
  };
}

const HOSTS: {
  host: HostName;
  cli: PinnedCli;
  invocation: typeof codexInvocation;
  registry: string;
  /** The host's hook event after a tool call. */
  toolHook: string;
}[] = [
  {
    host: 'codex',
    cli: CODEX,
    invocation: codexInvocation,
    registry: '.codex/config.toml',
    toolHook: 'PostToolUse',
  },
  {
    host: 'gemini',
    cli: GEMINI,
    invocation: geminiInvocation,
    registry: '.gemini/settings.json',
    toolHook: 'AfterTool',
  },
  {
    host: 'copilot',
    cli: COPILOT,
    invocation: copilotInvocation,
    registry: '.copilot/mcp-config.json',
    toolHook: 'PostToolUse',
  },
];

describe.each(HOSTS)('engram MCP in $host', ({ host, cli, invocation, registry, toolHook }) => {
  let world: HostWorld;
  let mock: MockModel;
  let inv: Invocation;
  let engramHome: string;

  const engram = (args: string[]) => {
    const r = spawnSync(process.execPath, [CLI_BIN, ...args], {
      cwd: world.project,
      env: { ...inv.env, ENGRAM_HOME: engramHome, ENGRAM_WORKER_AUTOSTART: 'false' },
    });
    return { status: r.status, stdout: r.stdout.toString(), stderr: r.stderr.toString() };
  };

  beforeAll(async () => {
    const dir = await ensurePinnedCli(cli);
    world = createHostWorld(host);
    // Not $HOME/.engram: the server finds this store only if the host hands it ENGRAM_HOME.
    engramHome = join(world.root, 'engram-home');
    mock = await startMockModel(mcpScript(host));
    inv = invocation(world, { cliDir: dir, apiUrl: mock.url, prompt: PROMPT });
  }, 20 * 60_000);

  afterAll(async () => {
    await mock?.close();
    world?.cleanup();
  });

  it('offers engram’s tools; a memory remembered through them is found again, in the hooks’ store', async () => {
    const installed = engram(['install', '--host', host]);
    expect(installed.status, installed.stderr).toBe(0);
    expect(installed.stdout).toContain(`MCP server "engram" registered in ${join(world.home, registry)}`);

    const run = await runHostCli(inv.bin, inv.args, {
      cwd: world.project,
      env: { ...inv.env, ENGRAM_HOME: engramHome, ENGRAM_WORKER_AUTOSTART: 'false' },
      timeoutMs: 60_000,
    });
    expect(run.timedOut, run.stderr).toBe(false);
    expect(run.exitCode, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(mock.errors).toEqual([]);
    const turns = mock.mainTurns();
    const first = turns.find((t) => toolNamed(t, 'search'));
    expect(first, `${turns.at(-1)?.tools.join(', ')}\n${run.stderr}`).toBeDefined();
    const results = turns.flatMap((t) => t.toolResults);
    expect(results.length, JSON.stringify(turns.map((t) => t.tools))).toBeGreaterThanOrEqual(2);
    expect(results.at(-1)?.output).toContain(TITLE);

    const found = JSON.parse(engram(['search', 'release notes', '--json']).stdout) as {
      results: { id: string; title: string }[];
    };
    expect(found.results.map((r) => r.title)).toContain(TITLE);
    // The memory records the host whose MCP client saved it (its `initialize` name), not Claude Code.
    const saved = found.results.find((r) => r.title === TITLE)?.id ?? '';
    expect((JSON.parse(engram(['show', saved, '--json']).stdout) as { host: string }).host).toBe(host);

    // engram's own tools are never captured by its hooks: reading memory never becomes a memory.
    expect(engram(['flush']).status).toBe(0);
    const status = JSON.parse(engram(['status', '--json']).stdout) as {
      hooks: { hook: string; count: number }[];
    };
    const hooks = new Map(status.hooks.map((h) => [h.hook, h.count]));
    expect(hooks.get('SessionStart')).toBe(1);
    // Only the no-op commands run while the host had not yet offered engram's tools are tool events.
    expect(hooks.get(toolHook) ?? 0, `tools offered: ${first?.tools.join(', ')}`).toBe(
      turns.indexOf(first as Turn),
    );

    const doctor = JSON.parse(engram(['doctor', '--json']).stdout) as {
      checks: { name: string; status: string }[];
    };
    expect(doctor.checks.find((c) => c.name === `mcp ${host}`)?.status).toBe('ok');
  });
});
