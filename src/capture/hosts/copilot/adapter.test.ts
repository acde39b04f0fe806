import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { capturedEventProblem } from '../../../core/event-shape.ts';
import { copilotAdapter } from './adapter.ts';
import { shellRun } from './payload.ts';

const FIXTURES = join(import.meta.dirname, '..', '..', '..', '..', 'test', 'fixtures', 'hosts', 'copilot');
const options = { skipTools: [], maxFieldChars: 1000, maxEventBytes: 16_384, fallbackCwd: '/fallback' };

/** The recorded payloads of one event, in firing order. */
function recorded(event: string): Record<string, unknown>[] {
  const entries = JSON.parse(readFileSync(join(FIXTURES, 'payloads', `${event}.json`), 'utf8')) as {
    payload: Record<string, unknown>;
  }[];
  return entries.map((e) => e.payload);
}

const SESSION = '3fe14a49-7439-4580-8f4e-dfc7093dd8ac';
const EVENTS_LOG = `{{home}}/.copilot/session-state/${SESSION}/events.jsonl`;

describe('the Copilot adapter on recorded payloads', () => {
  const one = (event: string, index = 0) => {
    const r = copilotAdapter.normalise(recorded(event)[index], options);
    if (!r.ok) throw new Error(`${event}: ${r.reason}`);
    expect(r.value).toMatchObject({ hook: event, sessionId: SESSION, cwd: '{{project}}' });
    expect(capturedEventProblem(r.value.event)).toBeNull();
    return r.value;
  };

  it('maps each PascalCase event to engram’s event; Stop hands on the session’s events.jsonl', () => {
    expect(one('SessionStart').event).toEqual({ kind: 'session_start', source: 'startup' });
    expect(one('UserPromptSubmit').event).toEqual({
      kind: 'prompt',
      prompt: 'Create notes.md with a greeting for the release team, then check missing-dir',
    });
    expect(one('PostToolUse', 0).event).toEqual({
      kind: 'tool',
      tool: 'Bash',
      input: {
        command: "printf 'Hello, release team!\\n' > notes.md && cat notes.md",
        description: 'Run a shell command',
      },
      response: { stdout: 'Hello, release team!', stderr: '', interrupted: false },
    });
    const stop = one('Stop');
    expect(stop.event).toEqual({ kind: 'stop', lastMessage: '' });
    expect(stop.transcriptPath).toBe(EVENTS_LOG);
    expect(one('SessionStart').transcriptPath).toBeNull();
    expect(one('SessionEnd').event).toEqual({ kind: 'session_end', reason: 'complete' });
  });

  it('reads a command’s non-zero exit out of the result text as a failure, as Claude Code reports one', () => {
    // Copilot calls it PostToolUse with result_type "success": only the text says exit code 2.
    expect(one('PostToolUse', 1).event).toEqual({
      kind: 'tool_failure',
      tool: 'Bash',
      input: { command: 'ls missing-dir', description: 'Run a shell command' },
      error: "Exit code 2\nls: cannot access 'missing-dir': No such file or directory",
      interrupted: false,
    });
    expect(shellRun('plain text')).toBeNull();
    expect(shellRun('out\n<shellId: 7 completed with exit code 0>')).toEqual({ output: 'out', exitCode: 0 });
  });

  it('captures the recorded session in order; the camelCase twins (no event name) are refused', () => {
    const order = JSON.parse(readFileSync(join(FIXTURES, 'order.json'), 'utf8')) as string[];
    const seen = new Map<string, number>();
    const kinds = order.map((event) => {
      const index = seen.get(event) ?? 0;
      seen.set(event, index + 1);
      const r = copilotAdapter.normalise(recorded(event)[index], options);
      return r.ok ? r.value.event.kind : r.skip ? 'skipped' : 'rejected';
    });
    expect(kinds.filter((_, i) => /^[A-Z]/.test(order[i] ?? ''))).toEqual([
      'session_start',
      'prompt',
      'skipped',
      'tool',
      'skipped',
      'tool_failure',
      'stop',
      'session_end',
    ]);
    expect(new Set(kinds.filter((_, i) => /^[a-z]/.test(order[i] ?? '')))).toEqual(new Set(['rejected']));
  });

  it('reads a PostToolUseFailure’s error, skips engram’s own MCP tools, scrubs and caps', () => {
    const [post] = recorded('PostToolUse');
    const failure = copilotAdapter.normalise(
      { ...post, hook_event_name: 'PostToolUseFailure', tool_result: undefined, error: 'tool crashed' },
      options,
    );
    expect(failure).toMatchObject({
      ok: true,
      value: { event: { kind: 'tool_failure', error: 'tool crashed' } },
    });
    expect(copilotAdapter.normalise({ ...post, tool_name: 'mcp__engram__search' }, options)).toMatchObject({
      ok: false,
      skip: true,
    });
    const fake = 'ghp_' + 'FakeFakeFakeFakeFakeFakeFakeFake1234';
    const r = copilotAdapter.normalise(
      {
        ...post,
        tool_result: {
          result_type: 'success',
          text_result_for_llm: `token=${fake}\n${'x'.repeat(5000)}\n<shellId: 0 completed with exit code 0>`,
        },
      },
      options,
    );
    const json = JSON.stringify(r);
    expect(r.ok).toBe(true);
    expect(json).not.toContain(fake);
    expect(json).toContain('[truncated');
    const [start] = recorded('SessionStart');
    expect(copilotAdapter.normalise({ ...start, session_id: '' }, options)).toMatchObject({
      ok: false,
      skip: false,
    });
    const { cwd: _cwd, ...noCwd } = start as Record<string, unknown>;
    expect(copilotAdapter.normalise(noCwd, options)).toMatchObject({ ok: true, value: { cwd: '/fallback' } });
  });
});

describe('the Copilot adapter’s context output', () => {
  it('prints a top-level additionalContext (Copilot ignores hookSpecificOutput) where it injects', () => {
    for (const event of ['SessionStart', 'UserPromptSubmit'])
      expect(JSON.parse(copilotAdapter.renderContext(event, 'remember: notes.md'))).toEqual({
        additionalContext: 'remember: notes.md',
      });
    expect(copilotAdapter.renderContext('Stop', 'x')).toBe('');
  });

  it('keeps the context within its cap, never splitting a character', () => {
    const cap = copilotAdapter.capabilities.contextCharCap;
    const out = JSON.parse(copilotAdapter.renderContext('SessionStart', `${'a'.repeat(cap - 1)}😀tail`)) as {
      additionalContext: string;
    };
    expect(out.additionalContext).toBe('a'.repeat(cap - 1));
  });

  it('keeps its hooks in $COPILOT_HOME (else ~/.copilot), as flat entries', () => {
    const { setup } = copilotAdapter;
    expect(setup.hooksFile({ COPILOT_HOME: '/c' }, '/h')).toBe('/c/settings.json');
    expect(setup.hooksFile({}, '/h')).toBe('/h/.copilot/settings.json');
    expect(setup.transcriptsDir({}, '/h')).toBe('/h/.copilot/session-state');
    expect(setup.flatEntries).toEqual({ commandKey: 'bash', timeoutKey: 'timeoutSec' });
  });
});

describe('Copilot’s file tools on recorded payloads (create, view, edit, glob, grep)', () => {
  const payloads = (event: string): Record<string, unknown>[] =>
    (
      JSON.parse(readFileSync(join(FIXTURES, 'file-tools', 'payloads', `${event}.json`), 'utf8')) as {
        payload: Record<string, unknown>;
      }[]
    ).map((e) => e.payload);
  const events = (event: string) =>
    payloads(event).map((p) => {
      const r = copilotAdapter.normalise(p, options);
      if (!r.ok) throw new Error(r.reason);
      expect(capturedEventProblem(r.value.event)).toBeNull();
      return r.value.event;
    });

  it('gives each tool engram’s name and fields, so the distillers see the file written, read and edited', () => {
    const file = '{{project}}/CHECKLIST.md';
    expect(events('PostToolUse')).toEqual([
      {
        kind: 'tool',
        tool: 'Write',
        input: { file_path: file, content: '1. tag\n2. publish\n' },
        response: `Created file ${file} with 18 characters`,
      },
      { kind: 'tool', tool: 'Read', input: { file_path: file }, response: '1. tag\n2. publish\n' },
      {
        kind: 'tool',
        tool: 'Edit',
        input: { file_path: file, old_string: '1. tag', new_string: '1. bump and tag' },
        response: `File ${file} updated with changes.`,
      },
      { kind: 'tool', tool: 'Glob', input: { pattern: '*.md' }, response: './CHECKLIST.md\n./README.md' },
      {
        kind: 'tool',
        tool: 'Grep',
        input: { pattern: 'publish', path: '{{project}}' },
        response: file,
      },
    ]);
  });

  it('reads a view of a missing file as a failed Read', () => {
    expect(events('PostToolUseFailure')).toEqual([
      {
        kind: 'tool_failure',
        tool: 'Read',
        input: { file_path: '{{project}}/missing.md' },
        error: 'Path does not exist',
        interrupted: false,
      },
    ]);
  });
});
