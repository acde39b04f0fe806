import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { transcriptReaderFor } from '../transcript-readers.ts';
import { createCopilotEventsParser, isCopilotEventsLog } from './events-log.ts';

const FIXTURES = join(import.meta.dirname, '..', '..', '..', '..', 'test', 'fixtures', 'hosts', 'copilot');
const SESSION = '3fe14a49-7439-4580-8f4e-dfc7093dd8ac';
const records = (): unknown[] =>
  readFileSync(join(FIXTURES, 'events.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as unknown);

function parse(lines: unknown[], context: Parameters<typeof createCopilotEventsParser>[0] = []) {
  const parser = createCopilotEventsParser(context);
  for (const r of lines) parser.add(r);
  return parser.result();
}

describe('Copilot’s events.jsonl as engram’s transcript entries', () => {
  it('reads the recorded session: the user’s words, the calls with their results, the closing words', () => {
    const parsed = parse(records());
    expect(parsed.sessionId).toBe(SESSION);
    expect(parsed.cwd).toBe('{{project}}');
    const simple = parsed.entries.map((e) =>
      e.kind === 'tool_call'
        ? { kind: e.kind, name: e.name, command: (e.input as { command: string }).command, result: e.result }
        : { kind: e.kind, text: 'text' in e ? e.text : '' },
    );
    expect(simple).toEqual([
      {
        kind: 'prompt',
        // the words typed, not the transformedContent with the date and injected context
        text: 'Create notes.md with a greeting for the release team, then check missing-dir',
      },
      {
        kind: 'tool_call',
        name: 'Bash',
        command: "printf 'Hello, release team!\\n' > notes.md && cat notes.md",
        result: {
          text: 'Hello, release team!',
          isError: false,
          structured: { stdout: 'Hello, release team!', stderr: '', interrupted: false },
          uuid: expect.any(String),
        },
      },
      {
        kind: 'tool_call',
        name: 'Bash',
        command: 'ls missing-dir',
        result: {
          // a non-zero exit is an error, worded as Claude Code words one
          text: "Exit code 2\nls: cannot access 'missing-dir': No such file or directory",
          isError: true,
          structured: {
            stdout: "ls: cannot access 'missing-dir': No such file or directory",
            stderr: '',
            interrupted: false,
          },
          uuid: expect.any(String),
        },
      },
      { kind: 'assistant_text', text: 'Created notes.md with the greeting; missing-dir does not exist.' },
    ]);
    expect(parsed.usage).toHaveLength(3);
    expect(parsed.usage[0]).toMatchObject({ model: 'gpt-4.1', input: 100, output: 20 });
    expect(parsed.types.get('hook.start')).toEqual({ seen: 8, skipped: 8 });
    expect(parsed.types.get('user.message')).toEqual({ seen: 1, skipped: 0 });
  });

  it('reads incrementally: a result pairs with a call read before (carried as context)', () => {
    const all = records();
    const cut = all.findIndex((r) => (r as { type: string }).type === 'tool.execution_complete');
    const first = parse(all.slice(0, cut));
    const pending = first.entries.filter((e) => e.kind === 'tool_call' && !e.result);
    expect(pending).toHaveLength(1);
    const second = parse(all.slice(cut), first.entries);
    expect(second.sessionId).toBeNull();
    const call = first.entries.find((e) => e.kind === 'tool_call');
    expect(call?.kind === 'tool_call' && call.result?.isError).toBe(false);
    expect(second.entries.map((e) => e.kind)).toEqual(['tool_call', 'assistant_text']);
  });

  it('scrubs what it keeps, and is chosen by the log’s path', () => {
    const fake = 'ghp_' + 'FakeFakeFakeFakeFakeFakeFakeFake1234';
    const parsed = parse([
      {
        type: 'user.message',
        id: 'u1',
        timestamp: '2026-11-27T17:14:36.928Z',
        data: { content: `token ${fake}` },
      },
    ]);
    expect(JSON.stringify(parsed.entries)).not.toContain(fake);
    expect(isCopilotEventsLog(`/h/.copilot/session-state/${SESSION}/events.jsonl`)).toBe(true);
    expect(isCopilotEventsLog('/h/.claude/projects/p/events.jsonl')).toBe(false);
    const claude = transcriptReaderFor('/h/.claude/projects/p/s.jsonl').parser([], []);
    claude.add({ type: 'user.message', data: { content: 'x' } });
    expect(claude.result().entries).toEqual([]);
    const copilot = transcriptReaderFor(`/h/.copilot/session-state/${SESSION}/events.jsonl`).parser([], []);
    copilot.add({ type: 'user.message', id: 'u', data: { content: 'x' } });
    expect(copilot.result().entries).toHaveLength(1);
  });
});

describe('Copilot’s file tools in events.jsonl', () => {
  it('names the calls as engram does, with engram’s fields, paired with their results', () => {
    const lines = readFileSync(join(FIXTURES, 'file-tools', 'events.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as unknown);
    const calls = parse(lines).entries.flatMap((e) =>
      e.kind === 'tool_call' ? [{ name: e.name, input: e.input, isError: e.result?.isError }] : [],
    );
    const file = '{{project}}/CHECKLIST.md';
    expect(calls).toEqual([
      { name: 'Write', input: { file_path: file, content: '1. tag\n2. publish\n' }, isError: false },
      { name: 'Read', input: { file_path: file }, isError: false },
      {
        name: 'Edit',
        input: { file_path: file, old_string: '1. tag', new_string: '1. bump and tag' },
        isError: false,
      },
      { name: 'Glob', input: { pattern: '*.md' }, isError: false },
      { name: 'Grep', input: { pattern: 'publish', path: '{{project}}' }, isError: false },
      { name: 'Read', input: { file_path: '{{project}}/missing.md' }, isError: true },
    ]);
  });
});
