/**
 * Claude Code hook payloads → engram's host-neutral CapturedEvent. Validates what it needs, tolerates
 * missing and unknown fields, and scrubs and caps every string before anything is kept.
 */
import type { CapturedEvent, Json } from '../core/model.ts';
import { scrubAndLimit, type SizeLimits } from './limit-size.ts';

export interface NormalisedPayload {
  hook: string;
  sessionId: string;
  cwd: string;
  transcriptPath: string | null;
  event: CapturedEvent;
}

export type NormaliseResult =
  | { ok: true; value: NormalisedPayload }
  | { ok: false; skip: true; reason: string }
  | { ok: false; skip: false; reason: string };

export interface NormaliseOptions extends SizeLimits {
  skipTools: readonly string[];
  /** Used when the payload has no cwd. */
  fallbackCwd: string;
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function optStr(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function optNum(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
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

function toolFields(p: Record<string, unknown>, limits: SizeLimits) {
  return {
    tool: str(p['tool_name']),
    ...(optStr(p['tool_use_id']) ? { toolUseId: str(p['tool_use_id']) } : {}),
    input: scrubAndLimit(p['tool_input'] ?? null, limits),
    ...(optNum(p['duration_ms']) !== undefined ? { durationMs: optNum(p['duration_ms']) } : {}),
    ...(optStr(p['agent_id']) ? { agentId: str(p['agent_id']) } : {}),
  };
}

function text(value: unknown, limits: SizeLimits): string {
  const out: Json = scrubAndLimit(str(value), limits);
  return typeof out === 'string' ? out : '';
}

/** Turn one parsed hook payload into a CapturedEvent, or say why it is skipped or rejected. */
export function normaliseClaudePayload(payload: unknown, options: NormaliseOptions): NormaliseResult {
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) {
    return { ok: false, skip: false, reason: 'payload is not a JSON object' };
  }
  const p = payload as Record<string, unknown>;
  const hook = str(p['hook_event_name']);
  const sessionId = str(p['session_id']);
  if (hook === '') return { ok: false, skip: false, reason: 'payload has no hook_event_name' };
  if (sessionId === '' || sessionId.length > 200) {
    return { ok: false, skip: false, reason: `${hook} payload has no usable session_id` };
  }
  const cwd = optStr(p['cwd']) ?? options.fallbackCwd;
  const transcriptPath = optStr(p['transcript_path']) ?? null;
  const limits: SizeLimits = options;
  let event: CapturedEvent;
  switch (hook) {
    case 'SessionStart':
      event = {
        kind: 'session_start',
        source: str(p['source']) || 'startup',
        ...(optStr(p['model']) ? { model: str(p['model']) } : {}),
      };
      break;
    case 'UserPromptSubmit':
      event = { kind: 'prompt', prompt: text(p['prompt'], limits) };
      break;
    case 'PostToolUse': {
      const tool = str(p['tool_name']);
      if (tool === '') return { ok: false, skip: false, reason: 'PostToolUse payload has no tool_name' };
      if (isSkippedTool(tool, options.skipTools))
        return { ok: false, skip: true, reason: `tool ${tool} is skipped` };
      event = {
        kind: 'tool',
        ...toolFields(p, limits),
        response: scrubAndLimit(p['tool_response'] ?? null, limits),
      };
      break;
    }
    case 'PostToolUseFailure': {
      const tool = str(p['tool_name']);
      if (tool === '')
        return { ok: false, skip: false, reason: 'PostToolUseFailure payload has no tool_name' };
      if (isSkippedTool(tool, options.skipTools))
        return { ok: false, skip: true, reason: `tool ${tool} is skipped` };
      event = {
        kind: 'tool_failure',
        ...toolFields(p, limits),
        error: text(p['error'], limits),
        interrupted: p['is_interrupt'] === true,
      };
      break;
    }
    case 'Stop':
      event = { kind: 'stop', lastMessage: text(p['last_assistant_message'], limits) };
      break;
    case 'SubagentStop':
      event = {
        kind: 'subagent_stop',
        agentId: str(p['agent_id']),
        agentType: str(p['agent_type']),
        lastMessage: text(p['last_assistant_message'], limits),
      };
      break;
    case 'PreCompact':
      event = {
        kind: 'pre_compact',
        trigger: str(p['trigger']) || 'auto',
        instructions: text(p['custom_instructions'], limits),
      };
      break;
    case 'PostCompact':
      event = {
        kind: 'post_compact',
        trigger: str(p['trigger']) || 'auto',
        summary: text(p['compact_summary'], limits),
      };
      break;
    case 'SessionEnd':
      event = { kind: 'session_end', reason: str(p['reason']) || 'other' };
      break;
    default:
      return { ok: false, skip: true, reason: `hook event ${hook} is not captured` };
  }
  return { ok: true, value: { hook, sessionId, cwd, transcriptPath, event } };
}
