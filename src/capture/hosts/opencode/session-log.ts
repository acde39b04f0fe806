/**
 * opencode's sessions as engram reads them: a session log, JSON lines engram writes itself from
 * opencode's store (`session-store.ts`), since opencode keeps a session in SQLite rows, not a file. The
 * first line is a header (`engram_opencode_session`: the session's id, directory, opencode's version,
 * when it began, its parent session for a subagent's, and `written`, which changes when the log had to
 * be rewritten rather than appended to); then one line per finished message, in order, shaped as
 * `opencode export` prints a message: `{info, parts}`. A log only grows while its session does, so the
 * worker's offsets and fingerprints work on it as on any transcript.
 *
 * Entries: the user's text parts (not those opencode made up itself) are the prompt; the assistant's
 * text parts its words (a compaction's summary message a `compact_summary`); a tool part a tool call
 * with its result (a shell command that exited non-zero, or a call that ended in `error`, is a failure);
 * a `compaction` part a compaction boundary; each assistant message's tokens its usage.
 */
import type { Json } from '../../../core/model.ts';
import type { ChainLink, TranscriptEntry } from '../../../core/transcript.ts';
import { scrubAndLimit, scrubResultText } from '../../limit-size.ts';
import { countRecord, emptyParsed, type ParsedTranscript } from '../../transcript/parsed-transcript.ts';
import { promptText } from './payload.ts';
import { engramToolInput, engramToolName, isRecord, toolOutcome } from './tools.ts';

const LIMITS = { maxFieldChars: 8000, maxEventBytes: 65_536 };
export const SESSION_LOG_KEY = 'engram_opencode_session';

/** A session log's header line (its fields in this order: the fingerprint is of the first bytes). */
export interface SessionLogHeader {
  id: string;
  directory: string;
  version: string;
  created: number;
  parent: string | null;
  written: number;
}

export function headerLine(h: SessionLogHeader): string {
  return JSON.stringify({
    [SESSION_LOG_KEY]: h.id,
    written: h.written,
    directory: h.directory,
    version: h.version,
    created: h.created,
    parent: h.parent,
  });
}

/** Is this the first line of one of engram's opencode session logs? */
export const isOpencodeSessionLog = (firstLine: string): boolean =>
  firstLine.startsWith(`{"${SESSION_LOG_KEY}":`);

/** The session a log holds, from its first line. */
export function sessionLogId(firstLine: string): string | null {
  if (!isOpencodeSessionLog(firstLine)) return null;
  try {
    const id = (JSON.parse(firstLine) as Record<string, unknown>)[SESSION_LOG_KEY];
    return typeof id === 'string' && id !== '' ? id : null;
  } catch {
    return null;
  }
}

const rec = (v: unknown): Record<string, unknown> => (isRecord(v) ? v : {});
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
const clip = (text: string, input?: Json): string =>
  scrubResultText(text, input).slice(0, LIMITS.maxFieldChars);

/** engram's own MCP tools as opencode names them: never captured (as in the plugin's events). */
const isEngramTool = (tool: string): boolean => tool.startsWith('engram_');

/** A tool part → a tool call with its result (null while it has not finished). */
function toolCall(part: Record<string, unknown>, at: number): TranscriptEntry | null {
  const tool = str(part['tool']);
  const state = rec(part['state']);
  const id = str(part['id']);
  if (tool === '' || isEngramTool(tool)) return null;
  const status = str(state['status']);
  const callAt = num(rec(state['time'])['start']) || at;
  let result: Extract<TranscriptEntry, { kind: 'tool_call' }>['result'] = null;
  const input = scrubAndLimit((engramToolInput(state['input']) ?? null) as never, LIMITS);
  if (status === 'completed') {
    const outcome = toolOutcome(tool, str(state['output']), state['metadata']);
    result = outcome.ok
      ? {
          text: clip(str(state['output']), input),
          isError: false,
          structured:
            typeof outcome.response === 'object' ? scrubAndLimit(outcome.response, LIMITS, input) : null,
          uuid: id,
        }
      : { text: clip(outcome.error), isError: true, structured: null, uuid: id };
  } else if (status === 'error') {
    result = { text: clip(str(state['error'])), isError: true, structured: null, uuid: id };
  }
  return {
    kind: 'tool_call',
    uuid: id,
    at: callAt,
    id: str(part['callID']) || id,
    name: engramToolName(tool),
    input,
    result,
    sidechain: false,
  };
}

/** Same interface as Claude Code's parser (`createTranscriptParser`): lines in file order, then `result()`. */
export function createOpencodeSessionParser(
  _context: readonly TranscriptEntry[] = [],
  _chain: readonly ChainLink[] = [],
) {
  const parsed = emptyParsed();
  const count = (type: string, skipped: boolean) => countRecord(parsed, type, skipped);

  const userMessage = (info: Record<string, unknown>, parts: unknown[]): boolean => {
    const words = promptText(parts).trim();
    if (words === '') return false;
    const text = clip(words);
    const command = /^\/[\w:-]+/.exec(text)?.[0];
    const at = num(rec(info['time'])['created']);
    parsed.entries.push({ kind: 'prompt', uuid: str(info['id']), at, text, ...(command ? { command } : {}) });
    return true;
  };

  const assistantMessage = (info: Record<string, unknown>, parts: unknown[]): boolean => {
    const messageId = str(info['id']);
    const at = num(rec(info['time'])['created']);
    const summary = info['summary'] === true;
    let kept = false;
    for (const p of parts) {
      const part = rec(p);
      const type = str(part['type']);
      const partAt = num(rec(part['time'])['start']) || at;
      if (type === 'text' && part['synthetic'] !== true && str(part['text']).trim() !== '') {
        const text = clip(str(part['text']).trim());
        const uuid = str(part['id']) || messageId;
        parsed.entries.push(
          summary
            ? { kind: 'compact_summary', uuid, at: partAt, text }
            : { kind: 'assistant_text', uuid, at: partAt, messageId, text },
        );
        kept = true;
      } else if (type === 'tool') {
        const call = toolCall(part, at);
        if (call) parsed.entries.push(call);
        kept ||= call !== null;
      } else if (type === 'compaction') {
        parsed.entries.push({ kind: 'compact_boundary', uuid: str(part['id']) || messageId, at: partAt });
        kept = true;
      }
    }
    const tokens = rec(info['tokens']);
    if (Object.keys(tokens).length > 0) {
      const cache = rec(tokens['cache']);
      parsed.usage.push({
        messageId,
        model: str(info['modelID']),
        at,
        input: num(tokens['input']),
        output: num(tokens['output']) + num(tokens['reasoning']),
        cacheRead: num(cache['read']),
        cacheWrite: num(cache['write']),
      });
    }
    return kept;
  };

  const add = (value: unknown) => {
    const r = rec(value);
    if (typeof r[SESSION_LOG_KEY] === 'string') {
      parsed.sessionId = str(r[SESSION_LOG_KEY]);
      parsed.cwd = str(r['directory']) || null;
      return count('header', false);
    }
    const info = rec(r['info']);
    const parts = Array.isArray(r['parts']) ? (r['parts'] as unknown[]) : [];
    const role = str(info['role']) || '?';
    if (role === 'user') return count(role, !userMessage(info, parts));
    if (role === 'assistant') return count(role, !assistantMessage(info, parts));
    count(role, true);
  };

  return {
    add,
    skip: (line: { type: string }) => count(line.type, true),
    result: (): ParsedTranscript => parsed,
  };
}
