/**
 * `engram install` / `engram uninstall`: register engram's hooks with Claude Code (merged into the
 * user's settings, with a backup) and take them out again.
 */
import { MCP_TOOL_NAMES } from '../../mcp/tool-names.ts';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { EngramError } from '../../../core/errors.ts';
import { HOOK_EVENTS } from '../../../core/model.ts';
import { ENGRAM_HOOK_MARKER, installHooks, uninstallHooks } from '../claude-settings.ts';
import { claudeCodeAdapter } from '../../../capture/hosts/claude-code/adapter.ts';
import type { HostAdapter } from '../../../capture/hosts/host-port.ts';
import { transcriptFinder } from '../../../capture/hosts/transcript-finders.ts';
import { printJson, type CliContext } from '../context.ts';
import { boolFlag, stringFlag, type CommandSpec, type ParsedArgs } from '../registry.ts';
import { backfillCommand } from './backfill.ts';
import {
  HOST_FLAG,
  hostFlag,
  installHostCommand,
  registerMcpFor,
  uninstallHostCommand,
  unregisterMcpFor,
} from './install-host.ts';

export function defaultSettingsPath(ctx: CliContext): string {
  return join(ctx.runtime.env['HOME'] || homedir(), '.claude', 'settings.json');
}

/**
 * The command Claude Code runs (through /bin/sh) for each hook: this node binary and this install's hook
 * bundle, ending with a comment that marks it as engram's for uninstall.
 */
export function hookCommand(ctx: CliContext): string {
  const hook = join(ctx.distDir, 'hook.cjs');
  if (!existsSync(hook)) {
    throw new EngramError('INSTALL_FAILED', `the hook bundle is missing at ${hook}`, {
      hint: 'Run "npm run build".',
    });
  }
  return `"${process.execPath}" "${hook}" ${ENGRAM_HOOK_MARKER}`;
}

/** Claude Code's user-scope MCP registry: `~/.claude.json`. */
export function claudeJsonPath(ctx: CliContext): string {
  return join(ctx.runtime.env['HOME'] || homedir(), '.claude.json');
}

function registerMcp(ctx: CliContext): { path: string; changed: boolean } {
  const r = registerMcpFor(ctx, claudeCodeAdapter);
  return { path: r?.file ?? claudeJsonPath(ctx), changed: r?.changed ?? false };
}

/** After installing: read the host's existing transcripts now (`--backfill`), or say how to. */
async function offerBackfill(
  ctx: CliContext,
  host: HostAdapter,
  flags: { json: boolean; backfill: boolean },
): Promise<void> {
  const finder = transcriptFinder(host.name);
  if (!finder) return;
  const roots = finder.roots(ctx.runtime.env, ctx.runtime.env['HOME'] || homedir());
  const count = roots
    .flatMap((root) => finder.find(root, ctx.runtime.paths.hostSessionsDir))
    .filter((f) => !f.subagent).length;
  if (count === 0) return;
  if (flags.backfill) {
    await backfillCommand(ctx, { json: flags.json, dryRun: false, host: host.name });
    return;
  }
  if (!flags.json) {
    const command = host.name === 'claude-code' ? 'engram backfill' : `engram backfill --host ${host.name}`;
    ctx.io.out(
      `  you have ${count} earlier ${host.setup.label} sessions in ${roots.filter(existsSync).join(', ')}; read them into memory with "${command}"\n` +
        '  (or install with --backfill to do it now)\n',
    );
  }
}

export async function installCommand(
  ctx: CliContext,
  flags: { json: boolean; settings?: string; backfill?: boolean },
): Promise<number> {
  const settingsPath = resolve(ctx.cwd, flags.settings ?? defaultSettingsPath(ctx));
  const report = installHooks(settingsPath, {
    command: hookCommand(ctx),
    events: HOOK_EVENTS,
    timeoutSeconds: (event) => (event === 'SessionEnd' ? 5 : 15),
  });
  // An explicit settings file is all that is touched: the global MCP registration stays as it is.
  const mcp = flags.settings ? null : registerMcp(ctx);
  if (flags.json) {
    printJson(ctx, { ...report, mcp: mcp ? { path: mcp.path, changed: mcp.changed } : null });
    if (flags.backfill) await offerBackfill(ctx, claudeCodeAdapter, { json: true, backfill: true });
    return 0;
  }
  const lines = [
    `engram hooks installed in ${report.settingsPath}`,
    report.added.length > 0 ? `  added: ${report.added.join(', ')}` : '  nothing to add (already installed)',
  ];
  if (report.backupPath) lines.push(`  backup of your previous settings: ${report.backupPath}`);
  lines.push(
    `  memory lives in ${ctx.runtime.home}; check capture with "engram status"`,
    mcp
      ? `  MCP server "engram" ${mcp.changed ? 'registered' : 'already registered'} in ${mcp.path} (tools: ${MCP_TOOL_NAMES.join(', ')})`
      : '  MCP server not registered (--settings names the only file engram changes; run "engram install" without it for the MCP server)',
    '  undo with "engram uninstall"',
  );
  ctx.io.out(`${lines.join('\n')}\n`);
  await offerBackfill(ctx, claudeCodeAdapter, { json: false, backfill: flags.backfill === true });
  return 0;
}

export function uninstallCommand(ctx: CliContext, flags: { json: boolean; settings?: string }): number {
  const settingsPath = resolve(ctx.cwd, flags.settings ?? defaultSettingsPath(ctx));
  const report = uninstallHooks(settingsPath);
  const mcpRemoved = flags.settings ? false : unregisterMcpFor(ctx, claudeCodeAdapter);
  if (flags.json) {
    printJson(ctx, { ...report, mcpRemoved });
    return 0;
  }
  if (report.removed.length === 0) ctx.io.out(`no engram hooks found in ${settingsPath}\n`);
  else {
    ctx.io.out(
      `removed engram hooks (${report.removed.join(', ')}) from ${settingsPath}` +
        `${report.deletedFile ? ' (the file was created by engram and is now deleted)' : report.restoredExactly ? ' (restored exactly as before)' : ''}\n` +
        `  your memories stay in ${ctx.runtime.home}\n`,
    );
  }
  if (mcpRemoved) ctx.io.out(`removed the engram MCP server from ${claudeJsonPath(ctx)}\n`);
  return 0;
}

const SETTINGS_FLAG = {
  type: 'string' as const,
  value: 'FILE',
  description:
    "the hook file to change instead of the host's own (Claude Code: ~/.claude/settings.json); then only that file is touched: no MCP registration",
};

/** `--settings FILE`: resolved; its directory must exist (a typo must not create a stray settings file). */
function settingsFlag(ctx: CliContext, args: ParsedArgs): string | undefined {
  const given = stringFlag(args, 'settings');
  if (given === undefined) return undefined;
  const path = resolve(ctx.cwd, given);
  if (!existsSync(dirname(path)))
    throw new EngramError('INPUT_INVALID', `--settings: the directory ${dirname(path)} does not exist`, {
      hint: 'Give the path of a settings file in an existing directory, e.g. .claude/settings.local.json.',
    });
  return path;
}

export const installSpec: CommandSpec = {
  name: 'install',
  group: 'Set-up',
  summary: "add engram's hooks and MCP server to Claude Code or another agent (with a backup)",
  usage: '[--host NAME] [--settings FILE] [--backfill]',
  details:
    'Merges into ~/.claude/settings.json without dropping your own hooks, and registers the MCP server in ~/.claude.json. With --host codex: the hooks into $CODEX_HOME/hooks.json (default ~/.codex), the MCP server into $CODEX_HOME/config.toml; with --host gemini: both into ~/.gemini/settings.json; with --host copilot: the hooks into $COPILOT_HOME/settings.json (default ~/.copilot), the MCP server into $COPILOT_HOME/mcp-config.json; with --host opencode: writes engram\u2019s plugin into opencode\u2019s plugins folder ($OPENCODE_CONFIG_DIR, else $XDG_CONFIG_HOME/opencode, else ~/.config/opencode); with --host cursor: the hooks into ~/.cursor/hooks.json (no MCP server). Idempotent; undo with "engram uninstall" (with the same --host).',
  flags: {
    host: HOST_FLAG,
    settings: SETTINGS_FLAG,
    backfill: { type: 'boolean', description: 'also read your earlier sessions’ transcripts now' },
  },
  examples: [
    'engram install',
    'engram install --host codex',
    'engram install --host gemini',
    'engram install --host opencode',
    'engram install --host copilot',
    'engram install --host cursor',
    'engram install --backfill',
    'engram install --settings .claude/settings.local.json',
  ],
  run: async (ctx, args) => {
    const host = hostFlag(args);
    const settings = settingsFlag(ctx, args);
    if (host.name !== 'claude-code') {
      const backfill = boolFlag(args, 'backfill');
      // Refused before anything is written: a host whose sessions engram cannot read has nothing to backfill.
      if (backfill && !transcriptFinder(host.name))
        throw new EngramError(
          'INPUT_INVALID',
          `engram reads no ${host.setup.label} transcripts, so there is nothing to backfill`,
          {
            hint: `Run "engram install --host ${host.name}" without --backfill: its sessions are captured from now on.`,
          },
        );
      const code = installHostCommand(ctx, host, { json: args.json, ...(settings ? { settings } : {}) });
      if (!args.json || backfill) await offerBackfill(ctx, host, { json: args.json, backfill });
      return code;
    }
    return installCommand(ctx, {
      json: args.json,
      backfill: boolFlag(args, 'backfill'),
      ...(settings ? { settings } : {}),
    });
  },
};

export const uninstallSpec: CommandSpec = {
  name: 'uninstall',
  group: 'Set-up',
  summary: "take engram's hooks and MCP server out again (memories stay)",
  usage: '[--host NAME] [--settings FILE]',
  flags: { host: HOST_FLAG, settings: SETTINGS_FLAG },
  examples: [
    'engram uninstall',
    'engram uninstall --host codex',
    'engram uninstall --host gemini',
    'engram uninstall --host opencode',
    'engram uninstall --host cursor',
  ],
  run: (ctx, args) => {
    const host = hostFlag(args);
    const settings = settingsFlag(ctx, args);
    if (host.name !== 'claude-code')
      return uninstallHostCommand(ctx, host, { json: args.json, ...(settings ? { settings } : {}) });
    return uninstallCommand(ctx, { json: args.json, ...(settings ? { settings } : {}) });
  },
};
