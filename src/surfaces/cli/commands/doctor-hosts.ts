/**
 * `engram doctor` for the hosts other than Claude Code: are engram's hooks in the host's hook file for
 * every event, and, for Codex, is its hooks feature on and have the hooks been trusted (Codex skips an
 * untrusted hook without a word); for Gemini CLI, are hooks on and engram's not disabled by name; is
 * engram's MCP server registered in the host's own registry, pointing at a CLI bundle that exists
 * (`mcpCheck`, Claude Code's too). Nothing is reported for a host that is neither installed nor set up.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { HostPluginSetup } from '../../../capture/hosts/host-port.ts';
import { HOST_NAMES, hostAdapter, type HostAdapter } from '../../../capture/hosts/index.ts';
import { hostPlugin } from '../../../capture/hosts/plugins.ts';
import { describeError } from '../../../core/errors.ts';
import { isEngramHookCommand } from '../claude-settings.ts';
import type { CliContext } from '../context.ts';
import { isObject, loadSettings } from '../settings-files.ts';
import type { Check } from './doctor-store.ts';
import { registeredMcp } from '../mcp-registration.ts';
import { hostHooksFile, hostMcpFile } from './install-host.ts';

/**
 * Is `engram mcp` registered with the host, and does its CLI bundle exist? Claude Code's check is
 * named `mcp` and always reported; another host's (`mcp codex`, …) only once engram is installed there
 * (`hooked`) or registered.
 */
export function mcpCheck(ctx: CliContext, host: HostAdapter, hooked: boolean): Check[] {
  const file = hostMcpFile(ctx, host);
  if (!host.setup.mcp || !file) return [];
  const name = host.name === 'claude-code' ? 'mcp' : `mcp ${host.name}`;
  const install = `engram install${host.name === 'claude-code' ? '' : ` --host ${host.name}`}`;
  let entry: { command: string; args: string[] } | null;
  try {
    entry = registeredMcp(host.setup.mcp, file);
  } catch (error) {
    return [{ name, status: 'fail', detail: describeError(error), fix: `Fix ${file}.` }];
  }
  if (!entry) {
    if (!hooked && host.name !== 'claude-code') return [];
    return [
      {
        name,
        status: 'warn',
        detail: `the MCP server is not registered in ${file}`,
        fix: `Run "${install}".`,
      },
    ];
  }
  const cli = entry.args.find((a) => a.endsWith('cli.mjs'));
  if (cli && !existsSync(cli))
    return [
      {
        name,
        status: 'fail',
        detail: `the MCP server points at ${cli}, which does not exist`,
        fix: `Run "${install}" from this checkout.`,
      },
    ];
  return [{ name, status: 'ok', detail: `MCP server registered in ${file}` }];
}

/** The commands of an event's hooks: in matcher groups, or flat under the event (`bash`: Copilot CLI). */
function commandsOf(groups: unknown, commandKey = 'command'): string[] {
  if (!Array.isArray(groups)) return [];
  const commandOf = (h: unknown): string[] =>
    isObject(h) && typeof h[commandKey] === 'string' ? [h[commandKey]] : [];
  return groups.flatMap((g) =>
    isObject(g) && Array.isArray(g['hooks']) ? (g['hooks'] as unknown[]).flatMap(commandOf) : commandOf(g),
  );
}

/** The table a TOML line opens (`[features]` → `features`), or null for any other line. */
const tableOf = (line: string): string | null =>
  /^\s*\[([^[\]]+)\]\s*(?:#.*)?$/.exec(line)?.[1]?.trim() ?? null;

/**
 * What Codex's config.toml says about hooks, read line by line (enough for the two facts needed):
 * whether `[features] hooks` (or its old name `codex_hooks`) is false, and how many trust entries name
 * engram's hook file (`[hooks.state."<file>:<event>:<group>:<hook>"]`).
 */
function codexConfig(configFile: string, hooksFile: string): { hooksOff: boolean; trusted: number } {
  let text = '';
  try {
    text = readFileSync(configFile, 'utf8');
  } catch {
    return { hooksOff: false, trusted: 0 }; // no config.toml: Codex's defaults (hooks on, nothing trusted)
  }
  let table = '';
  let hooksOff = false;
  let trusted = 0;
  for (const line of text.split('\n')) {
    const opened = tableOf(line);
    if (opened !== null) {
      table = opened;
      if (table.startsWith(`hooks.state."${hooksFile}:`)) trusted += 1;
      continue;
    }
    if (table === 'features' && /^\s*(?:codex_)?hooks\s*=\s*false\b/.test(line)) hooksOff = true;
  }
  return { hooksOff, trusted };
}

/** Gemini CLI runs no hook at all when `hooksConfig.enabled` is false, and none named in `hooksConfig.disabled`. */
function geminiChecks(file: string): Check[] {
  let config: unknown;
  try {
    config = loadSettings(file)?.json['hooksConfig'];
  } catch {
    return []; // reported by the hooks check already
  }
  if (!isObject(config)) return [];
  const disabled = Array.isArray(config['disabled']) ? config['disabled'] : [];
  if (config['enabled'] === false)
    return [
      {
        name: 'gemini hooks enabled',
        status: 'fail',
        detail: `${file} turns Gemini CLI's hooks off (hooksConfig.enabled is false)`,
        fix: `Set "hooksConfig": {"enabled": true} in ${file}.`,
      },
    ];
  if (disabled.some((n) => n === 'engram' || (typeof n === 'string' && isEngramHookCommand(n))))
    return [
      {
        name: 'gemini hooks enabled',
        status: 'fail',
        detail: `${file} disables engram's hooks (hooksConfig.disabled)`,
        fix: 'Type "/hooks enable engram" in Gemini CLI, or take "engram" out of hooksConfig.disabled.',
      },
    ];
  return [];
}

/** A plugin host (opencode): is engram's plugin file there, and do the paths it calls still exist? */
function pluginCheck(
  ctx: CliContext,
  host: HostAdapter,
  plugin: HostPluginSetup,
): Check[] {
  const name = `plugin ${host.name}`;
  const file = hostHooksFile(ctx, host);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    const configDir = dirname(dirname(file));
    if (!existsSync(configDir)) return [];
    return [
      {
        name,
        status: 'ok',
        detail: `${host.setup.label} is set up in ${configDir}, without engram (add it with "engram install --host ${host.name}")`,
      },
    ];
  }
  if (!plugin.isEngrams(text))
    return [
      {
        name,
        status: 'fail',
        detail: `${file} is not engram's plugin`,
        fix: `Move that file away, then run "engram install --host ${host.name}".`,
      },
    ];
  const targets = plugin.targets(text);
  const gone = targets.filter((t) => !existsSync(t));
  if (targets.length < 2 || gone.length > 0)
    return [
      {
        name,
        status: 'fail',
        detail: `${file} calls ${gone.length > 0 ? gone.join(' and ') : 'nothing it can find'}, which is not there any more`,
        fix: `Run "engram install --host ${host.name}" again (it rewrites the plugin for this install).`,
      },
    ];
  return [
    {
      name,
      status: 'ok',
      detail: `engram plugin installed in ${file} (opencode loads it unless run with --pure)`,
    },
  ];
}

function hostCheck(ctx: CliContext, host: HostAdapter): Check[] {
  const plugin = hostPlugin(host.name);
  if (plugin) return pluginCheck(ctx, host, plugin);
  const name = `hooks ${host.name}`;
  const file = hostHooksFile(ctx, host);
  let hooks: Record<string, unknown>;
  try {
    hooks = (loadSettings(file)?.json['hooks'] ?? {}) as Record<string, unknown>;
  } catch (error) {
    return [{ name, status: 'fail', detail: describeError(error), fix: `Fix ${file}.` }];
  }
  const events = host.setup.events;
  const key = host.setup.flatEntries?.commandKey;
  const missing = events.filter((e) => !commandsOf(hooks[e], key).some(isEngramHookCommand));
  if (missing.length === events.length) {
    const mcp = mcpCheck(ctx, host, false);
    if (!existsSync(dirname(file))) return mcp;
    return [
      {
        name,
        status: 'ok',
        detail: `${host.setup.label} is set up in ${dirname(file)}, without engram (add it with "engram install --host ${host.name}")`,
      },
      ...mcp,
    ];
  }
  if (missing.length > 0)
    return [
      {
        name,
        status: 'fail',
        detail: `missing for ${missing.join(', ')} in ${file}`,
        fix: `Run "engram install --host ${host.name}" again (it is idempotent).`,
      },
      ...mcpCheck(ctx, host, true),
    ];
  const checks: Check[] = [
    { name, status: 'ok', detail: `engram hooks installed in ${file}` },
    ...mcpCheck(ctx, host, true),
  ];
  if (host.name === 'gemini') checks.push(...geminiChecks(file));
  if (host.name === 'codex') {
    const config = join(dirname(file), 'config.toml');
    const { hooksOff, trusted } = codexConfig(config, file);
    if (hooksOff)
      checks.push({
        name: 'codex hooks feature',
        status: 'fail',
        detail: `${config} turns Codex's hooks off ([features] hooks = false)`,
        fix: `Set "hooks = true" under [features] in ${config}.`,
      });
    checks.push(
      trusted === 0
        ? {
            name: 'codex hook trust',
            status: 'warn',
            detail: `none of engram's hooks is trusted in ${config}: Codex skips them without a word`,
            fix: 'Start "codex", type /hooks and trust the engram hooks.',
          }
        : {
            name: 'codex hook trust',
            status: 'ok',
            detail: `${trusted} trusted hook entries for ${file} (Codex re-checks each hook's hash: after an engram update, review them again in /hooks)`,
          },
    );
  }
  return checks;
}

/** The checks of every host but Claude Code (whose checks are doctor's own). */
export function otherHostChecks(ctx: CliContext): Check[] {
  return HOST_NAMES.filter((n) => n !== 'claude-code').flatMap((n) => hostCheck(ctx, hostAdapter(n)));
}
