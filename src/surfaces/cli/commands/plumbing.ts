/**
 * What Claude Code runs: `engram hook` (one payload on stdin; bin/engram loads only the hook bundle
 * for it, so this spec is for help) and `engram mcp` (the MCP server on stdio).
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as McpEntryModule from '../../mcp/main.ts';
import { dirFlag } from './memory.ts';
import type { CommandSpec } from '../registry.ts';

export const hookSpec: CommandSpec = {
  name: 'hook',
  group: 'Health and plumbing',
  summary: 'handle one hook payload on stdin (what the installed hooks run)',
  usage: '[--host NAME] < payload.json',
  details:
    'Always exits 0: a problem is logged to $ENGRAM_HOME/logs/hook.log, never shown to the agent. The host is Claude Code unless --host names another (codex, copilot, cursor, gemini, opencode).',
  flags: {
    host: {
      type: 'string',
      value: 'NAME',
      description: 'the host whose payload this is: claude-code (default), codex, copilot or gemini',
    },
  },
  noJson: true,
  examples: [
    'engram hook < payload.json   (Claude Code pipes each hook payload in)',
    'engram hook --host codex < payload.json',
    'engram hook --host gemini < payload.json',
  ],
  // bin/engram hands `engram hook` to dist/hook.cjs before the CLI loads; this runs it from dist/cli.mjs.
  run: async (ctx) => {
    const { createRequire } = await import('node:module');
    createRequire(join(ctx.distDir, 'cli.mjs'))('./hook.cjs');
    return 0;
  },
};

export const mcpSpec: CommandSpec = {
  name: 'mcp',
  group: 'Health and plumbing',
  summary: 'the MCP server on stdio (search, timeline, get_observations, …; registered by install)',
  usage: '[--cwd DIR]',
  flags: { cwd: { type: 'string', value: 'DIR', description: 'the project directory (default: here)' } },
  noJson: true,
  examples: ['engram mcp'],
  run: async (ctx, args) => {
    // Loaded only here: the MCP SDK is not needed by any other command.
    const entry = pathToFileURL(join(ctx.distDir, 'mcp.mjs')).href;
    const { runMcpServer } = (await import(entry)) as typeof McpEntryModule;
    await runMcpServer(ctx.runtime, dirFlag(ctx, args));
    return 0;
  },
};
