import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { transcriptReaderFor } from '../transcript-readers.ts';
import { createGeminiChatParser } from './chat-file.ts';

const FIXTURES = join(import.meta.dirname, '..', '..', '..', '..', 'test', 'fixtures', 'hosts', 'gemini');
const CHAT = join(FIXTURES, 'chat.jsonl');
const records = () =>
  readFileSync(CHAT, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as unknown);

describe('the Gemini chat file reader on the recorded session', () => {
  it('reads the user’s prompt, the tool calls with their outcomes and the answer, each once', () => {
    const parser = createGeminiChatParser();
    for (const r of records()) parser.add(r);
    const parsed = parser.result();
    expect(parsed.sessionId).toBe('a21ad2cc-0d80-417f-9db8-789bfd100b55');
    expect(
      parsed.entries.map((e) =>
        e.kind === 'tool_call'
          ? { kind: e.kind, name: e.name, input: e.input, text: e.result?.text, isError: e.result?.isError }
          : { kind: e.kind, text: 'text' in e ? e.text : '' },
      ),
    ).toEqual([
      // The session context Gemini wrote first, and the hook context on the prompt, are not the user's words.
      {
        kind: 'prompt',
        text: 'Create notes.md with a greeting for the release team, then check missing-dir',
      },
      {
        kind: 'tool_call',
        name: 'Bash',
        input: {
          command: "printf 'Hello, release team!\\n' > notes.md && cat notes.md",
          description: 'Run a shell command',
        },
        text: 'Hello, release team!',
        isError: false,
      },
      {
        kind: 'tool_call',
        name: 'Bash',
        input: { command: 'ls missing-dir', description: 'Run a shell command' },
        text: "Exit code 2\nls: cannot access 'missing-dir': No such file or directory",
        isError: true,
      },
      { kind: 'assistant_text', text: 'Created notes.md with the greeting; missing-dir does not exist.' },
    ]);
    // One usage record per model message, though the first was written twice.
    expect(parsed.usage.map((u) => [u.model, u.input, u.output])).toEqual([
      ['gemini-2.5-flash', 100, 20],
      ['gemini-2.5-flash', 100, 20],
      ['gemini-2.5-flash', 100, 20],
    ]);
  });

  it('read in two parts (the chain carried between), takes nothing twice and misses nothing', () => {
    const all = records();
    const whole = createGeminiChatParser();
    for (const r of all) whole.add(r);
    const expected = whole.result();
    for (let cut = 1; cut < all.length; cut++) {
      const first = createGeminiChatParser();
      for (const r of all.slice(0, cut)) first.add(r);
      const a = first.result();
      const second = createGeminiChatParser(a.entries, a.chain);
      for (const r of all.slice(cut)) second.add(r);
      const b = second.result();
      expect([...a.entries, ...b.entries]).toEqual(expected.entries);
      expect([...a.usage, ...b.usage]).toEqual(expected.usage);
    }
  });

  it('counts what it does not keep, and never fails on an odd record', () => {
    const parser = createGeminiChatParser();
    for (const r of [null, 'x', { type: 'info', id: 'i1', content: 'Update available' }, { type: 'gemini' }])
      parser.add(r);
    expect(Object.fromEntries(parser.result().types)).toMatchObject({ info: { seen: 1, skipped: 1 } });
    expect(parser.result().entries).toEqual([]);
  });
});

describe('the transcript reader for a file', () => {
  it('is Gemini’s for a chat file and Claude Code’s for anything else', () => {
    const dir = mkdtempSync(join(tmpdir(), 'engram-readers-'));
    try {
      expect(transcriptReaderFor(CHAT).format).toBe('gemini-chat-jsonl');
      const claude = join(dir, 'claude.jsonl');
      writeFileSync(claude, '{"type":"user","message":{"role":"user","content":"hi"},"uuid":"u1"}\n');
      expect(transcriptReaderFor(claude).format).toBe('claude-code-jsonl');
      expect(transcriptReaderFor(join(dir, 'missing.jsonl')).format).toBe('claude-code-jsonl');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
