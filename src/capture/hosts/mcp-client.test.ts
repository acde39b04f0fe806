import { describe, expect, it } from 'vitest';
import { hostOfMcpClient } from './mcp-client.ts';

describe('hostOfMcpClient', () => {
  it('reads the host from the names the pinned CLIs give in initialize', () => {
    expect(hostOfMcpClient('claude-code')).toBe('claude-code');
    expect(hostOfMcpClient('codex-mcp-client')).toBe('codex');
    expect(hostOfMcpClient('gemini-cli-mcp-client')).toBe('gemini');
    expect(hostOfMcpClient('opencode')).toBe('opencode');
    expect(hostOfMcpClient('github-copilot-cli')).toBe('copilot');
  });

  it('is unknown for a client that names no host engram has, or none', () => {
    expect(hostOfMcpClient(undefined)).toBe('unknown');
    expect(hostOfMcpClient('  ')).toBe('unknown');
    expect(hostOfMcpClient('claude-ai')).toBe('unknown');
    expect(hostOfMcpClient('mcp-inspector')).toBe('unknown');
  });
});
