/**
 * Which reader a transcript file needs: a Copilot CLI session log by its path (`…/session-state/<id>/
 * events.jsonl`); a Gemini CLI chat file by its first record (a header of its own: `sessionId`,
 * `projectHash`); everything else is read as Claude Code's records. All give the same
 * `ParsedTranscript`; the worker asks here, so it never knows a host's transcript format.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import type { SkippedLine } from '../transcript/read-jsonl.ts';
import {
  createTranscriptParser,
  peekSkippedType,
  type ParsedTranscript,
} from '../transcript/transcript-entries.ts';
import type { ChainLink, TranscriptEntry } from '../../core/transcript.ts';
import { createCopilotEventsParser, isCopilotEventsLog } from './copilot/events-log.ts';
import { createGeminiChatParser, isGeminiChatHeader } from './gemini/chat-file.ts';

export interface TranscriptParser {
  add: (value: unknown) => void;
  skip: (line: SkippedLine) => void;
  result: () => ParsedTranscript;
}

export interface TranscriptReader {
  format: 'claude-code-jsonl' | 'gemini-chat-jsonl' | 'copilot-events-jsonl';
  /** Lines recognised without parsing (`readJsonlFrom`'s `peek`). */
  peek: (line: string) => SkippedLine | null;
  parser: (context: readonly TranscriptEntry[], chain: readonly ChainLink[]) => TranscriptParser;
}

const CLAUDE_CODE: TranscriptReader = {
  format: 'claude-code-jsonl',
  peek: peekSkippedType,
  parser: createTranscriptParser,
};
const GEMINI: TranscriptReader = {
  format: 'gemini-chat-jsonl',
  peek: () => null,
  parser: createGeminiChatParser,
};

const COPILOT: TranscriptReader = {
  format: 'copilot-events-jsonl',
  peek: () => null,
  parser: (context) => createCopilotEventsParser(context),
};

/** The first line of a file (at most 4 KB of it), or '' when it cannot be read. */
function firstLine(path: string): string {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return '';
  }
  try {
    const buffer = Buffer.alloc(4096);
    const read = readSync(fd, buffer, 0, buffer.length, 0);
    return buffer.subarray(0, read).toString('utf8').split('\n')[0] ?? '';
  } catch {
    return '';
  } finally {
    closeSync(fd);
  }
}

/** The reader for the transcript at `path`. */
export function transcriptReaderFor(path: string): TranscriptReader {
  if (isCopilotEventsLog(path)) return COPILOT;
  const line = firstLine(path);
  if (!line.includes('"projectHash"')) return CLAUDE_CODE;
  try {
    return isGeminiChatHeader(JSON.parse(line)) ? GEMINI : CLAUDE_CODE;
  } catch {
    return CLAUDE_CODE;
  }
}
