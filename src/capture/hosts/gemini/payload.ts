/**
 * Gemini CLI hook payloads → engram's CapturedEvent. Gemini's payloads use Claude Code's envelope
 * (`hook_event_name`, `session_id`, `cwd`, `transcript_path`) with its own events: BeforeAgent is the
 * prompt, AfterTool every tool call (a failing command's exit status only in the result text),
 * AfterAgent the end of a turn. Two things it adds are not the user's or the agent's words: context a
 * hook gave at SessionStart arrives prepended to the prompt in `-p` mode (`<hook_context>…`), and
 * AfterAgent's `prompt_response` holds the answer with pieces of its streamed chunks after it — the
 * answer is read from the chat file instead. PreCompress fires before every model request (0.61.0),
 * with nothing compressed: it is not a compaction and is not captured. Facts: docs/hosts.md.
 */
import type { CapturedEvent } from '../../../core/model.ts';
import { scrubAndLimit, type SizeLimits } from '../../limit-size.ts';
import type { NormaliseOptions, NormaliseResult } from '../host-port.ts';
import { optStr, readEnvelope, outputText, str, text, toolOf } from '../payload-fields.ts';
import { lastAnswerOf } from './chat-tail.ts';
import { engramToolInput, engramToolName, GEMINI_SKIP_TOOLS, resultText, toolOutcome } from './tools.ts';

/** The Gemini hook events engram registers. */
export const GEMINI_HOOK_EVENTS = [
  'SessionStart',
  'BeforeAgent',
  'AfterTool',
  'AfterAgent',
  'SessionEnd',
] as const;

/** Context hooks gave the turn, as Gemini wraps it (its `<` and `>` are escaped, so none is inside). */
const HOOK_CONTEXT_LEAD = /^(?:\s*<hook_context>[^<]*<\/hook_context>)+\s*/;
const HOOK_CONTEXT_ANY = /<hook_context>[^<]*<\/hook_context>/g;

/** The user's words of a prompt: the hook context Gemini prepended (or appended) taken out. */
export function userPrompt(prompt: string): string {
  return prompt.replace(HOOK_CONTEXT_LEAD, '').replace(HOOK_CONTEXT_ANY, '').trim();
}

function errorText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value !== null && typeof value === 'object' && !Array.isArray(value))
    return str((value as Record<string, unknown>)['message']);
  return '';
}

function toolEvent(p: Record<string, unknown>, tool: string, limits: SizeLimits): CapturedEvent {
  const response = p['tool_response'];
  const r =
    response !== null && typeof response === 'object' && !Array.isArray(response)
      ? (response as Record<string, unknown>)
      : {};
  const body = typeof response === 'string' ? response : resultText(r['llmContent']);
  const outcome = toolOutcome(tool, body, errorText(r['error']));
  const name = engramToolName(tool);
  const input = scrubAndLimit((engramToolInput(tool, p['tool_input']) ?? null) as never, limits);
  return outcome.ok
    ? { kind: 'tool', tool: name, input, response: scrubAndLimit(outcome.response, limits, input) }
    : {
        kind: 'tool_failure',
        tool: name,
        input,
        error: outputText(outcome.error, limits),
        interrupted: false,
      };
}

/** Turn one parsed Gemini hook payload into a CapturedEvent, or say why it is skipped or rejected. */
export function normaliseGeminiPayload(payload: unknown, options: NormaliseOptions): NormaliseResult {
  const envelope = readEnvelope(payload);
  if (!envelope.ok) return envelope;
  const { p, hook, sessionId } = envelope;
  const cwd = optStr(p['cwd']) ?? options.fallbackCwd;
  // The chat file, read by the worker (hosts/transcript-readers picks the Gemini reader by its header).
  const transcriptPath = optStr(p['transcript_path']) ?? null;
  let event: CapturedEvent;
  switch (hook) {
    case 'SessionStart':
      event = { kind: 'session_start', source: str(p['source']) || 'startup' };
      break;
    case 'BeforeAgent':
      event = { kind: 'prompt', prompt: text(userPrompt(str(p['prompt'])), options) };
      break;
    case 'AfterTool': {
      const tool = toolOf(p, hook, [...options.skipTools, ...GEMINI_SKIP_TOOLS]);
      if (!tool.ok) return tool;
      event = toolEvent(p, tool.tool, options);
      break;
    }
    case 'AfterAgent': {
      // The chat file holds the answer exactly; the payload's copy only when the file cannot be read.
      const answer = (transcriptPath ? lastAnswerOf(transcriptPath) : null) ?? str(p['prompt_response']);
      event = { kind: 'stop', lastMessage: text(answer, options) };
      break;
    }
    case 'SessionEnd':
      event = { kind: 'session_end', reason: str(p['reason']) || 'other' };
      break;
    default:
      return { ok: false, skip: true, reason: `hook event ${hook} is not captured` };
  }
  return { ok: true, value: { hook, sessionId, cwd, transcriptPath, event } };
}
