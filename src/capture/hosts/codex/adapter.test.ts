import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { capturedEventProblem } from '../../../core/event-shape.ts';
import { codexAdapter } from './adapter.ts';

const FIXTURES = join(import.meta.dirname, '..', '..', '..', '..', 'test', 'fixtures', 'hosts', 'codex');
const options = { skipTools: [], maxFieldChars: 1000, maxEventBytes: 16_384, fallbackCwd: '/fallback' };

/** The recorded payloads of one event, in firing order. */
function recorded(event: string): Record<string, unknown>[] {
  const entries = JSON.parse(readFileSync(join(FIXTURES, 'payloads', `${event}.json`), 'utf8')) as {
    payload: Record<string, unknown>;
  }[];
  return entries.map((e) => e.payload);
}

const SESSION = '01a21e00-7f81-7130-90e7-41be03aaae11';

describe('the Codex adapter on recorded payloads', () => {
  it('maps each recorded event to engram’s event, with the session, cwd and rollout', () => {
    const one = (event: string, index = 0) => {
      const r = codexAdapter.normalise(recorded(event)[index], options);
      if (!r.ok) throw new Error(`${event}: ${r.reason}`);
      expect(r.value).toMatchObject({
        hook: event,
        sessionId: SESSION,
        cwd: '{{project}}',
        transcriptPath:
          '{{home}}/.codex/sessions/2026/11/27/rollout-2026-11-27T17-14-38-01a21e00-7f81-7130-90e7-41be03aaae11.jsonl',
      });
      expect(capturedEventProblem(r.value.event)).toBeNull();
      return r.value.event;
    };
    expect(one('SessionStart')).toEqual({ kind: 'session_start', source: 'startup', model: 'gpt-5.1-codex' });
    expect(one('UserPromptSubmit')).toEqual({
      kind: 'prompt',
      prompt: 'Create notes.md with a greeting for the release team, then check missing-dir',
    });
    expect(one('PostToolUse', 0)).toEqual({
      kind: 'tool',
      tool: 'Bash',
      toolUseId: 'call_mock_s0_1',
      input: { command: "printf 'Hello, release team!\\n' > notes.md && cat notes.md" },
      response: 'Hello, release team!\n',
    });
    // A failing command is still PostToolUse: its failure is only in the output text.
    expect(one('PostToolUse', 1)).toMatchObject({
      kind: 'tool',
      input: { command: 'ls missing-dir' },
      response: "ls: cannot access 'missing-dir': No such file or directory\n",
    });
    expect(one('Stop')).toEqual({
      kind: 'stop',
      lastMessage: 'Created notes.md with the greeting; missing-dir does not exist.',
    });
    expect(one('SessionEnd')).toEqual({ kind: 'session_end', reason: 'other' });
  });

  it('captures the recorded session in order and skips what it does not keep (PreToolUse)', () => {
    const order = JSON.parse(readFileSync(join(FIXTURES, 'order.json'), 'utf8')) as string[];
    const seen = new Map<string, number>();
    const kinds = order.map((event) => {
      const index = seen.get(event) ?? 0;
      seen.set(event, index + 1);
      const r = codexAdapter.normalise(recorded(event)[index], options);
      return r.ok ? r.value.event.kind : r.skip ? 'skipped' : 'rejected';
    });
    expect(kinds).toEqual([
      'session_start',
      'prompt',
      'skipped',
      'tool',
      'skipped',
      'tool',
      'stop',
      'session_end',
    ]);
  });

  it('scrubs secrets from a tool’s output and the prompt, and caps them', () => {
    const fake = 'ghp_' + 'FakeFakeFakeFakeFakeFakeFakeFake1234';
    const [post] = recorded('PostToolUse');
    const r = codexAdapter.normalise(
      { ...post, tool_response: `token=${fake}\n${'x'.repeat(5000)}` },
      options,
    );
    const json = JSON.stringify(r);
    expect(r.ok).toBe(true);
    expect(json).not.toContain(fake);
    expect(json).toContain('[truncated');
    const [prompt] = recorded('UserPromptSubmit');
    const p = JSON.stringify(
      codexAdapter.normalise({ ...prompt, prompt: `use ${fake} <private>hidden</private> ok` }, options),
    );
    expect(p).not.toContain(fake);
    expect(p).not.toContain('hidden');
  });

  it('skips engram’s own MCP tools and events it does not capture; rejects payloads without a session', () => {
    const [post] = recorded('PostToolUse');
    expect(codexAdapter.normalise({ ...post, tool_name: 'mcp__engram__search' }, options)).toMatchObject({
      ok: false,
      skip: true,
    });
    const [start] = recorded('SessionStart');
    expect(codexAdapter.normalise({ ...start, hook_event_name: 'PermissionRequest' }, options)).toMatchObject(
      {
        ok: false,
        skip: true,
      },
    );
    expect(codexAdapter.normalise({ ...start, session_id: '' }, options)).toMatchObject({
      ok: false,
      skip: false,
    });
    expect(codexAdapter.normalise([start], options)).toMatchObject({ ok: false, skip: false });
    const { cwd: _cwd, ...noCwd } = start as Record<string, unknown>;
    expect(codexAdapter.normalise(noCwd, options)).toMatchObject({ ok: true, value: { cwd: '/fallback' } });
  });
});

describe('the Codex adapter’s context output', () => {
  it('prints only the fields Codex’s strict schema knows, at SessionStart and UserPromptSubmit', () => {
    for (const event of ['SessionStart', 'UserPromptSubmit']) {
      const out = JSON.parse(codexAdapter.renderContext(event, 'remember: notes.md')) as Record<
        string,
        unknown
      >;
      expect(out).toEqual({
        hookSpecificOutput: { hookEventName: event, additionalContext: 'remember: notes.md' },
      });
    }
  });

  it('prints nothing for an event Codex takes no context from', () => {
    expect(codexAdapter.renderContext('Stop', 'x')).toBe('');
  });

  it('keeps the context within its cap, never splitting a character', () => {
    const cap = codexAdapter.capabilities.contextCharCap;
    const out = JSON.parse(codexAdapter.renderContext('SessionStart', `${'a'.repeat(cap - 1)}😀tail`)) as {
      hookSpecificOutput: { additionalContext: string };
    };
    expect(out.hookSpecificOutput.additionalContext).toBe('a'.repeat(cap - 1));
  });
});
