/**
 * Codex CLI's rollout files (`$CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<session id>.jsonl`: JSON
 * lines `{timestamp, type, payload}`) → engram's host-neutral transcript entries, the same
 * `ParsedTranscript` Claude Code's reader gives. Read: `session_meta` (the session id and cwd), the user's
 * words as typed (`item_completed` UserMessage, the older `user_message` event — never the
 * `response_item` user messages, which also carry Codex's environment context and AGENTS.md), the
 * assistant's words (`response_item` messages of role `assistant`), each tool call (`function_call`,
 * `custom_tool_call`, `local_shell_call`) paired with its output and judged by its exit code (see
 * `rollout-tools.ts`), compaction (`compacted`: a boundary and Codex's summary), an interrupted turn
 * (`turn_aborted`), and token usage (`token_usage_record`, else the older `token_count`). Developer
 * messages (instructions, hook context), reasoning, turn context and world state carry nothing engram
 * keeps: counted, skipped. Every string is scrubbed here.
 */
import { scrubText } from '../../../core/scrub.ts';
import type { ChainLink, TranscriptEntry } from '../../../core/transcript.ts';
import { scrubAndLimit } from '../../limit-size.ts';
import type { SkippedLine } from '../../transcript/read-jsonl.ts';
import { countRecord, emptyParsed, type ParsedTranscript } from '../../transcript/parsed-transcript.ts';
import { codexCalls, commandEnd, readOutput } from './rollout-tools.ts';

const LIMITS = { maxFieldChars: 8000, maxEventBytes: 65_536 };
const MAX_TEXT = 8000;
/** The chain link that says this file has `token_usage_record`s (its `token_count` events then repeat them). */
const USAGE_RECORDS = 'codex:usage-records';

const rec = (value: unknown): Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
const str = (value: unknown): string => (typeof value === 'string' ? value : '');
const num = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

/** The start of a rollout's first line, as Codex writes it (`ordinal` since 0.17x). */
const ROLLOUT_HEAD = /^\{"timestamp":"[^"]*",(?:"ordinal":\d+,)?"type":"session_meta"/;

/** Whether a transcript is a Codex rollout: by its name (`rollout-….jsonl`) or its first line's start. */
export function isCodexRollout(path: string, firstLine: string): boolean {
  return /(?:^|[\\/])rollout-[^\\/]*\.jsonl$/.test(path) || ROLLOUT_HEAD.test(firstLine);
}

/** The session id a rollout's name ends with (`rollout-2026-11-27T17-14-38-<uuid>.jsonl`), or null. */
export function rolloutSessionId(path: string): string | null {
  return (
    /rollout-.*?([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/i.exec(path)?.[1] ??
    null
  );
}

/** Lines never worth parsing: the world state (large, repeated each turn). */
export function peekCodexLine(line: string): SkippedLine | null {
  return /^\{"timestamp":"[^"]*",(?:"ordinal":\d+,)?"type":"world_state"/.test(line)
    ? { type: 'world_state' }
    : null;
}

/** The text of a message's content blocks (`input_text`, `output_text`, `text`, `Text`). */
function blocksText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((b) => str(rec(b)['text']))
    .filter(Boolean)
    .join('\n');
}

type ToolCall = Extract<TranscriptEntry, { kind: 'tool_call' }>;
const text = (s: string) => scrubText(s.slice(0, MAX_TEXT + 1024)).slice(0, MAX_TEXT);

/** Incremental, like Claude Code's reader: `context` is the previous read's tail (an output can pair with a call in it). */
export function createCodexRolloutParser(
  context: readonly TranscriptEntry[] = [],
  chain: readonly ChainLink[] = [],
) {
  const parsed = emptyParsed(chain);
  /** Calls waiting for their output, by Codex's call id (one Codex call may be several entries). */
  const calls = new Map<string, ToolCall[]>();
  const baseId = (id: string) => id.replace(/#\d+$/, '');
  for (const e of context)
    if (e.kind === 'tool_call' && !e.result) calls.set(baseId(e.id), [...(calls.get(baseId(e.id)) ?? []), e]);
  /** Exit status recorded with a command's end, waiting for its output. */
  const ends = new Map<string, { exitCode: number | null; failed: boolean }>();
  /** Calls settled in this read, with their output (an end recorded after the output still counts). */
  const settled = new Map<
    string,
    { calls: ToolCall[]; output: ReturnType<typeof readOutput>; uuid: string }
  >();
  let usageRecords = chain.some((l) => l.uuid === USAGE_RECORDS);
  let model = 'unknown';
  let cwd = '';
  let lastPrompt: { text: string; at: number } | null = null;

  const count = (type: string, skipped: boolean) => countRecord(parsed, type, skipped);

  const prompt = (words: string, uuid: string, at: number): boolean => {
    const typed = words.trim();
    if (typed === '') return false;
    // The same words told twice (a newer and an older event for one message).
    if (lastPrompt && lastPrompt.text === typed && Math.abs(at - lastPrompt.at) < 5000) return false;
    lastPrompt = { text: typed, at };
    parsed.entries.push({ kind: 'prompt', uuid, at, text: text(typed) });
    return true;
  };

  /** A call's result, from its output and the exit status recorded with the command's end. */
  const settle = (call: ToolCall, output: ReturnType<typeof readOutput>, uuid: string) => {
    const end = ends.get(baseId(call.id));
    const exitCode = end?.exitCode ?? output.exitCode;
    const failed = (exitCode !== null && exitCode !== 0) || output.failed || end?.failed === true;
    const shell = call.name === 'Bash';
    call.result = {
      text: text(
        failed && exitCode !== null && exitCode !== 0 ? `Exit code ${exitCode}\n${output.text}` : output.text,
      ),
      isError: failed,
      structured: shell
        ? scrubAndLimit({ stdout: output.text, stderr: '', interrupted: false }, LIMITS)
        : null,
      uuid,
    };
  };

  const toolCall = (p: Record<string, unknown>, uuid: string, at: number): boolean => {
    const id = str(p['call_id']) || str(p['id']);
    if (id === '') return false;
    const name = str(p['type']) === 'local_shell_call' ? 'local_shell' : str(p['name']) || 'unknown';
    const args = str(p['type']) === 'local_shell_call' ? rec(p['action']) : (p['arguments'] ?? p['input']);
    const made = codexCalls(name, args, cwd).map((c, i): ToolCall => ({
      kind: 'tool_call',
      uuid,
      at,
      id: i === 0 ? id : `${id}#${i}`,
      name: c.name,
      input: scrubAndLimit(c.input ?? null, LIMITS),
      result: null,
      sidechain: false,
    }));
    calls.set(id, made);
    settled.delete(id); // a call id used again (the end recorded next is this call's)
    parsed.entries.push(...made);
    return true;
  };

  const toolOutput = (p: Record<string, unknown>, uuid: string): boolean => {
    const id = str(p['call_id']);
    const waiting = calls.get(id);
    if (!waiting) return false;
    calls.delete(id);
    const output = readOutput(p['output']);
    for (const call of waiting) settle(call, output, uuid);
    ends.delete(id);
    settled.set(id, { calls: waiting, output, uuid });
    return true;
  };

  const responseItem = (p: Record<string, unknown>, uuid: string, at: number): boolean => {
    switch (str(p['type'])) {
      case 'message': {
        if (str(p['role']) !== 'assistant') return false; // user: typed words come from events; developer: instructions
        const words = blocksText(p['content']).trim();
        if (words === '') return false;
        parsed.entries.push({
          kind: 'assistant_text',
          uuid,
          at,
          messageId: str(p['id']) || uuid,
          text: text(words),
        });
        return true;
      }
      case 'function_call':
      case 'custom_tool_call':
      case 'local_shell_call':
        return toolCall(p, uuid, at);
      case 'function_call_output':
      case 'custom_tool_call_output':
        return toolOutput(p, uuid);
      default:
        return false; // reasoning, web search, compaction items: nothing engram keeps
    }
  };

  const eventMsg = (p: Record<string, unknown>, uuid: string, at: number): boolean => {
    const end = commandEnd(p);
    if (end) {
      ends.set(end.callId, { exitCode: end.exitCode, failed: end.failed });
      const done = settled.get(end.callId);
      if (done) {
        // The output came first: judge it again with the exit code.
        for (const call of done.calls) settle(call, done.output, done.uuid);
        ends.delete(end.callId);
        settled.delete(end.callId);
      }
      return true;
    }
    switch (str(p['type'])) {
      case 'item_completed': {
        const item = rec(p['item']);
        return str(item['type']) === 'UserMessage' ? prompt(blocksText(item['content']), uuid, at) : false;
      }
      case 'user_message':
        return prompt(str(p['message']), uuid, at);
      case 'turn_aborted':
        if (str(p['reason']) !== 'interrupted') return false;
        parsed.entries.push({ kind: 'interrupt', uuid, at });
        return true;
      case 'token_count': {
        if (usageRecords) return false;
        const u = rec(rec(p['info'])['last_token_usage']);
        if (Object.keys(u).length === 0) return false;
        parsed.usage.push({
          messageId: uuid,
          model,
          at,
          input: num(u['input_tokens']) - num(u['cached_input_tokens']),
          output: num(u['output_tokens']),
          cacheRead: num(u['cached_input_tokens']),
          cacheWrite: 0,
        });
        return true;
      }
      default:
        return false; // agent_message repeats the response item; task and token events carry nothing new
    }
  };

  function add(value: unknown): void {
    const r = rec(value);
    const type = str(r['type']) || 'unknown';
    const p = rec(r['payload']);
    const t = Date.parse(str(r['timestamp']));
    const at = Number.isFinite(t) ? t : 0;
    const ordinal = r['ordinal'];
    const uuid =
      typeof ordinal === 'number'
        ? `codex:${ordinal}`
        : str(p['id']) || str(p['call_id']) || `codex:${str(r['timestamp'])}`;
    let kept = false;
    switch (type) {
      case 'session_meta': {
        parsed.sessionId ??= str(p['id']) || str(p['session_id']) || null;
        cwd = str(p['cwd']) || cwd;
        if (cwd !== '') parsed.cwd ??= cwd;
        kept = true;
        break;
      }
      case 'turn_context':
        model = str(p['model']) || model;
        cwd = str(p['cwd']) || cwd;
        // A later read of a resumed session starts past `session_meta`: each turn names its cwd.
        if (cwd !== '') parsed.cwd ??= cwd;
        break;
      case 'response_item':
        kept = responseItem(p, uuid, at);
        break;
      case 'event_msg':
        kept = eventMsg(p, uuid, at);
        break;
      case 'compacted': {
        parsed.entries.push({ kind: 'compact_boundary', uuid, at });
        const summary = str(p['message']).trim();
        if (summary !== '') parsed.entries.push({ kind: 'compact_summary', uuid, at, text: text(summary) });
        kept = true;
        break;
      }
      case 'token_usage_record': {
        const u = rec(p['usage']);
        if (!usageRecords) {
          usageRecords = true;
          parsed.chain.push({ uuid: USAGE_RECORDS, parent: null, at, entry: false });
        }
        parsed.usage.push({
          messageId: str(p['response_id']) || uuid,
          model,
          at,
          input: num(u['input_tokens']) - num(u['cached_input_tokens']),
          output: num(u['output_tokens']),
          cacheRead: num(u['cached_input_tokens']),
          cacheWrite: num(u['cache_write_input_tokens']),
        });
        kept = true;
        break;
      }
    }
    count(
      type === 'event_msg' || type === 'response_item' ? `${type}:${str(p['type']) || '?'}` : type,
      !kept,
    );
  }

  return {
    add,
    skip: (line: SkippedLine) => count(line.type, true),
    result: (): ParsedTranscript => parsed,
  };
}
