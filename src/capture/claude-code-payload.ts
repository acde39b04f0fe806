/**
 * Claude Code hook payloads → engram's host-neutral CapturedEvent. Validates what it needs, tolerates
 * missing and unknown fields, and scrubs and caps every string before anything is kept.
 */
import type { CapturedEvent } from '../core/model.ts';
import type { NormaliseOptions, NormaliseResult } from './hosts/host-port.ts';
import { isSkippedTool, optNum, optStr, str, text } from './hosts/payload-fields.ts';
import { scrubAndLimit, type SizeLimits } from './limit-size.ts';

export type { NormalisedPayload, NormaliseOptions, NormaliseResult } from './hosts/host-port.ts';
export { isSkippedTool, MUST_SKIP_TOOLS } from './hosts/payload-fields.ts';

function toolFields(p: Record<string, unknown>, limits: SizeLimits) {
  return {
    tool: str(p['tool_name']),
    ...(optStr(p['tool_use_id']) ? { toolUseId: str(p['tool_use_id']) } : {}),
    input: scrubAndLimit(p['tool_input'] ?? null, limits),
    ...(optNum(p['duration_ms']) !== undefined ? { durationMs: optNum(p['duration_ms']) } : {}),
    ...(optStr(p['agent_id']) ? { agentId: str(p['agent_id']) } : {}),
  };
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
