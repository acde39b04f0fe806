import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTranscriptParser } from './transcript-entries.ts';

const FIXTURES = join(import.meta.dirname, '..', '..', '..', 'test', 'fixtures', 'transcripts');
const parseFile = (name: string) => {
  const parser = createTranscriptParser();
  for (const line of readFileSync(join(FIXTURES, name), 'utf8').split('\n')) {
    if (line.trim() !== '') parser.add(JSON.parse(line));
  }
  return parser.result();
};

describe('transcript records → entries', () => {
  it('merges an API message split over records, pairs tool calls with results, keeps usage once', () => {
    const p = createTranscriptParser();
    const base = { sessionId: 's1', cwd: '/w', timestamp: '2026-01-01T10:00:00Z' };
    const message = (content: unknown[]) => ({
      id: 'msg_1',
      model: 'claude-x',
      content,
      usage: {
        input_tokens: 10,
        output_tokens: 5,
        cache_read_input_tokens: 100,
        cache_creation_input_tokens: 7,
      },
    });
    p.add({
      ...base,
      type: 'user',
      uuid: 'u1',
      message: { role: 'user', content: 'Please fix the login bug' },
    });
    p.add({
      ...base,
      type: 'assistant',
      uuid: 'a1',
      message: message([{ type: 'text', text: 'Looking at it.' }]),
    });
    p.add({
      ...base,
      type: 'assistant',
      uuid: 'a2',
      message: message([{ type: 'text', text: 'I will run the tests.' }]),
    });
    p.add({
      ...base,
      type: 'assistant',
      uuid: 'a3',
      message: message([{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'npm test' } }]),
    });
    p.add({
      ...base,
      type: 'user',
      uuid: 'u2',
      message: {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 't1', content: 'Tests: 3 passed', is_error: false }],
      },
      toolUseResult: { stdout: 'Tests: 3 passed', stderr: '' },
    });
    p.add({ ...base, type: 'progress', uuid: 'x' });
    p.add({ ...base, type: 'something-new', uuid: 'y' });
    p.add({ ...base, type: 'system', subtype: 'compact_boundary', uuid: 'c1' });
    p.add({
      ...base,
      type: 'user',
      uuid: 'u3',
      isCompactSummary: true,
      message: { role: 'user', content: 'Summary of earlier work' },
    });
    const r = p.result();
    expect(r.sessionId).toBe('s1');
    expect(r.entries.map((e) => e.kind)).toEqual([
      'prompt',
      'assistant_text',
      'tool_call',
      'compact_boundary',
      'compact_summary',
    ]);
    expect(r.entries[1]).toMatchObject({ text: 'Looking at it.\nI will run the tests.' });
    expect(r.entries[2]).toMatchObject({
      name: 'Bash',
      result: {
        text: 'Tests: 3 passed',
        isError: false,
        structured: { stdout: 'Tests: 3 passed', stderr: '' },
      },
    });
    expect(r.usage).toEqual([
      {
        messageId: 'msg_1',
        model: 'claude-x',
        at: Date.parse(base.timestamp),
        input: 10,
        output: 5,
        cacheRead: 100,
        cacheWrite: 7,
      },
    ]);
    expect(r.types.get('progress')).toEqual({ seen: 1, skipped: 1 });
    expect(r.types.get('something-new')).toEqual({ seen: 1, skipped: 1 });
  });

  it('treats a rejected tool call and an interrupt as interrupts, and skips system wrappers', () => {
    const p = createTranscriptParser();
    p.add({
      type: 'assistant',
      uuid: 'a',
      message: {
        id: 'm',
        content: [{ type: 'tool_use', id: 't', name: 'Bash', input: { command: 'rm -rf build' } }],
      },
    });
    p.add({
      type: 'user',
      uuid: 'b',
      message: {
        content: [
          {
            type: 'tool_result',
            tool_use_id: 't',
            content: "The user doesn't want to proceed with this tool use.",
            is_error: true,
          },
        ],
      },
    });
    p.add({
      type: 'user',
      uuid: 'c',
      message: { content: [{ type: 'text', text: '[Request interrupted by user]' }] },
    });
    p.add({ type: 'user', uuid: 'd', message: { content: '<task-notification>\n<task-id>1</task-id>' } });
    p.add({ type: 'user', uuid: 'e', message: { content: 'no, keep the build folder' } });
    expect(p.result().entries.map((e) => e.kind)).toEqual(['interrupt', 'interrupt', 'prompt']);
  });

  it('scrubs secrets out of every string it keeps', () => {
    const p = createTranscriptParser();
    const fake = 'ghp_' + 'FAKEfakeFAKEfakeFAKEfakeFAKEfake0000';
    p.add({ type: 'user', uuid: 'u', message: { content: `use token ${fake}` } });
    p.add({
      type: 'assistant',
      uuid: 'a',
      message: {
        id: 'm',
        content: [
          {
            type: 'tool_use',
            id: 't',
            name: 'Bash',
            input: { command: `curl -H "Authorization: Bearer ${fake}"` },
          },
        ],
      },
    });
    p.add({
      type: 'user',
      uuid: 'r',
      message: { content: [{ type: 'tool_result', tool_use_id: 't', content: `echo ${fake}` }] },
    });
    expect(JSON.stringify(p.result().entries)).not.toContain(fake);
  });

  it('reads the real fixture transcripts without failing and reports what it skipped', () => {
    const big = parseFile('258c7280-ae70-4798-800f-63464d01a85d.jsonl');
    expect(big.entries.filter((e) => e.kind === 'prompt').length).toBeGreaterThan(0);
    expect(big.entries.some((e) => e.kind === 'compact_boundary')).toBe(true);
    expect(big.entries.some((e) => e.kind === 'compact_summary')).toBe(true);
    const calls = big.entries.filter((e) => e.kind === 'tool_call');
    expect(calls.length).toBeGreaterThan(50);
    expect(
      calls.filter((c) => c.kind === 'tool_call' && c.result !== null).length / calls.length,
    ).toBeGreaterThan(0.9);
    expect(big.types.get('progress')?.skipped).toBeGreaterThan(1000);
    const sub = parseFile('258c7280-ae70-4798-800f-63464d01a85d/subagents/agent-a881341.jsonl');
    expect(sub.usage.length).toBeGreaterThan(0);
  });
});
