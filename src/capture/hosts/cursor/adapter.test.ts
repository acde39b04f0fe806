import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cursorAdapter } from './adapter.ts';

const options = { skipTools: [], fallbackCwd: '/fallback', maxFieldChars: 64_000, maxEventBytes: 256_000 };
const fixture = JSON.parse(
  readFileSync(join(import.meta.dirname, '../../../../test/fixtures/hosts/cursor/session.json'), 'utf8')
    .replaceAll('{{project}}', '/work/app')
    .replaceAll('{{home}}', '/home/u'),
) as Record<string, unknown>[];
const at = (event: string, n = 0) => fixture.filter((p) => p['hook_event_name'] === event)[n] ?? {};

describe('the Cursor adapter', () => {
  it('reads the conversation, the project from workspace_roots, and no transcript', () => {
    const r = cursorAdapter.normalise(at('sessionStart'), options);
    expect(r).toEqual({
      ok: true,
      value: {
        hook: 'sessionStart',
        sessionId: '7c1f3a52-2b7e-4d0a-9a63-5d1e8f0b4c21',
        cwd: '/work/app',
        transcriptPath: null,
        event: { kind: 'session_start', source: 'startup' },
      },
    });
    // stop names the conversation only (no session_id).
    expect(cursorAdapter.normalise(at('stop'), options)).toMatchObject({
      ok: true,
      value: { sessionId: '7c1f3a52-2b7e-4d0a-9a63-5d1e8f0b4c21', event: { kind: 'stop', lastMessage: '' } },
    });
  });

  it('reads a shell command’s exit code from tool_output: non-zero is a failure, as Claude Code reports one', () => {
    expect(cursorAdapter.normalise(at('postToolUse', 0), options)).toMatchObject({
      ok: true,
      value: {
        event: {
          kind: 'tool',
          tool: 'Bash',
          response: { stdout: 'Hello, release team!\n', stderr: '', interrupted: false },
        },
      },
    });
    expect(cursorAdapter.normalise(at('postToolUse', 1), options)).toMatchObject({
      ok: true,
      value: {
        event: {
          kind: 'tool_failure',
          tool: 'Bash',
          input: { command: 'ls missing-dir' },
          error: "Exit code 2\nls: cannot access 'missing-dir': No such file or directory\n",
        },
      },
    });
    expect(cursorAdapter.normalise(at('postToolUse', 2), options)).toMatchObject({
      ok: true,
      value: {
        event: {
          kind: 'tool',
          tool: 'Write',
          input: { file_path: '/work/app/CHANGELOG.md' },
          response: { file_path: '/work/app/CHANGELOG.md', success: true },
        },
      },
    });
  });

  it('skips engram’s own MCP tools and events it does not capture', () => {
    const mcp = { ...at('postToolUse', 0), tool_name: 'MCP:search', tool_input: { query: 'x' } };
    expect(cursorAdapter.normalise(mcp, options)).toMatchObject({ ok: false, skip: true });
    const thought = { ...at('stop'), hook_event_name: 'afterAgentThought', text: 'hm' };
    expect(cursorAdapter.normalise(thought, options)).toMatchObject({ ok: false, skip: true });
    expect(cursorAdapter.normalise({ hook_event_name: 'stop' }, options)).toMatchObject({
      ok: false,
      skip: false,
    });
  });

  it('injects only at sessionStart, as a top-level additional_context', () => {
    expect(cursorAdapter.renderContext('sessionStart', 'ctx')).toBe('{"additional_context":"ctx"}');
    expect(cursorAdapter.renderContext('beforeSubmitPrompt', 'ctx')).toBe('');
  });
});
