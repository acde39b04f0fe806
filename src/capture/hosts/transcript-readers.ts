/**
 * Which reader a transcript file needs: a Copilot CLI session log by its path (`…/session-state/<id>/
 * events.jsonl`); a Codex rollout by its name (`rollout-….jsonl`) or its first line (`session_meta`); a
 * Gemini CLI chat file by its first record (a header of its own: `sessionId`, `projectHash`); everything
 * else is read as Claude Code's records. All give the same `ParsedTranscript`; the worker asks here, so
 * it never knows a host's transcript format. Each reader names its host: a session first seen through
 * its transcript (backfill) is recorded as that host's.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import type { SkippedLine } from '../transcript/read-jsonl.ts';
import {
  createTranscriptParser,
  peekSkippedType,
  type ParsedTranscript,
} from '../transcript/transcript-entries.ts';
import type { ChainLink, TranscriptEntry } from '../../core/transcript.ts';
import type { HostCapabilities, HostName } from './host-port.ts';
import { createCodexRolloutParser, isCodexRollout, peekCodexLine } from './codex/rollout.ts';
import { createCopilotEventsParser, isCopilotEventsLog } from './copilot/events-log.ts';
import { createGeminiChatParser, isGeminiChatHeader } from './gemini/chat-file.ts';

export interface TranscriptParser {
  add: (value: unknown) => void;
  skip: (line: SkippedLine) => void;
  result: () => ParsedTranscript;
}

export interface TranscriptReader {
  format: NonNullable<HostCapabilities['transcripts']>;
  /** The host that writes this format. */
  host: HostName;
  /** Lines recognised without parsing (`readJsonlFrom`'s `peek`). */
  peek: (line: string) => SkippedLine | null;
  parser: (context: readonly TranscriptEntry[], chain: readonly ChainLink[]) => TranscriptParser;
}

const CLAUDE_CODE: TranscriptReader = {
  format: 'claude-code-jsonl',
  host: 'claude-code',
  peek: peekSkippedType,
  parser: createTranscriptParser,
};
const GEMINI: TranscriptReader = {
  format: 'gemini-chat-jsonl',
  host: 'gemini',
  peek: () => null,
  parser: createGeminiChatParser,
};

const COPILOT: TranscriptReader = {
  format: 'copilot-events-jsonl',
  host: 'copilot',
  peek: () => null,
  parser: (context) => createCopilotEventsParser(context),
};

const CODEX: TranscriptReader = {
  format: 'codex-rollout-jsonl',
  host: 'codex',
  peek: peekCodexLine,
  parser: createCodexRolloutParser,
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
  if (isCodexRollout(path, line)) return CODEX;
  if (!line.includes('"projectHash"')) return CLAUDE_CODE;
  try {
    return isGeminiChatHeader(JSON.parse(line)) ? GEMINI : CLAUDE_CODE;
  } catch {
    return CLAUDE_CODE;
  }
}
