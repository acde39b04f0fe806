import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { capturedEventProblem } from '../../../core/event-shape.ts';
import { geminiAdapter } from './adapter.ts';
import { lastAnswerOf } from './chat-tail.ts';
import { readShellResult } from './tools.ts';

const FIXTURES = join(import.meta.dirname, '..', '..', '..', '..', 'test', 'fixtures', 'hosts', 'gemini');
const CHAT = join(FIXTURES, 'chat.jsonl');
const options = { skipTools: [], maxFieldChars: 1000, maxEventBytes: 16_384, fallbackCwd: '/fallback' };

/** The recorded payloads of one event, in firing order, their chat file pointed at the recorded one. */
function recorded(event: string): Record<string, unknown>[] {
  const entries = JSON.parse(readFileSync(join(FIXTURES, 'payloads', `${event}.json`), 'utf8')) as {
    payload: Record<string, unknown>;
  }[];
  return entries.map((e) => ({ ...e.payload, transcript_path: CHAT }));
}

const SESSION = 'a21ad2cc-0d80-417f-9db8-789bfd100b55';
const PROMPT = 'Create notes.md with a greeting for the release team, then check missing-dir';
const ANSWER = 'Created notes.md with the greeting; missing-dir does not exist.';

describe('the Gemini adapter on recorded payloads', () => {
  const one = (event: string, index = 0) => {
    const r = geminiAdapter.normalise(recorded(event)[index], options);
    if (!r.ok) throw new Error(`${event}: ${r.reason}`);
    expect(r.value).toMatchObject({ hook: event, sessionId: SESSION, cwd: '{{project}}' });
    expect(capturedEventProblem(r.value.event)).toBeNull();
    return r.value.event;
  };

  it('maps the session’s start and end', () => {
    expect(one('SessionStart')).toEqual({ kind: 'session_start', source: 'startup' });
    expect(one('SessionEnd')).toEqual({ kind: 'session_end', reason: 'exit' });
  });

  it('takes the user’s words of BeforeAgent without the session-start context Gemini prepended', () => {
    const raw = String(recorded('BeforeAgent')[0]?.['prompt']);
    expect(raw.startsWith('<hook_context>')).toBe(true);
    expect(one('BeforeAgent')).toEqual({ kind: 'prompt', prompt: PROMPT });
  });

  it('turns a shell call into engram’s Bash: output on success, a failure with its exit code otherwise', () => {
    expect(one('AfterTool', 0)).toEqual({
      kind: 'tool',
      tool: 'Bash',
      input: {
        command: "printf 'Hello, release team!\\n' > notes.md && cat notes.md",
        description: 'Run a shell command',
      },
      response: { stdout: 'Hello, release team!' },
    });
    expect(one('AfterTool', 1)).toEqual({
      kind: 'tool_failure',
      tool: 'Bash',
      input: { command: 'ls missing-dir', description: 'Run a shell command' },
      error: "Exit code 2\nls: cannot access 'missing-dir': No such file or directory",
      interrupted: false,
    });
  });

  it('reads the turn’s answer from the chat file, not the garbled prompt_response', () => {
    const [after] = recorded('AfterAgent');
    expect(String(after?.['prompt_response'])).not.toBe(ANSWER);
    expect(one('AfterAgent')).toEqual({ kind: 'stop', lastMessage: ANSWER });
    // Without a readable chat file, the payload's copy is all there is.
    const r = geminiAdapter.normalise({ ...after, transcript_path: '/nonexistent/chat.jsonl' }, options);
    expect(r).toMatchObject({ ok: true, value: { event: { lastMessage: after?.['prompt_response'] } } });
  });

  it('captures the recorded session in order and skips PreCompress (fired before every model call)', () => {
    const order = JSON.parse(readFileSync(join(FIXTURES, 'order.json'), 'utf8')) as string[];
    const seen = new Map<string, number>();
    const kinds = order.map((event) => {
      const index = seen.get(event) ?? 0;
      seen.set(event, index + 1);
      const r = geminiAdapter.normalise(recorded(event)[index], options);
      return r.ok ? r.value.event.kind : r.skip ? 'skipped' : 'rejected';
    });
    expect(kinds).toEqual([
      'session_start',
      'prompt',
      'skipped',
      'skipped',
      'tool',
      'skipped',
      'skipped',
      'tool_failure',
      'skipped',
      'stop',
      'session_end',
    ]);
    for (const event of geminiAdapter.setup.events) expect(order).toContain(event);
  });

  it('renames Gemini’s file tools’ arguments to the ones engram reads', () => {
    const [after] = recorded('AfterTool');
    const edit = geminiAdapter.normalise(
      {
        ...after,
        tool_name: 'replace',
        tool_input: { file_path: 'src/a.ts', old_string: 'a', new_string: 'b', allow_multiple: true },
        tool_response: { llmContent: 'Successfully modified file: src/a.ts (1 replacements).' },
      },
      options,
    );
    expect(edit).toMatchObject({
      ok: true,
      value: {
        event: {
          kind: 'tool',
          tool: 'Edit',
          input: { file_path: 'src/a.ts', old_string: 'a', new_string: 'b', replace_all: true },
        },
      },
    });
    const grep = geminiAdapter.normalise(
      { ...after, tool_name: 'grep_search', tool_input: { pattern: 'x', dir_path: 'src' } },
      options,
    );
    expect(grep).toMatchObject({
      ok: true,
      value: { event: { tool: 'Grep', input: { pattern: 'x', path: 'src' } } },
    });
    const failed = geminiAdapter.normalise(
      {
        ...after,
        tool_name: 'read_file',
        tool_input: { file_path: 'nope.md' },
        tool_response: {
          llmContent: 'File not found.',
          error: { message: 'File not found: nope.md', type: 'file_not_found' },
        },
      },
      options,
    );
    expect(failed).toMatchObject({
      ok: true,
      value: { event: { kind: 'tool_failure', tool: 'Read', error: 'File not found: nope.md' } },
    });
  });

  it('scrubs secrets from a tool’s output and the prompt, and caps them', () => {
    const fake = 'ghp_' + 'FakeFakeFakeFakeFakeFakeFakeFake1234';
    const [after] = recorded('AfterTool');
    const r = geminiAdapter.normalise(
      { ...after, tool_response: { llmContent: `Output: token=${fake}\n${'x'.repeat(5000)}` } },
      options,
    );
    const json = JSON.stringify(r);
    expect(r.ok).toBe(true);
    expect(json).not.toContain(fake);
    expect(json).toContain('[truncated');
    const [prompt] = recorded('BeforeAgent');
    const p = JSON.stringify(
      geminiAdapter.normalise({ ...prompt, prompt: `use ${fake} <private>hidden</private> ok` }, options),
    );
    expect(p).not.toContain(fake);
    expect(p).not.toContain('hidden');
  });

  it('skips engram’s own MCP tools and events it does not capture; rejects payloads without a session', () => {
    const [after] = recorded('AfterTool');
    expect(geminiAdapter.normalise({ ...after, tool_name: 'mcp_engram_search' }, options)).toMatchObject({
      ok: false,
      skip: true,
    });
    const [start] = recorded('SessionStart');
    for (const hook of ['BeforeTool', 'PreCompress', 'BeforeModel', 'Notification'])
      expect(geminiAdapter.normalise({ ...start, hook_event_name: hook }, options)).toMatchObject({
        ok: false,
        skip: true,
      });
    expect(geminiAdapter.normalise({ ...start, session_id: '' }, options)).toMatchObject({
      ok: false,
      skip: false,
    });
    const { cwd: _cwd, ...noCwd } = start as Record<string, unknown>;
    expect(geminiAdapter.normalise(noCwd, options)).toMatchObject({ ok: true, value: { cwd: '/fallback' } });
  });
});

describe('Gemini’s shell results and chat file', () => {
  it('reads the sections of a shell result, the exit code only when Gemini wrote one', () => {
    expect(readShellResult('Output: (empty)\nProcess Group PGID: 1')).toEqual({
      output: '',
      exitCode: null,
      error: '',
    });
    expect(readShellResult('<untrusted_context>\nOutput: a\nb\nExit Code: 1\n</untrusted_context>')).toEqual({
      output: 'a\nb',
      exitCode: 1,
      error: '',
    });
    expect(readShellResult('Command moved to background (PID: 5).')).toBeNull();
  });

  it('finds the model’s last words in the chat file', () => {
    expect(lastAnswerOf(CHAT)).toBe(ANSWER);
    expect(lastAnswerOf(join(FIXTURES, 'missing.jsonl'))).toBeNull();
    // The answer further back than the first window: found in the wider one.
    const dir = mkdtempSync(join(tmpdir(), 'engram-gemini-tail-'));
    try {
      const file = join(dir, 'chat.jsonl');
      const info = JSON.stringify({ id: 'i', type: 'info', content: 'x'.repeat(40_000) });
      writeFileSync(file, `${readFileSync(CHAT, 'utf8')}${info}\n`);
      expect(lastAnswerOf(file)).toBe(ANSWER);
      writeFileSync(file, `${info}\n`);
      expect(lastAnswerOf(file)).toBeNull();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the Gemini adapter’s context output', () => {
  it('answers SessionStart and BeforeAgent with hookSpecificOutput.additionalContext', () => {
    for (const event of ['SessionStart', 'BeforeAgent']) {
      expect(JSON.parse(geminiAdapter.renderContext(event, 'remember: notes.md'))).toEqual({
        hookSpecificOutput: { hookEventName: event, additionalContext: 'remember: notes.md' },
      });
    }
    expect(geminiAdapter.renderContext('AfterAgent', 'x')).toBe('');
  });

  it('keeps the context within its cap', () => {
    const cap = geminiAdapter.capabilities.contextCharCap;
    const out = JSON.parse(geminiAdapter.renderContext('SessionStart', 'a'.repeat(cap + 50))) as {
      hookSpecificOutput: { additionalContext: string };
    };
    expect(out.hookSpecificOutput.additionalContext).toHaveLength(cap);
  });
});
