/**
 * Registering engram's MCP server (`engram mcp`) with a host, and taking it out again: `mcpServers.engram`
 * in a JSON file (Claude Code's `~/.claude.json`, Gemini CLI's `settings.json`, Copilot CLI's
 * `mcp-config.json`) or Codex's `[mcp_servers.engram]` table (`toml-mcp.ts`). Only engram's entry is
 * touched; a backup is written before a change, and taking it out puts back the file as that backup
 * had it when nothing else changed since (a file engram created is deleted).
 */
import { existsSync, unlinkSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import type { HostMcpSetup } from '../../capture/hosts/host-port.ts';
import {
  fileMode,
  formatJson,
  isObject,
  loadBackup,
  loadSettings,
  newestBackup,
  writeAtomic,
  writeBackup,
  type JsonObject,
} from './settings-files.ts';
import { readTomlMcp, registerTomlMcp, unregisterTomlMcp } from './toml-mcp.ts';

export const MCP_SERVER_NAME = 'engram';

export type McpEntry = Record<string, string | readonly string[]>;

/** Add or update `mcpServers.engram` in a JSON file; returns whether the file changed. */
export function registerMcpServer(
  path: string,
  entry: McpEntry,
  now: () => Date = () => new Date(),
): boolean {
  const loaded = loadSettings(path);
  const json = loaded ? structuredClone(loaded.json) : {};
  const servers = isObject(json['mcpServers']) ? json['mcpServers'] : {};
  if (isDeepStrictEqual(servers[MCP_SERVER_NAME], entry)) return false;
  json['mcpServers'] = { ...servers, [MCP_SERVER_NAME]: entry };
  const mode = loaded ? fileMode(path) : 0o600;
  if (loaded) writeBackup(path, mode, now());
  writeAtomic(path, formatJson(json), mode);
  return true;
}

/**
 * Remove `mcpServers.engram` (and `mcpServers` if engram was its only entry); returns whether it was
 * there. The newest backup's exact text is written back when its content is what is left; a file left
 * empty with no backup (engram created it) is deleted.
 */
export function unregisterMcpServer(path: string): boolean {
  const loaded = loadSettings(path);
  if (!loaded || !isObject(loaded.json['mcpServers']) || !(MCP_SERVER_NAME in loaded.json['mcpServers']))
    return false;
  const kept = structuredClone(loaded.json);
  const servers = { ...(kept['mcpServers'] as JsonObject) };
  delete servers[MCP_SERVER_NAME];
  kept['mcpServers'] = servers;
  const dropped: JsonObject = { ...kept };
  if (Object.keys(servers).length === 0) delete dropped['mcpServers'];
  const backupPath = newestBackup(path);
  const backup = backupPath ? loadBackup(backupPath) : null;
  const mode = fileMode(path);
  if (backup && (isDeepStrictEqual(backup.json, kept) || isDeepStrictEqual(backup.json, dropped))) {
    writeAtomic(path, backup.text, mode);
    return true;
  }
  if (!backupPath && Object.keys(dropped).length === 0) {
    unlinkSync(path);
    return true;
  }
  writeAtomic(path, formatJson(dropped), mode);
  return true;
}

export interface McpRegistration {
  changed: boolean;
  file: string;
}

/** Register `command args` as engram's MCP server in the host's registry. */
export function registerHostMcp(
  mcp: HostMcpSetup,
  file: string,
  command: string,
  args: readonly string[],
  now: () => Date = () => new Date(),
): McpRegistration {
  const entry = mcp.entry(command, args);
  const changed =
    mcp.format === 'toml' ? registerTomlMcp(file, entry, now).changed : registerMcpServer(file, entry, now);
  return { changed, file };
}

/** Take engram's MCP server out of the host's registry; whether it was there. */
export const unregisterHostMcp = (mcp: HostMcpSetup, file: string): boolean =>
  mcp.format === 'toml' ? unregisterTomlMcp(file) : unregisterMcpServer(file);

/** engram's registered entry (command and args), or null; throws INSTALL_FAILED for a file it cannot read. */
export function registeredMcp(mcp: HostMcpSetup, file: string): { command: string; args: string[] } | null {
  if (mcp.format === 'toml') return readTomlMcp(file);
  if (!existsSync(file)) return null;
  const servers = loadSettings(file)?.json['mcpServers'];
  const entry = isObject(servers) ? servers[MCP_SERVER_NAME] : undefined;
  if (!isObject(entry)) return null;
  const args = Array.isArray(entry['args']) ? entry['args'].filter((a) => typeof a === 'string') : [];
  return { command: typeof entry['command'] === 'string' ? entry['command'] : '', args };
}
