import { describe, expect, it } from 'vitest';
import { createGeminiChatParser } from '../hosts/gemini/chat-file.ts';
import { createTranscriptParser } from './transcript-entries.ts';

// Obviously fake: an entry whose line alone does not show its word a value (code as often as config).
const ENV_TEXT = '# local only\nsecret = CorrectHorse\n';
const numbered = (text: string) =>
  text
    .split('\n')
    .map((line, i) => `${String(i + 1).padStart(6)}\t${line}`)
    .join('\n');

/** A Claude Code session that reads `path` (holding `ENV_TEXT`) and writes it back, as its JSONL records it. */
function session(path: string) {
  const p = createTranscriptParser();
  const base = { sessionId: 's1', cwd: '/p', version: '2.1.39', userType: 'external', isSidechain: false };
  const assistant = (uuid: string, parentUuid: string, id: string, name: string, input: unknown) => ({
    ...base,
    parentUuid,
    type: 'assistant',
    uuid,
    timestamp: '2026-11-28T10:00:01Z',
    message: {
      id: `msg_${uuid}`,
      type: 'message',
      role: 'assistant',
      model: 'claude-x',
      content: [{ type: 'tool_use', id, name, input }],
      usage: { input_tokens: 1, output_tokens: 1 },
    },
  });
  const result = (uuid: string, parentUuid: string, id: string, content: string, toolUseResult: unknown) => ({
    ...base,
    parentUuid,
    type: 'user',
    uuid,
    timestamp: '2026-11-28T10:00:02Z',
    message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content }] },
    toolUseResult,
  });
  p.add({
    ...base,
    parentUuid: null,
    type: 'user',
    uuid: 'u0',
    timestamp: '2026-11-28T10:00:00Z',
    message: { role: 'user', content: 'Check the local settings' },
  });
  p.add(assistant('a1', 'u0', 'toolu_1', 'Read', { file_path: path }));
  p.add(
    result('u1', 'a1', 'toolu_1', numbered(ENV_TEXT), {
      type: 'text',
      file: { filePath: path, content: ENV_TEXT, numLines: 3, startLine: 1, totalLines: 3 },
    }),
  );
  p.add(assistant('a2', 'u1', 'toolu_2', 'Write', { file_path: path, content: ENV_TEXT }));
  p.add(
    result('u2', 'a2', 'toolu_2', `File created successfully at: ${path}`, {
      type: 'create',
      filePath: path,
      content: ENV_TEXT,
      structuredPatch: [],
    }),
  );
  return JSON.stringify(p.result().entries);
}

describe('a Claude Code transcript’s tool results, by the file their call names', () => {
  it('scrubs a read or write of .env as config: the result text, the structured result and the input', () => {
    const json = session('/p/.env');
    expect(json).not.toContain('CorrectHorse');
    expect(json).toContain('secret = [REDACTED:assignment]');
  });

  it('keeps the same lines read from a code file, as before', () => {
    expect(session('/p/src/notes.py')).toContain('secret = CorrectHorse');
  });
});

/** A Gemini CLI chat file's model message that read `path` (Gemini's `read_file` and its result part). */
function geminiRead(path: string) {
  const p = createGeminiChatParser();
  p.add({ sessionId: 'g1', projectHash: 'h', startTime: '2026-11-28T10:00:00Z', kind: 'main' });
  p.add({
    id: 'm1',
    timestamp: '2026-11-28T10:00:01Z',
    type: 'gemini',
    content: '',
    model: 'gemini-2.5-flash',
    toolCalls: [
      {
        id: 'read_file_1',
        name: 'read_file',
        args: { absolute_path: path },
        status: 'success',
        timestamp: '2026-11-28T10:00:01Z',
        result: [
          { functionResponse: { id: 'read_file_1', name: 'read_file', response: { output: ENV_TEXT } } },
        ],
      },
    ],
  });
  return JSON.stringify(p.result().entries);
}

describe('another host’s reader: a Gemini CLI chat file’s read_file result', () => {
  it('is scrubbed as config when the call names .env, as before when it names code', () => {
    const env = geminiRead('/p/.env');
    expect(env).toContain('"name":"Read"');
    expect(env).not.toContain('CorrectHorse');
    expect(geminiRead('/p/src/notes.py')).toContain('secret = CorrectHorse');
  });
});
