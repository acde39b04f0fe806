/**
 * Gemini CLI's chat files → engram's transcript entries. A chat file is JSON lines: a header
 * (`sessionId`, `projectHash`, `startTime`, `kind`), message records (`id`, `timestamp`, `type` `user` or
 * `gemini`, `content`, and on the model's messages `toolCalls` with their results, `tokens`, `model`),
 * and `{"$set": {…}}` updates (the first one sets the session-context message). A message is written
 * again, whole, as it completes (its tool calls and their results arrive in a later copy with the same
 * `id`), so each thing is taken once, when it is complete: the model's words the first time they are
 * there, a tool call once it has its result, usage once per message. What was taken is remembered in
 * the read's chain (`text:<id>`, `call:<id>`, `usage:<id>`), carried to the next read of the file.
 * The session context Gemini writes as the first user message and the hook context it adds to a prompt
 * are not the user's words. Every string is scrubbed and capped before it leaves this module.
 */
import { scrubText } from '../../../core/scrub.ts';
import type { ChainLink, TranscriptEntry } from '../../../core/transcript.ts';
import { scrubAndLimit, scrubResultText } from '../../limit-size.ts';
import { countRecord, emptyParsed, type ParsedTranscript } from '../../transcript/parsed-transcript.ts';
import { contentText } from './chat-tail.ts';
import { userPrompt } from './payload.ts';
import { engramToolInput, engramToolName, resultText, toolOutcome } from './tools.ts';

const LIMITS = { maxFieldChars: 8000, maxEventBytes: 65_536 };
/** How many taken keys the chain carries to the next read (a message is rewritten soon after it starts). */
const CHAIN_KEEP = 400;

function rec(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}
const str = (value: unknown): string => (typeof value === 'string' ? value : '');
const num = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);
function timeOf(value: unknown): number {
  const t = Date.parse(str(value));
  return Number.isFinite(t) ? t : 0;
}

/** Whether a chat file's first record is Gemini's header (the format the reader is picked by). */
export function isGeminiChatHeader(record: unknown): boolean {
  const r = rec(record);
  return typeof r['sessionId'] === 'string' && typeof r['projectHash'] === 'string';
}

/** A tool call's result text as the model was given it. */
function callResult(call: Record<string, unknown>): string {
  const results = Array.isArray(call['result']) ? call['result'] : [];
  return results
    .map((part) => {
      const response = rec(rec(rec(part)['functionResponse'])['response']);
      return resultText(response) || str(response['error']);
    })
    .filter(Boolean)
    .join('\n');
}

const FINISHED = new Set(['success', 'error', 'cancelled']);

/** Same interface as Claude Code's parser (`createTranscriptParser`): records in file order, then `result()`. */
export function createGeminiChatParser(
  _context: readonly TranscriptEntry[] = [],
  chain: readonly ChainLink[] = [],
) {
  const parsed = emptyParsed();
  const taken = new Map<string, ChainLink>(chain.map((link) => [link.uuid, link]));
  const take = (key: string, at: number): boolean => {
    if (taken.has(key)) return false;
    taken.set(key, { uuid: key, parent: null, at, entry: true });
    return true;
  };
  const count = (type: string, skipped: boolean) => countRecord(parsed, type, skipped);

  const userMessage = (m: Record<string, unknown>, id: string, at: number): boolean => {
    const raw = contentText(m['content']);
    // Gemini's own context (`<session_context>`), a tool's result (functionResponse parts), nothing typed.
    if (raw.trimStart().startsWith('<session_context>')) return false;
    const words = userPrompt(raw);
    if (words === '' || !take(`text:${id}`, at)) return false;
    const text = scrubText(words).slice(0, 8000);
    const command = /^\/[\w:-]+/.exec(text)?.[0];
    parsed.entries.push({ kind: 'prompt', uuid: id, at, text, ...(command ? { command } : {}) });
    return true;
  };

  const modelMessage = (m: Record<string, unknown>, id: string, at: number): boolean => {
    let kept = false;
    const words = contentText(m['content']).trim();
    if (words !== '' && take(`text:${id}`, at)) {
      parsed.entries.push({
        kind: 'assistant_text',
        uuid: id,
        at,
        messageId: id,
        text: scrubText(words).slice(0, 8000),
      });
      kept = true;
    }
    for (const c of Array.isArray(m['toolCalls']) ? m['toolCalls'] : []) {
      const call = rec(c);
      const callId = str(call['id']);
      const name = str(call['name']);
      if (callId === '' || name === '' || !FINISHED.has(str(call['status']))) continue;
      const callAt = timeOf(call['timestamp']) || at;
      if (!take(`call:${callId}`, callAt)) continue;
      const outcome = toolOutcome(name, callResult(call), call['status'] === 'error' ? 'failed' : '');
      const input = scrubAndLimit((engramToolInput(name, call['args']) ?? null) as never, LIMITS);
      parsed.entries.push({
        kind: 'tool_call',
        uuid: id,
        at: callAt,
        id: callId,
        name: engramToolName(name),
        input,
        result: {
          text: scrubResultText(outcome.ok ? resultTextOf(outcome.response) : outcome.error, input).slice(
            0,
            8000,
          ),
          isError: !outcome.ok,
          structured:
            outcome.ok && typeof outcome.response === 'object'
              ? scrubAndLimit(outcome.response, LIMITS, input)
              : null,
          uuid: id,
        },
        sidechain: false,
      });
      kept = true;
    }
    const tokens = rec(m['tokens']);
    if (Object.keys(tokens).length > 0 && take(`usage:${id}`, at)) {
      parsed.usage.push({
        messageId: id,
        model: str(m['model']),
        at,
        input: num(tokens['input']),
        output: num(tokens['output']),
        cacheRead: num(tokens['cached']),
        cacheWrite: 0,
      });
    }
    return kept;
  };

  const message = (value: unknown) => {
    const m = rec(value);
    const id = str(m['id']);
    const type = str(m['type']) || '?';
    const at = timeOf(m['timestamp']);
    if (id === '') return count(type, true);
    if (type === 'user') return count(type, !userMessage(m, id, at));
    if (type === 'gemini') return count(type, !modelMessage(m, id, at));
    count(type, true); // info, error, warning: the CLI's notes
  };

  const add = (value: unknown) => {
    const r = rec(value);
    if (isGeminiChatHeader(r)) {
      parsed.sessionId = str(r['sessionId']);
      return count('header', false);
    }
    if ('$set' in r) {
      const set = rec(r['$set']);
      const messages = Array.isArray(set['messages']) ? set['messages'] : [];
      count('$set', messages.length === 0);
      for (const m of messages) message(m);
      return;
    }
    message(r);
  };

  return {
    add,
    skip: (line: { type: string }) => count(line.type, true),
    result: (): ParsedTranscript => {
      parsed.chain = [...taken.values()].sort((a, b) => a.at - b.at).slice(-CHAIN_KEEP);
      return parsed;
    },
  };
}

function resultTextOf(response: unknown): string {
  if (typeof response === 'string') return response;
  return str(rec(response)['stdout']);
}
