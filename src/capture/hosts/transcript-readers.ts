/**
 * Which reader a transcript file needs: a Copilot CLI session log by its path (`…/session-state/<id>/
 * events.jsonl`); a Codex rollout by its name (`rollout-….jsonl`) or its first line (`session_meta`); a
 * Gemini CLI chat file by its first record (a header of its own: `sessionId`, `projectHash`); an opencode
 * session log engram wrote from opencode's store by its header (`opencode/session-log.ts`); everything
 * else is read as Claude Code's records. All give the same `ParsedTranscript`; the worker asks here, so
 * it never knows a host's transcript format. Each reader names its host: a session first seen through
 * its transcript (backfill) is recorded as that host's.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { SkippedLine } from '../transcript/read-jsonl.ts';
import type { ParsedTranscript } from '../transcript/parsed-transcript.ts';
import { peekSkippedType } from '../transcript/skipped-lines.ts';
import { createTranscriptParser } from '../transcript/transcript-entries.ts';
import type { ChainLink, TranscriptEntry } from '../../core/transcript.ts';
import type { HostCapabilities, HostName } from './host-port.ts';
import { claudeSubagentFiles } from './claude-code/subagent-files.ts';
import {
  createCodexRolloutParser,
  isCodexRollout,
  peekCodexLine,
  rolloutSessionId,
} from './codex/rollout.ts';
import { createCopilotEventsParser, isCopilotEventsLog } from './copilot/events-log.ts';
import { createGeminiChatParser, isGeminiChatHeader } from './gemini/chat-file.ts';
import { createOpencodeSessionParser, isOpencodeSessionLog, sessionLogId } from './opencode/session-log.ts';

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
  /** The session a file holds, from its path or its first line (null: the records must say). */
  sessionIdOf: (path: string, firstLine: string) => string | null;
  /** Files the host writes its subagents' records to, beside the session's own (see subagent-activity). */
  subagentFiles?: (sessionPath: string) => string[];
}

const CLAUDE_CODE: TranscriptReader = {
  format: 'claude-code-jsonl',
  host: 'claude-code',
  peek: peekSkippedType,
  parser: createTranscriptParser,
  sessionIdOf: (path) => basename(path, '.jsonl'),
  subagentFiles: claudeSubagentFiles,
};
const GEMINI: TranscriptReader = {
  format: 'gemini-chat-jsonl',
  host: 'gemini',
  peek: () => null,
  parser: createGeminiChatParser,
  // The header's `sessionId` (the file name holds only a prefix of it).
  sessionIdOf: (_path, line) => /"sessionId":"([^"]+)"/.exec(line)?.[1] ?? null,
};

const COPILOT: TranscriptReader = {
  format: 'copilot-events-jsonl',
  host: 'copilot',
  peek: () => null,
  parser: (context) => createCopilotEventsParser(context),
  sessionIdOf: (path) => basename(dirname(path)),
};

const CODEX: TranscriptReader = {
  format: 'codex-rollout-jsonl',
  host: 'codex',
  peek: peekCodexLine,
  parser: createCodexRolloutParser,
  // The name ends with it; else the `session_meta` line (its id comes early in the payload).
  sessionIdOf: (path, line) =>
    rolloutSessionId(path) ??
    /"(?:session_id|id)":"([^"]+)"/.exec(line.slice(line.indexOf('"payload"')))?.[1] ??
    null,
};

const OPENCODE: TranscriptReader = {
  format: 'opencode-sqlite',
  host: 'opencode',
  peek: () => null,
  parser: createOpencodeSessionParser,
  sessionIdOf: (_path, line) => sessionLogId(line),
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

function readerOf(path: string, line: string): TranscriptReader {
  if (isCopilotEventsLog(path)) return COPILOT;
  if (isCodexRollout(path, line)) return CODEX;
  if (isOpencodeSessionLog(line)) return OPENCODE;
  if (!line.includes('"projectHash"')) return CLAUDE_CODE;
  try {
    return isGeminiChatHeader(JSON.parse(line)) ? GEMINI : CLAUDE_CODE;
  } catch {
    return CLAUDE_CODE;
  }
}

/** The reader for the transcript at `path`. */
export function transcriptReaderFor(path: string): TranscriptReader {
  return readerOf(path, isCopilotEventsLog(path) ? '' : firstLine(path));
}

/** The session the transcript at `path` holds, as its host names it (file name, folder or header). */
export function transcriptSessionId(path: string): string | null {
  const line = isCopilotEventsLog(path) ? '' : firstLine(path);
  return readerOf(path, line).sessionIdOf(path, line);
}
