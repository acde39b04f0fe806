/**
 * A memory the agent saves through MCP `remember` records the host it came from: the real `engram mcp`
 * server over stdio, each client connecting under the name a host's MCP client gives in `initialize`.
 * The caller is no host session: `status`'s per-host counts hold only the sessions the hooks captured.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_BIN, createSandbox, payloads, type Sandbox } from '../support/sandbox.ts';

type CallResult = { content: { type: string; text: string }[]; isError?: boolean };

describe('MCP remember records the caller’s host', () => {
  let sb: Sandbox;
  let cwd: string;

  const rememberAs = async (clientName: string, title: string): Promise<string> => {
    const env = Object.fromEntries(
      Object.entries(sb.env).filter((e): e is [string, string] => typeof e[1] === 'string'),
    );
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI_BIN, 'mcp'],
      env,
      cwd,
      stderr: 'pipe',
    });
    const client = new Client({ name: clientName, version: '1.0.0' });
    await client.connect(transport);
    try {
      const r = (await client.callTool({ name: 'remember', arguments: { title } })) as CallResult;
      expect(r.isError, r.content[0]?.text).toBeFalsy();
      return /obs_[0-9a-z]{20}/.exec(r.content[0]?.text ?? '')?.[0] ?? '';
    } finally {
      await client.close();
    }
  };
  const hostOf = (id: string) =>
    (JSON.parse(sb.engram(['show', id, '--json']).stdout) as { host: string | null }).host;

  beforeAll(() => {
    sb = createSandbox();
    cwd = sb.project('mcp-hosts', 'git@github.com:example/mcp-hosts.git');
    const p = payloads('sess-claude', cwd);
    for (const c of [p.start(), p.prompt('Check the release script'), p.stop('Checked.'), p.end()])
      expect(sb.hook(c).status).toBe(0);
    expect(sb.engram(['flush']).status).toBe(0);
  });
  afterAll(() => sb?.cleanup());

  it('takes the host from the client’s name, or unknown; the per-host counts are the hooks’ sessions only', async () => {
    const codex = await rememberAs('codex-mcp-client', 'Release builds are signed with the team key');
    const gemini = await rememberAs('gemini-cli-mcp-client', 'The changelog is generated from commit titles');
    const claude = await rememberAs('claude-code', 'Staging deploys run from the deploy branch');
    const other = await rememberAs('some-editor', 'Benchmarks run on the CI runner only');
    expect(hostOf(codex)).toBe('codex');
    expect(hostOf(gemini)).toBe('gemini');
    expect(hostOf(claude)).toBe('claude-code');
    expect(hostOf(other)).toBe('unknown');

    const status = JSON.parse(sb.engram(['status', '--json']).stdout) as {
      hosts: { host: string; sessions: number; events: number }[];
    };
    // One Claude Code session captured by its hooks; none of the MCP callers counts as a host's session.
    expect(status.hosts).toEqual([expect.objectContaining({ host: 'claude-code', sessions: 1, events: 4 })]);
  });
});
