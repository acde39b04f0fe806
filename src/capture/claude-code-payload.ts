/**
 * Claude Code hook payloads → engram's host-neutral CapturedEvent. Validates what it needs, tolerates
 * missing and unknown fields, and scrubs and caps every string before anything is kept.
 */
import type { CapturedEvent } from '../core/model.ts';
import type { NormaliseOptions, NormaliseResult } from './hosts/host-port.ts';
import {
  claudeShapedEvent,
  optNum,
  optStr,
  readEnvelope,
  str,
  outputText,
  text,
  toolOf,
} from './hosts/payload-fields.ts';
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
  const envelope = readEnvelope(payload);
  if (!envelope.ok) return envelope;
  const { p, hook, sessionId } = envelope;
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
    case 'PostToolUse': {
      const tool = toolOf(p, hook, options.skipTools);
      if (!tool.ok) return tool;
      event = {
        kind: 'tool',
        ...toolFields(p, limits),
        response: scrubAndLimit(p['tool_response'] ?? null, limits, p['tool_input']),
      };
      break;
    }
    case 'PostToolUseFailure': {
      const tool = toolOf(p, hook, options.skipTools);
      if (!tool.ok) return tool;
      event = {
        kind: 'tool_failure',
        ...toolFields(p, limits),
        error: outputText(p['error'], limits),
        interrupted: p['is_interrupt'] === true,
      };
      break;
    }
    case 'SubagentStop':
      event = {
        kind: 'subagent_stop',
        agentId: str(p['agent_id']),
        agentType: str(p['agent_type']),
        lastMessage: text(p['last_assistant_message'], limits),
      };
      break;
    default: {
      const shared = claudeShapedEvent(hook, p, limits);
      if (!shared) return { ok: false, skip: true, reason: `hook event ${hook} is not captured` };
      event = shared;
    }
  }
  return { ok: true, value: { hook, sessionId, cwd, transcriptPath, event } };
}
