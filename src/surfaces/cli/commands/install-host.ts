/**
 * `engram install --host <name>` / `engram uninstall --host <name>` for a host other than Claude Code:
 * engram's hook for each of the adapter's events, merged into the host's own hook file (Claude Code's
 * shape, or the flat entries of Copilot CLI's settings: a backup first, undone byte for byte), and what
 * the user still has to do there.
 */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { HOST_NAMES, hostAdapter, isHostName, type HostAdapter } from '../../../capture/hosts/index.ts';
import { hostPlugin } from '../../../capture/hosts/plugins.ts';
import { EngramError } from '../../../core/errors.ts';
import { MCP_TOOL_NAMES } from '../../mcp/tool-names.ts';
import { ENGRAM_HOOK_MARKER, installHooks, uninstallHooks } from '../claude-settings.ts';
import { printJson, type CliContext } from '../context.ts';
import { installPluginFile, uninstallPluginFile, type PluginSpec } from '../plugin-file.ts';
import { registerHostMcp, unregisterHostMcp, type McpRegistration } from '../mcp-registration.ts';
import { stringFlag, type ParsedArgs } from '../registry.ts';

export const HOST_FLAG = {
  type: 'string' as const,
  value: 'NAME',
  description: `the coding agent to set up: ${HOST_NAMES.map((n, i) => (i === 0 ? `${n} (default)` : n)).join(', ')}`,
};

/** `--host NAME`: the adapter it names (Claude Code when absent); an unknown name exits 2. */
export function hostFlag(args: ParsedArgs): HostAdapter {
  const name = stringFlag(args, 'host') ?? 'claude-code';
  if (!isHostName(name))
    throw new EngramError('INPUT_INVALID', `--host: engram has no adapter for "${name}"`, {
      hint: `Give one of: ${HOST_NAMES.join(', ')}.`,
    });
  return hostAdapter(name);
}

const homeOf = (ctx: CliContext): string => ctx.runtime.env['HOME'] || homedir();

/** The host's hook file, from the environment (`$CODEX_HOME/hooks.json`, …). */
export const hostHooksFile = (ctx: CliContext, host: HostAdapter): string =>
  host.setup.hooksFile(ctx.runtime.env, homeOf(ctx));

/** This install's hook bundle (refused when it was never built). */
function hookBundle(ctx: CliContext): string {
  const hook = join(ctx.distDir, 'hook.cjs');
  if (!existsSync(hook)) {
    throw new EngramError('INSTALL_FAILED', `the hook bundle is missing at ${hook}`, {
      hint: 'Run "npm run build".',
    });
  }
  return hook;
}

/** A plugin host's file (opencode), its text calling this node binary and this install's hook bundle. */
function pluginSpec(ctx: CliContext, host: HostAdapter): PluginSpec | null {
  const plugin = hostPlugin(host.name);
  if (!plugin) return null;
  const hook = { node: process.execPath, bundle: hookBundle(ctx) };
  return {
    source: (dirs) => plugin.source(hook, dirs),
    isEngrams: plugin.isEngrams,
    createdDirs: plugin.createdDirs,
  };
}

function installPluginCommand(
  ctx: CliContext,
  host: HostAdapter,
  spec: PluginSpec,
  flags: { json: boolean; settings?: string },
): number {
  const report = installPluginFile(flags.settings ?? hostHooksFile(ctx, host), spec);
  if (flags.json) {
    printJson(ctx, { ...report, host: host.name, needsTrust: false });
    return 0;
  }
  const done = { created: 'installed', updated: 'updated', unchanged: 'already installed' }[report.outcome];
  ctx.io.out(
    [
      `engram plugin for ${host.setup.label} ${done}: ${report.pluginPath}`,
      `  ${host.setup.label} loads it when it starts (not with --pure); check capture with "engram status"`,
      `  memory lives in ${ctx.runtime.home}, shared with your other agents`,
      `  undo with "engram uninstall --host ${host.name}"`,
    ].join('\n') + '\n',
  );
  return 0;
}

/**
 * The command the host runs for each hook: this node binary and this install's hook bundle with the
 * host's words (`--host codex`), ending with the marker that makes it engram's for uninstall.
 */
export function hostHookCommand(ctx: CliContext, host: HostAdapter): string {
  const hook = hookBundle(ctx);
  const words = [`"${process.execPath}"`, `"${hook}"`, ...host.setup.hookArgs];
  return `${words.join(' ')} ${ENGRAM_HOOK_MARKER}`;
}

/** The host's MCP registry file (`~/.claude.json`, `$CODEX_HOME/config.toml`, …), or null when it has none. */
export const hostMcpFile = (ctx: CliContext, host: HostAdapter): string | null =>
  host.setup.mcp ? host.setup.mcp.file(ctx.runtime.env, homeOf(ctx)) : null;

/** Register `engram mcp` (this node binary, this install's CLI bundle) with the host; null for a host without a registry. */
export function registerMcpFor(ctx: CliContext, host: HostAdapter): McpRegistration | null {
  const file = hostMcpFile(ctx, host);
  if (!host.setup.mcp || !file) return null;
  return registerHostMcp(host.setup.mcp, file, process.execPath, [join(ctx.distDir, 'cli.mjs'), 'mcp']);
}

/** Take engram's MCP server out of the host's registry; whether it was there. */
export function unregisterMcpFor(ctx: CliContext, host: HostAdapter): boolean {
  const file = hostMcpFile(ctx, host);
  return host.setup.mcp && file ? unregisterHostMcp(host.setup.mcp, file) : false;
}

/** The install's line about the MCP server. */
export function mcpLine(host: HostAdapter, mcp: McpRegistration | null, settingsGiven: boolean): string {
  if (settingsGiven)
    return `  MCP server not registered (--settings names the only file engram changes; run "engram install${host.name === 'claude-code' ? '' : ` --host ${host.name}`}" without it for the MCP server)`;
  if (!mcp)
    return `  no MCP server registered: engram does not know where ${host.setup.label} keeps its MCP servers`;
  return `  MCP server "engram" ${mcp.changed ? 'registered' : 'already registered'} in ${mcp.file} (tools: ${MCP_TOOL_NAMES.join(', ')})`;
}

/** What the user must still do in the host for the hooks to run (Codex: trust them). */
function trustSteps(host: HostAdapter, file: string): string[] {
  if (!host.capabilities.hookTrust) return [];
  return [
    `  ${host.setup.label} runs a hook only once you have trusted it, and skips the others without a word:`,
    `  start "codex", type /hooks and trust the engram hooks from ${file} (engram does not approve its own hooks)`,
  ];
}

export function installHostCommand(
  ctx: CliContext,
  host: HostAdapter,
  flags: { json: boolean; settings?: string },
): number {
  const plugin = pluginSpec(ctx, host);
  if (plugin) return installPluginCommand(ctx, host, plugin, flags);
  const file = flags.settings ?? hostHooksFile(ctx, host);
  const report = installHooks(file, {
    command: hostHookCommand(ctx, host),
    events: host.setup.events,
    timeoutSeconds: host.setup.timeoutSeconds,
    ...(host.setup.flatEntries ? { flat: host.setup.flatEntries } : {}),
    timeoutInMilliseconds: host.setup.timeoutInMilliseconds,
    ...(host.setup.hookName ? { name: host.setup.hookName } : {}),
    ...(host.setup.fileKeys ? { fileKeys: host.setup.fileKeys } : {}),
  });
  // An explicit hook file is all that is touched: the host's MCP registry stays as it is.
  const mcp = flags.settings ? null : registerMcpFor(ctx, host);
  if (flags.json) {
    printJson(ctx, {
      ...report,
      host: host.name,
      needsTrust: host.capabilities.hookTrust,
      mcp: mcp ? { path: mcp.file, changed: mcp.changed } : null,
    });
    return 0;
  }
  const lines = [
    `engram hooks for ${host.setup.label} installed in ${report.settingsPath}`,
    report.added.length > 0 ? `  added: ${report.added.join(', ')}` : '  nothing to add (already installed)',
  ];
  if (report.backupPath) lines.push(`  backup of your previous hooks: ${report.backupPath}`);
  lines.push(
    mcpLine(host, mcp, flags.settings !== undefined),
    ...trustSteps(host, report.settingsPath),
    `  memory lives in ${ctx.runtime.home}, shared with your other agents; check capture with "engram status"`,
    `  undo with "engram uninstall --host ${host.name}"`,
  );
  ctx.io.out(`${lines.join('\n')}\n`);
  return 0;
}

export function uninstallHostCommand(
  ctx: CliContext,
  host: HostAdapter,
  flags: { json: boolean; settings?: string },
): number {
  const file = flags.settings ?? hostHooksFile(ctx, host);
  const plugin = hostPlugin(host.name);
  if (plugin) {
    const report = uninstallPluginFile(file, {
      source: () => '',
      isEngrams: plugin.isEngrams,
      createdDirs: plugin.createdDirs,
    });
    if (flags.json) printJson(ctx, { ...report, host: host.name });
    else if (report.foreign) ctx.io.out(`${file} is not engram's plugin: left as it is\n`);
    else if (!report.removed) ctx.io.out(`no engram plugin found at ${file}\n`);
    else
      ctx.io.out(
        `removed engram's plugin ${file}` +
          (report.removedDirs.length > 0
            ? ` and the folders it had created (${report.removedDirs.join(', ')})`
            : '') +
          `\n  your memories stay in ${ctx.runtime.home}\n`,
      );
    return 0;
  }
  // The MCP entry first: a host whose hooks share its file (Gemini CLI) gets back, step by step, each
  // backup's exact text.
  const mcpRemoved = flags.settings ? false : unregisterMcpFor(ctx, host);
  const report = uninstallHooks(file, host.setup.flatEntries);
  if (flags.json) {
    printJson(ctx, { ...report, host: host.name, mcpRemoved });
    return 0;
  }
  if (report.removed.length === 0) ctx.io.out(`no engram hooks found in ${file}\n`);
  else
    ctx.io.out(
      `removed engram hooks (${report.removed.join(', ')}) from ${file}` +
        `${report.deletedFile ? ' (the file was created by engram and is now deleted)' : report.restoredExactly ? ' (restored exactly as before)' : ''}\n` +
        `  your memories stay in ${ctx.runtime.home}\n`,
    );
  if (mcpRemoved) ctx.io.out(`removed the engram MCP server from ${hostMcpFile(ctx, host)}\n`);
  return 0;
}
