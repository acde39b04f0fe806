/**
 * Which host an MCP client runs in, from the name it gives in its `initialize` request
 * (`clientInfo.name`): Claude Code says `claude-code`, Codex `codex-mcp-client`, Gemini CLI
 * `gemini-cli-mcp-client`, opencode `opencode` (read from each pinned CLI). A name that names no host
 * engram knows is `unknown`: a memory is never credited to a host it did not come from.
 */
import type { HostName } from './host-port.ts';

/** Each host by the word its MCP client's name carries (first match wins). */
const CLIENT_WORDS: readonly [RegExp, HostName][] = [
  [/^claude-code\b/, 'claude-code'],
  [/\bcodex\b/, 'codex'],
  [/\bgemini\b/, 'gemini'],
  [/\bcopilot\b/, 'copilot'],
  [/\bopencode\b/, 'opencode'],
  [/\bcursor\b/, 'cursor'],
];

export function hostOfMcpClient(name: string | undefined): HostName | 'unknown' {
  const n = (name ?? '').trim().toLowerCase();
  if (n === '') return 'unknown';
  return CLIENT_WORDS.find(([word]) => word.test(n))?.[1] ?? 'unknown';
}
