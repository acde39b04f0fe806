/**
 * Registering engram's MCP server with Claude Code at user scope (`mcpServers` in `~/.claude.json`),
 * and taking it out again. Only the `engram` entry is touched; a backup is written before a change.
 */
import { isDeepStrictEqual } from 'node:util';
import { fileMode, formatJson, isObject, loadSettings, writeAtomic, writeBackup } from './settings-files.ts';

export const MCP_SERVER_NAME = 'engram';

export interface McpServerEntry {
  type: 'stdio';
  command: string;
  args: string[];
}

/** Add or update `mcpServers.engram`; returns whether the file changed. */
export function registerMcpServer(
  path: string,
  entry: McpServerEntry,
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

/** Remove `mcpServers.engram` (and `mcpServers` if engram was its only entry); returns whether it was there. */
export function unregisterMcpServer(path: string): boolean {
  const loaded = loadSettings(path);
  if (!loaded || !isObject(loaded.json['mcpServers']) || !(MCP_SERVER_NAME in loaded.json['mcpServers']))
    return false;
  const json = structuredClone(loaded.json);
  const servers = { ...(json['mcpServers'] as Record<string, unknown>) };
  delete servers[MCP_SERVER_NAME];
  if (Object.keys(servers).length === 0) delete json['mcpServers'];
  else json['mcpServers'] = servers;
  writeAtomic(path, formatJson(json), fileMode(path));
  return true;
}
