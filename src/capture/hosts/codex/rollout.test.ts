import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { TranscriptEntry } from '../../../core/transcript.ts';
import { readJsonlFrom } from '../../transcript/read-jsonl.ts';
import { transcriptReaderFor } from '../transcript-readers.ts';
import { createCodexRolloutParser, isCodexRollout, rolloutSessionId } from './rollout.ts';

const FIXTURES = join(import.meta.dirname, '..', '..', '..', '..', 'test', 'fixtures', 'hosts', 'codex');
const tmp = mkdtempSync(join(tmpdir(), 'engram-rollout-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const lines = (name: string) =>
  readFileSync(join(FIXTURES, name), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as unknown);

function parse(records: unknown[], context: TranscriptEntry[] = [], chain = [] as never[]) {
  const parser = createCodexRolloutParser(context, chain);
  for (const r of records) parser.add(r);
  return parser.result();
}

type Call = Extract<TranscriptEntry, { kind: 'tool_call' }>;
const callsOf = (entries: TranscriptEntry[]) => entries.filter((e): e is Call => e.kind === 'tool_call');

describe('Codex rollout reader (recorded with codex-cli 0.171.0)', () => {
  it('reads the session, the typed prompt, the answer, and each command with its exit code', () => {
    const parsed = parse(lines('rollout.jsonl'));
    expect(parsed.sessionId).toBe('01a21e00-7f81-7130-90e7-41be03aaae11');
    expect(parsed.cwd).toBe('{{project}}');
    // Only the words typed: not Codex's environment context, nor the hook's context (a developer message).
    expect(parsed.entries.filter((e) => e.kind === 'prompt').map((e) => e.text)).toEqual([
      'Create notes.md with a greeting for the release team, then check missing-dir',
    ]);
    expect(JSON.stringify(parsed.entries)).not.toContain('ENGRAM-TEST-CONTEXT');
    expect(JSON.stringify(parsed.entries)).not.toContain('environment_context');
    const [greet, missing] = callsOf(parsed.entries);
    expect(greet).toMatchObject({
      name: 'Bash',
      id: 'call_mock_s0_1',
      input: { command: "printf 'Hello, release team!\\n' > notes.md && cat notes.md" },
      result: {
        isError: false,
        text: 'Hello, release team!\n',
        structured: { stdout: 'Hello, release team!\n' },
      },
    });
    expect(missing).toMatchObject({ name: 'Bash', input: { command: 'ls missing-dir' } });
    expect(missing?.result?.isError).toBe(true);
    expect(missing?.result?.text).toBe(
      "Exit code 2\nls: cannot access 'missing-dir': No such file or directory\n",
    );
    expect(parsed.entries.filter((e) => e.kind === 'assistant_text').map((e) => e.text)).toEqual([
      'Created notes.md with the greeting; missing-dir does not exist.',
    ]);
    // One usage record per model response (the token_count events repeat them: not counted twice).
    expect(parsed.usage.map((u) => [u.messageId, u.model, u.input, u.output])).toEqual([
      ['resp_mock_1', 'gpt-5.1-codex', 100, 20],
      ['resp_mock_3', 'gpt-5.1-codex', 100, 20],
      ['resp_mock_5', 'gpt-5.1-codex', 100, 20],
    ]);
    expect(parsed.types.get('world_state')).toEqual({ seen: 1, skipped: 1 });
  });

  it('reads a resumed session as one: a failing check, then the fix and the check passing', () => {
    const parsed = parse(lines('rollout-resumed.jsonl'));
    expect(parsed.entries.map((e) => e.kind)).toEqual([
      'prompt',
      'tool_call',
      'assistant_text',
      'prompt',
      'tool_call',
      'tool_call',
      'assistant_text',
    ]);
    // The mock reused a call id in the second turn: each output still pairs with its own call.
    expect(
      callsOf(parsed.entries).map((c) => [c.id, (c.input as { command: string }).command, c.result?.isError]),
    ).toEqual([
      ['call_mock_s0_1', 'node check.mjs', true],
      ['call_mock_s0_1', 'cp config.example.json config.json', false],
      ['call_mock_s1_2', 'node check.mjs', false],
    ]);
    expect(callsOf(parsed.entries)[0]?.result?.text).toMatch(/^Exit code 1\nnode:fs:\d+\n[\s\S]*ENOENT/);
  });

  it('pairs an output with its call read the time before (the call in the stored tail)', () => {
    const records = lines('rollout-resumed.jsonl');
    const cut = records.findIndex((r) => JSON.stringify(r).includes('"type":"function_call"')) + 1;
    const first = parse(records.slice(0, cut));
    expect(callsOf(first.entries).map((c) => c.result)).toEqual([null]);
    // What the ingest stores as the tail is JSON: the next read gets a copy.
    const tail = structuredClone(first.entries);
    const second = parse(records.slice(cut), tail, first.chain as never[]);
    expect(callsOf(tail)[0]?.result).toMatchObject({ isError: true });
    expect(callsOf(second.entries)).toHaveLength(2); // the fix and the check, not the first call again
    expect(second.usage.length + first.usage.length).toBe(parse(records).usage.length);
  });

  it('takes the exit code Codex recorded with the command over what the output says', () => {
    const records = lines('rollout-resumed.jsonl').map((r) =>
      JSON.parse(JSON.stringify(r).replace('Process exited with code 1', 'Process exited with code 0')),
    );
    expect(callsOf(parse(records).entries)[0]?.result?.isError).toBe(true); // item_completed said exit_code 1
    const at = (s: string) => ({ timestamp: s, type: 'event_msg' });
    // The older shell tool: JSON output with metadata.exit_code, its end event after the output.
    const older = parse([
      { timestamp: '2026-01-01T00:00:00Z', type: 'session_meta', payload: { id: 's-old', cwd: '/p' } },
      { ...at('2026-01-01T00:00:01Z'), payload: { type: 'user_message', message: 'run the tests' } },
      {
        timestamp: '2026-01-01T00:00:02Z',
        type: 'response_item',
        payload: {
          type: 'function_call',
          name: 'shell',
          arguments: '{"command":["bash","-lc","npm test"]}',
          call_id: 'c1',
        },
      },
      {
        timestamp: '2026-01-01T00:00:03Z',
        type: 'response_item',
        payload: {
          type: 'function_call_output',
          call_id: 'c1',
          output: '{"output":"1 failing\\n","metadata":{"exit_code":1,"duration_seconds":0.5}}',
        },
      },
      {
        timestamp: '2026-01-01T00:00:04Z',
        type: 'response_item',
        payload: {
          type: 'custom_tool_call',
          name: 'apply_patch',
          call_id: 'c2',
          input:
            '*** Begin Patch\n*** Update File: src/a.ts\n@@\n-old\n+new\n*** Add File: b.md\n+hello\n*** End Patch\n',
        },
      },
      { ...at('2026-01-01T00:00:05Z'), payload: { type: 'patch_apply_end', call_id: 'c2', success: true } },
      {
        timestamp: '2026-01-01T00:00:05Z',
        type: 'response_item',
        payload: {
          type: 'custom_tool_call_output',
          call_id: 'c2',
          output: '{"output":"Success.","metadata":{"exit_code":0}}',
        },
      },
      {
        timestamp: '2026-01-01T00:00:06Z',
        type: 'compacted',
        payload: { message: 'Summary: tests fail in a.ts' },
      },
      { ...at('2026-01-01T00:00:07Z'), payload: { type: 'turn_aborted', reason: 'interrupted' } },
    ]);
    expect(older.sessionId).toBe('s-old');
    expect(older.entries.map((e) => e.kind)).toEqual([
      'prompt',
      'tool_call',
      'tool_call',
      'tool_call',
      'compact_boundary',
      'compact_summary',
      'interrupt',
    ]);
    const [test, edit, write] = callsOf(older.entries);
    expect(test).toMatchObject({ name: 'Bash', input: { command: 'npm test' } });
    expect(test?.result).toMatchObject({ isError: true, text: 'Exit code 1\n1 failing\n' });
    expect(edit).toMatchObject({
      name: 'Edit',
      id: 'c2',
      input: { file_path: '/p/src/a.ts', old_string: 'old', new_string: 'new' },
      result: { isError: false },
    });
    expect(write).toMatchObject({
      name: 'Write',
      id: 'c2#1',
      input: { file_path: '/p/b.md', content: 'hello' },
    });
  });

  it('is the reader picked for a rollout, by its name or by its first line', () => {
    const path = join(FIXTURES, 'rollout-resumed.jsonl');
    const first = readFileSync(path, 'utf8').split('\n')[0] ?? '';
    expect(isCodexRollout('/x/sessions/2026/11/27/rollout-2026-11-27T21-42-57-01a21ef6.jsonl', '')).toBe(
      true,
    );
    expect(isCodexRollout('/x/elsewhere.jsonl', first)).toBe(true);
    expect(isCodexRollout('/x/elsewhere.jsonl', '{"type":"user","message":{}}')).toBe(false);
    const renamed = join(tmp, 'session.jsonl');
    copyFileSync(path, renamed);
    const reader = transcriptReaderFor(renamed);
    expect([reader.format, reader.host]).toEqual(['codex-rollout-jsonl', 'codex']);
    const chunk = readJsonlFrom(renamed, 0, { peek: reader.peek });
    const parser = reader.parser([], []);
    for (const line of chunk.lines)
      if (line.skipped) parser.skip(line.skipped);
      else parser.add(line.value);
    expect(parser.result().entries.filter((e) => e.kind === 'prompt')).toHaveLength(2);
    const claude = join(tmp, 'claude.jsonl');
    writeFileSync(claude, '{"type":"user","message":{"role":"user","content":"hi"}}\n');
    expect(transcriptReaderFor(claude).host).toBe('claude-code');
    expect(
      rolloutSessionId('/s/rollout-2026-11-27T21-42-57-01a21ef6-23a0-7243-82b0-0144b683a533.jsonl'),
    ).toBe('01a21ef6-23a0-7243-82b0-0144b683a533');
  });
});
