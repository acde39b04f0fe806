import { describe, expect, it } from 'vitest';
import { isSkippedTool, normaliseClaudePayload } from './claude-code-payload.ts';

const options = {
  skipTools: ['TodoRead', 'mcp__engram__*'],
  maxFieldChars: 1000,
  maxEventBytes: 16_384,
  fallbackCwd: '/fallback',
};
const base = { session_id: 'abc', transcript_path: '/t/abc.jsonl', cwd: '/p' };

describe('normaliseClaudePayload', () => {
  it('maps each Claude Code hook to a CapturedEvent', () => {
    const cases: [Record<string, unknown>, unknown][] = [
      [
        { hook_event_name: 'SessionStart', source: 'resume', model: 'm' },
        { kind: 'session_start', source: 'resume', model: 'm' },
      ],
      [
        { hook_event_name: 'UserPromptSubmit', prompt: 'do it' },
        { kind: 'prompt', prompt: 'do it' },
      ],
      [
        {
          hook_event_name: 'PostToolUse',
          tool_name: 'Bash',
          tool_input: { command: 'ls' },
          tool_response: { stdout: 'a' },
          tool_use_id: 't1',
          duration_ms: 5,
        },
        {
          kind: 'tool',
          tool: 'Bash',
          toolUseId: 't1',
          input: { command: 'ls' },
          response: { stdout: 'a' },
          durationMs: 5,
        },
      ],
      [
        {
          hook_event_name: 'PostToolUseFailure',
          tool_name: 'Bash',
          tool_input: { command: 'exit 3' },
          error: 'Exit code 3',
          is_interrupt: false,
        },
        {
          kind: 'tool_failure',
          tool: 'Bash',
          input: { command: 'exit 3' },
          error: 'Exit code 3',
          interrupted: false,
        },
      ],
      [
        { hook_event_name: 'Stop', last_assistant_message: 'Done.' },
        { kind: 'stop', lastMessage: 'Done.' },
      ],
      [
        {
          hook_event_name: 'SubagentStop',
          agent_id: 'a1',
          agent_type: 'Explore',
          last_assistant_message: 'found it',
        },
        { kind: 'subagent_stop', agentId: 'a1', agentType: 'Explore', lastMessage: 'found it' },
      ],
      [
        { hook_event_name: 'PreCompact', trigger: 'manual', custom_instructions: '' },
        { kind: 'pre_compact', trigger: 'manual', instructions: '' },
      ],
      [
        { hook_event_name: 'PostCompact', trigger: 'auto', compact_summary: 'sum' },
        { kind: 'post_compact', trigger: 'auto', summary: 'sum' },
      ],
      [
        { hook_event_name: 'SessionEnd', reason: 'clear' },
        { kind: 'session_end', reason: 'clear' },
      ],
    ];
    for (const [payload, event] of cases) {
      const r = normaliseClaudePayload({ ...base, ...payload }, options);
      expect(r).toEqual({
        ok: true,
        value: {
          hook: payload['hook_event_name'],
          sessionId: 'abc',
          cwd: '/p',
          transcriptPath: '/t/abc.jsonl',
          event,
        },
      });
    }
  });

  it('tolerates missing optional fields and wrong types', () => {
    const r = normaliseClaudePayload(
      { session_id: 'abc', hook_event_name: 'Stop', last_assistant_message: 42 },
      options,
    );
    expect(r).toEqual({
      ok: true,
      value: {
        hook: 'Stop',
        sessionId: 'abc',
        cwd: '/fallback',
        transcriptPath: null,
        event: { kind: 'stop', lastMessage: '' },
      },
    });
  });

  it('skips configured tools and unknown events, rejects what cannot be used', () => {
    expect(
      normaliseClaudePayload(
        { ...base, hook_event_name: 'PostToolUse', tool_name: 'mcp__engram__search' },
        options,
      ),
    ).toMatchObject({ ok: false, skip: true });
    expect(normaliseClaudePayload({ ...base, hook_event_name: 'Notification' }, options)).toMatchObject({
      ok: false,
      skip: true,
    });
    expect(normaliseClaudePayload({ ...base, hook_event_name: 'PostToolUse' }, options)).toMatchObject({
      ok: false,
      skip: false,
    });
    expect(normaliseClaudePayload({ hook_event_name: 'Stop' }, options)).toMatchObject({
      ok: false,
      skip: false,
    });
    expect(normaliseClaudePayload([1], options)).toMatchObject({ ok: false, skip: false });
    expect(normaliseClaudePayload(null, options)).toMatchObject({ ok: false, skip: false });
  });

  it('caps sizes: long strings are cut, huge arrays shortened, the event stays under the byte cap', () => {
    const r = normaliseClaudePayload(
      {
        ...base,
        hook_event_name: 'PostToolUse',
        tool_name: 'Bash',
        tool_input: { command: 'x'.repeat(5000) },
        tool_response: {
          stdout: 'y'.repeat(100_000),
          lines: Array.from({ length: 5000 }, (_, i) => `line ${i}`),
        },
      },
      options,
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const json = JSON.stringify(r.value.event);
    expect(Buffer.byteLength(json)).toBeLessThanOrEqual(options.maxEventBytes);
    expect(json).toContain('[truncated');
  });

  it('keeps both ends of a long command output: what ran, and how it ended — scrubbed at each end', () => {
    const fake = 'ghp_' + 'FakeFakeFakeFakeFakeFakeFakeFake1234';
    const progress = Array.from({ length: 3000 }, (_, i) => `Compiling dependency ${i}`).join('\n');
    const output = `==> shop\n${progress}\ntoken ${fake}\nFinished in 4.1 seconds\n354 tests, 2 failures`;
    const r = normaliseClaudePayload(
      {
        ...base,
        hook_event_name: 'PostToolUseFailure',
        tool_name: 'Bash',
        tool_input: { command: 'mix test' },
        error: output,
      },
      options,
    );
    expect(r.ok).toBe(true);
    if (!r.ok || r.value.event.kind !== 'tool_failure') return;
    const kept = r.value.event.error;
    expect(kept.length).toBeLessThan(output.length);
    expect(kept.startsWith('==> shop\nCompiling dependency 0')).toBe(true);
    expect(kept).toMatch(/…\[truncated \d+ chars\]…/);
    expect(kept.endsWith('354 tests, 2 failures')).toBe(true);
    expect(kept).not.toContain(fake);
  });

  it('scrubs secrets in every string it keeps', () => {
    const fake = 'ghp_' + 'FakeFakeFakeFakeFakeFakeFakeFake1234';
    const r = normaliseClaudePayload(
      {
        ...base,
        hook_event_name: 'UserPromptSubmit',
        prompt: `use ${fake} please <private>hidden words</private>`,
      },
      options,
    );
    const json = JSON.stringify(r);
    expect(json).not.toContain(fake);
    expect(json).not.toContain('hidden words');
    expect(json).toContain('please');
  });
});

describe('isSkippedTool', () => {
  it('matches exact names and * prefixes', () => {
    expect(isSkippedTool('TodoRead', options.skipTools)).toBe(true);
    expect(isSkippedTool('mcp__engram__get', options.skipTools)).toBe(true);
    expect(isSkippedTool('mcp__other__get', options.skipTools)).toBe(false);
    expect(isSkippedTool('TodoWrite', options.skipTools)).toBe(false);
  });

  it('never captures engram’s own MCP tools, whatever the user’s list says', () => {
    for (const userList of [[], ['Glob'], ['mcp__other__*']]) {
      expect(isSkippedTool('mcp__engram__search', userList)).toBe(true);
      expect(isSkippedTool('mcp__plugin_engram_engram__search', userList)).toBe(true);
      expect(isSkippedTool('Bash', userList)).toBe(false);
    }
    expect(isSkippedTool('Glob', ['Glob'])).toBe(true); // the user's list adds to engram's own
  });
});
