/**
 * engram's MCP server inside the other hosts' real CLIs: `engram install --host <name>` registers
 * `engram mcp` in the host's own registry (Codex's config.toml, Gemini CLI's settings.json, Copilot
 * CLI's mcp-config.json); the host, run against the loopback model mock, starts the server and offers
 * its tools; the mock calls `remember`, then `search`, and sees the memory come back; the memory is in
 * the store the hooks write to (ENGRAM_HOME reaches the server through the host).
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
import { createHostWorld, runHostCli, type HostName, type HostWorld } from './support/hosts/host-session.ts';
import { CODEX, COPILOT, ensurePinnedCli, GEMINI, type PinnedCli } from './support/hosts/pinned-cli.ts';

const TITLE = 'Release notes live in notes.md, newest release first';
const PROMPT = 'Remember where the release notes live, then look it up';

/** The host's name for an engram tool (`mcp__engram__search`, …), or undefined when it offers none. */
const toolNamed = (turn: Turn, tool: string): string | undefined =>
  turn.tools.find((n) => n.includes('engram') && n.endsWith(tool));

/** remember → search → a closing text; each step chosen by the tool results that came back. */
function mcpScript(): Script {
  return (turn) => {
    const last = turn.toolResults.at(-1);
    const remember = toolNamed(turn, 'remember');
    const search = toolNamed(turn, 'search');
    if (!remember || !search) return `no engram tools among: ${turn.tools.join(', ')}`;
    if (!last) return { toolCalls: [{ name: remember, args: { title: TITLE, type: 'convention' } }] };
    if (last.name === remember) return { toolCalls: [{ name: search, args: { query: 'release notes' } }] };
    return 'Found it.';
  };
}

const HOSTS: { host: HostName; cli: PinnedCli; invocation: typeof codexInvocation; registry: string }[] = [
  { host: 'codex', cli: CODEX, invocation: codexInvocation, registry: '.codex/config.toml' },
  { host: 'gemini', cli: GEMINI, invocation: geminiInvocation, registry: '.gemini/settings.json' },
  { host: 'copilot', cli: COPILOT, invocation: copilotInvocation, registry: '.copilot/mcp-config.json' },
];

describe.each(HOSTS)('engram MCP in $host', ({ host, cli, invocation, registry }) => {
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
    mock = await startMockModel(mcpScript());
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
    const first = turns[0];
    expect(first && toolNamed(first, 'search'), `${first?.tools.join(', ')}\n${run.stderr}`).toBeDefined();
    const results = turns.flatMap((t) => t.toolResults);
    expect(results.length, JSON.stringify(turns.map((t) => t.tools))).toBeGreaterThanOrEqual(2);
    expect(results.at(-1)?.output).toContain(TITLE);

    const found = JSON.parse(engram(['search', 'release notes', '--json']).stdout) as {
      results: { title: string }[];
    };
    expect(found.results.map((r) => r.title)).toContain(TITLE);

    const doctor = JSON.parse(engram(['doctor', '--json']).stdout) as {
      checks: { name: string; status: string }[];
    };
    expect(doctor.checks.find((c) => c.name === `mcp ${host}`)?.status).toBe('ok');
  });
});
