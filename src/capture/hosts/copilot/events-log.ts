/**
 * Copilot CLI's session log (`$COPILOT_HOME/session-state/<session id>/events.jsonl`: JSON lines
 * `{type, data, id, timestamp, parentId}`) → engram's host-neutral transcript entries, the same
 * `ParsedTranscript` Claude Code's reader gives: the user's words (`user.message` `content`, never the
 * `transformedContent` that carries injected context), the assistant's words and tool requests
 * (`assistant.message`), each call paired with its `tool.execution_complete` (a shell command's exit
 * code read as Claude Code reports a failing one), and token usage (`session.usage_record`). Hook,
 * system and turn records carry nothing engram keeps: counted, skipped. Copilot's log has no rewinds.
 * Every string is scrubbed here.
 */
import { scrubText } from '../../../core/scrub.ts';
import type { TranscriptEntry } from '../../../core/transcript.ts';
import { scrubAndLimit, scrubResultText } from '../../limit-size.ts';
import type { SkippedLine } from '../../transcript/read-jsonl.ts';
import { countRecord, emptyParsed, type ParsedTranscript } from '../../transcript/parsed-transcript.ts';
import { shellRun } from './payload.ts';
import { copilotToolInput, copilotToolName } from './tools.ts';

const LIMITS = { maxFieldChars: 8000, maxEventBytes: 65_536 };
const MAX_TEXT = 8000;

const rec = (value: unknown): Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
const str = (value: unknown): string => (typeof value === 'string' ? value : '');
const num = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

/** Whether a transcript path is a Copilot session log (`…/session-state/<id>/events.jsonl`). */
export function isCopilotEventsLog(path: string): boolean {
  return /(?:^|[\\/])session-state[\\/][^\\/]+[\\/]events\.jsonl$/.test(path);
}

type ToolCall = Extract<TranscriptEntry, { kind: 'tool_call' }>;

/** Incremental, like Claude Code's reader: `context` is the previous read's tail (a result can pair with a call in it). */
export function createCopilotEventsParser(context: readonly TranscriptEntry[] = []) {
  const parsed = emptyParsed();
  const calls = new Map<string, ToolCall>();
  for (const e of context) if (e.kind === 'tool_call' && !e.result) calls.set(e.id, e);

  const count = (type: string, skipped: boolean) => countRecord(parsed, type, skipped);

  const assistantMessage = (d: Record<string, unknown>, uuid: string, at: number): boolean => {
    let kept = false;
    const text = str(d['content']).trim();
    if (text !== '') {
      const messageId = str(d['messageId']) || uuid;
      parsed.entries.push({
        kind: 'assistant_text',
        uuid,
        at,
        messageId,
        text: scrubText(text).slice(0, MAX_TEXT),
      });
      kept = true;
    }
    for (const request of Array.isArray(d['toolRequests']) ? d['toolRequests'] : []) {
      const r = rec(request);
      const id = str(r['toolCallId']);
      if (id === '') continue;
      const name = copilotToolName(str(r['name']) || 'unknown');
      const call: ToolCall = {
        kind: 'tool_call',
        uuid,
        at,
        id,
        name,
        input: scrubAndLimit(copilotToolInput(name, r['arguments']), LIMITS),
        result: null,
        sidechain: false,
      };
      calls.set(id, call);
      parsed.entries.push(call);
      kept = true;
    }
    return kept;
  };

  const toolComplete = (d: Record<string, unknown>, uuid: string): boolean => {
    const call = calls.get(str(d['toolCallId']));
    if (!call || call.result) return false;
    calls.delete(call.id);
    const raw = str(rec(d['result'])['content']) || str(rec(d['error'])['message']);
    const run = shellRun(raw);
    const exitCode = run ? run.exitCode : num(rec(d['shellExecution'])['exitCode']);
    const failed = d['success'] === false || exitCode !== 0;
    const output = run ? run.output : raw;
    call.result = {
      text: scrubResultText(
        (failed && run ? `Exit code ${exitCode}\n${output}` : output).slice(0, MAX_TEXT),
        call.input,
      ),
      isError: failed,
      structured: run ? scrubAndLimit({ stdout: output, stderr: '', interrupted: false }, LIMITS) : null,
      uuid,
    };
    return true;
  };

  function add(value: unknown): void {
    const r = rec(value);
    const type = str(r['type']) || 'unknown';
    const d = rec(r['data']);
    const uuid = str(r['id']);
    const t = Date.parse(str(r['timestamp']));
    const at = Number.isFinite(t) ? t : 0;
    let kept = false;
    switch (type) {
      case 'session.start':
      case 'session.resume': {
        parsed.sessionId ??= str(d['sessionId']) || null;
        const cwd = str(rec(d['context'])['cwd']);
        if (cwd !== '') parsed.cwd ??= cwd;
        kept = true;
        break;
      }
      case 'user.message': {
        const text = str(d['content']).trim();
        if (text !== '') {
          parsed.entries.push({ kind: 'prompt', uuid, at, text: scrubText(text).slice(0, MAX_TEXT) });
          kept = true;
        }
        break;
      }
      case 'assistant.message':
        kept = assistantMessage(d, uuid, at);
        break;
      case 'tool.execution_complete':
        kept = toolComplete(d, uuid);
        break;
      case 'session.usage_record': {
        const u = rec(d['usage']);
        parsed.usage.push({
          messageId: uuid,
          model: str(u['model']) || 'unknown',
          at,
          input: num(u['inputTokens']),
          output: num(u['outputTokens']),
          cacheRead: num(u['cacheReadTokens']),
          cacheWrite: num(u['cacheWriteTokens']),
        });
        kept = true;
        break;
      }
    }
    count(type, !kept);
  }

  return {
    add,
    skip: (line: SkippedLine) => count(line.type, true),
    result: (): ParsedTranscript => parsed,
  };
}
