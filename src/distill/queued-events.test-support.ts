/**
 * Test support: one turn of queued events as the capture layer stores them, with tool payloads in
 * the shapes Claude Code 2.1 sends (PostToolUse / PostToolUseFailure).
 */
import type { CapturedEvent, Json, QueuedEvent } from '../core/model.ts';

export const ROOT = '/home/dev/shop';
export const abs = (file: string) => (file.startsWith('/') ? file : `${ROOT}/${file}`);

/** Events as the capture layer queues them: one session, increasing seq and time. */
export function turn(...events: CapturedEvent[]): QueuedEvent[] {
  return events.map((event, i) => ({
    seq: i + 1,
    sessionId: 'sess-1',
    projectId: 'prj_0123456789abcdef' as QueuedEvent['projectId'],
    cwd: ROOT,
    transcriptPath: null,
    at: 1_700_000_000_000 + i * 1000,
    event,
    attempts: 0,
  }));
}

export const prompt = (p: string): CapturedEvent => ({ kind: 'prompt', prompt: p });
export const stop = (m: string): CapturedEvent => ({ kind: 'stop', lastMessage: m });
export const tool = (name: string, input: Json, response: Json = {}): CapturedEvent => ({
  kind: 'tool',
  tool: name,
  toolUseId: `toolu_${name}`,
  input,
  response,
});
export const bash = (command: string, stdout = '', stderr = ''): CapturedEvent =>
  tool(
    'Bash',
    { command, description: 'Run it' },
    { stdout, stderr, interrupted: false, isImage: false, noOutputExpected: false },
  );
export const bashFail = (command: string, error: string): CapturedEvent => ({
  kind: 'tool_failure',
  tool: 'Bash',
  input: { command, description: 'Run it' },
  error,
  interrupted: false,
});
export const read = (file: string, content = ''): CapturedEvent =>
  tool(
    'Read',
    { file_path: abs(file) },
    { type: 'text', file: { filePath: abs(file), content, numLines: 1, startLine: 1, totalLines: 1 } },
  );
export const edit = (
  file: string,
  oldS: string,
  newS: string,
  originalFile: string | null = null,
): CapturedEvent =>
  tool(
    'Edit',
    { file_path: abs(file), old_string: oldS, new_string: newS, replace_all: false },
    { filePath: abs(file), oldString: oldS, newString: newS, originalFile, userModified: false },
  );
export const write = (file: string, content: string): CapturedEvent =>
  tool(
    'Write',
    { file_path: abs(file), content },
    { type: 'create', filePath: abs(file), content, structuredPatch: [], originalFile: null },
  );
