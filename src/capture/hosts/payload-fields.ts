/**
 * Reading fields of a host's hook payload: tolerant of missing and mistyped values, and every kept
 * string scrubbed and size-capped. Shared by the adapters whose payloads are JSON objects.
 */
import type { CapturedEvent, Json } from '../../core/model.ts';
import { scrubAndLimit, type SizeLimits } from '../limit-size.ts';

export function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

export function optStr(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

export function optNum(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** A string field, scrubbed and capped ('' when it is not a string). */
export function text(value: unknown, limits: SizeLimits): string {
  const out: Json = scrubAndLimit(str(value), limits);
  return typeof out === 'string' ? out : '';
}

/** A command's output (or its failure's), scrubbed and capped with both ends kept (see limit-size). */
export function outputText(value: unknown, limits: SizeLimits): string {
  const out = scrubAndLimit({ output: str(value) }, limits) as { output?: unknown } | null;
  return typeof out?.output === 'string' ? out.output : '';
}

/**
 * Tools engram never captures whatever `capture.skipTools` says: its own MCP tools (registered by
 * `engram install`, or through the Claude Code plugin), so reading memory never becomes a memory.
 */
export const MUST_SKIP_TOOLS: readonly string[] = ['mcp__engram__*', 'mcp__plugin_engram_*'];

const matches = (tool: string, rule: string) =>
  rule.endsWith('*') ? tool.startsWith(rule.slice(0, -1)) : rule === tool;

/** `mcp__engram__*` matches by prefix; anything else must match exactly. The user's list adds to MUST_SKIP_TOOLS. */
export function isSkippedTool(tool: string, skipTools: readonly string[]): boolean {
  return MUST_SKIP_TOOLS.some((rule) => matches(tool, rule)) || skipTools.some((rule) => matches(tool, rule));
}

type Refusal = { ok: false; skip: boolean; reason: string };

/**
 * What every payload of the hosts that use Claude Code's field names carries: a JSON object with its
 * event (`hook_event_name`) and a usable `session_id`.
 */
export function readEnvelope(
  payload: unknown,
): { ok: true; p: Record<string, unknown>; hook: string; sessionId: string } | Refusal {
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload))
    return { ok: false, skip: false, reason: 'payload is not a JSON object' };
  const p = payload as Record<string, unknown>;
  const hook = str(p['hook_event_name']);
  const sessionId = str(p['session_id']);
  if (hook === '') return { ok: false, skip: false, reason: 'payload has no hook_event_name' };
  if (sessionId === '' || sessionId.length > 200)
    return { ok: false, skip: false, reason: `${hook} payload has no usable session_id` };
  return { ok: true, p, hook, sessionId };
}

/** A tool event's `tool_name`: refused when missing, skipped when the configuration says so. */
export function toolOf(
  p: Record<string, unknown>,
  hook: string,
  skipTools: readonly string[],
): { ok: true; tool: string } | Refusal {
  const tool = str(p['tool_name']);
  if (tool === '') return { ok: false, skip: false, reason: `${hook} payload has no tool_name` };
  if (isSkippedTool(tool, skipTools)) return { ok: false, skip: true, reason: `tool ${tool} is skipped` };
  return { ok: true, tool };
}

/**
 * The events whose fields are Claude Code's, in every host that copies its payloads (Claude Code, Codex,
 * Copilot CLI): the prompt, the end of a turn, compaction before and after, the session's end. null for
 * any other event (tool calls and the session start differ per host).
 */
export function claudeShapedEvent(
  hook: string,
  p: Record<string, unknown>,
  limits: SizeLimits,
): CapturedEvent | null {
  switch (hook) {
    case 'UserPromptSubmit':
      return { kind: 'prompt', prompt: text(p['prompt'], limits) };
    case 'Stop':
      return { kind: 'stop', lastMessage: text(p['last_assistant_message'], limits) };
    case 'PreCompact':
      return {
        kind: 'pre_compact',
        trigger: str(p['trigger']) || 'auto',
        instructions: text(p['custom_instructions'], limits),
      };
    case 'PostCompact':
      return {
        kind: 'post_compact',
        trigger: str(p['trigger']) || 'auto',
        summary: text(p['compact_summary'], limits),
      };
    case 'SessionEnd':
      return { kind: 'session_end', reason: str(p['reason']) || 'other' };
    default:
      return null;
  }
}
