// What a search costs at the surfaces a user or a model calls, beside the in-process figures:
//  - `engram search` in a shell: a whole process (Node start, CLI load, store open, search, print);
//  - the MCP `search` tool: one `engram mcp` server kept running and connected (as Claude Code keeps it
//    for a session), each call a JSON-RPC round trip over stdio; its start-up (spawn + initialize) apart.
// Both run the real entry (bin/engram) on a given ENGRAM_HOME, in a project directory.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

export interface SurfaceTarget {
  /** ENGRAM_HOME holding the store as engram.db. */
  home: string;
  /** The project directory the calls are made from. */
  cwd: string;
  repoRoot: string;
}

const envFor = (t: SurfaceTarget): Record<string, string> => ({
  PATH: process.env['PATH'] ?? '/usr/bin:/bin',
  HOME: join(t.home, 'user-home'),
  ENGRAM_HOME: t.home,
  ENGRAM_WORKER_AUTOSTART: 'false',
});

function timed(run: () => { status: number | null; stderr: Buffer | string }): number {
  const t = performance.now();
  const r = run();
  const ms = performance.now() - t;
  if (r.status !== 0) throw new Error(`surface call failed: ${String(r.stderr).slice(0, 500)}`);
  return ms;
}

/** Wall time of `engram search <q> --json` per query, and of `node -e 0` alternating with it. */
export function cliSearchMs(t: SurfaceTarget, queries: readonly string[]): { cli: number[]; node: number[] } {
  const env = envFor(t);
  const bin = join(t.repoRoot, 'bin', 'engram');
  const cli: number[] = [];
  const node: number[] = [];
  for (const q of queries) {
    node.push(timed(() => spawnSync(process.execPath, ['-e', '0'], { env })));
    cli.push(timed(() => spawnSync(process.execPath, [bin, 'search', q, '--json'], { cwd: t.cwd, env })));
  }
  return { cli, node };
}

/** Start-up of one `engram mcp` server (spawn + initialize), then the wall time of each `search` call. */
export async function mcpSearchMs(
  t: SurfaceTarget,
  queries: readonly string[],
): Promise<{ connectMs: number; calls: number[] }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(t.repoRoot, 'bin', 'engram'), 'mcp'],
    env: envFor(t),
    cwd: t.cwd,
    stderr: 'ignore',
  });
  const client = new Client({ name: 'engram-bench', version: '1.0.0' });
  const t0 = performance.now();
  await client.connect(transport);
  const connectMs = performance.now() - t0;
  try {
    const calls: number[] = [];
    for (const query of queries) {
      const t1 = performance.now();
      const r = await client.callTool({ name: 'search', arguments: { query } });
      calls.push(performance.now() - t1);
      if (r.isError) throw new Error(`MCP search failed: ${JSON.stringify(r.content).slice(0, 500)}`);
    }
    return { connectMs, calls };
  } finally {
    await client.close(); // ends the server process it started
  }
}
