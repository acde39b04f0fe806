/**
 * Codex CLI hook payloads → engram's CapturedEvent. Codex's payloads follow Claude Code's field names
 * (`hook_event_name`, `session_id`, `tool_name`, …) with its own differences: a tool's response is the
 * command's output as one string with no exit status, there is no failure event (a failing command is
 * a PostToolUse whose output says so; its exit code is in the rollout, which the worker reads), and
 * every turn carries a `turn_id`. Facts: docs/hosts.md.
 */
import type { CapturedEvent } from '../../../core/model.ts';
import { scrubAndLimit, type SizeLimits } from '../../limit-size.ts';
import type { NormaliseOptions, NormaliseResult } from '../host-port.ts';
import { claudeShapedEvent, optStr, readEnvelope, str, toolOf } from '../payload-fields.ts';

/** The Codex hook events engram registers (the verified ones, plus compaction from Codex's docs). */
export const CODEX_HOOK_EVENTS = [
  'SessionStart',
  'UserPromptSubmit',
  'PostToolUse',
  'Stop',
  'PreCompact',
  'PostCompact',
  'SessionEnd',
] as const;

function toolEvent(p: Record<string, unknown>, limits: SizeLimits): CapturedEvent {
  return {
    kind: 'tool',
    tool: str(p['tool_name']),
    ...(optStr(p['tool_use_id']) ? { toolUseId: str(p['tool_use_id']) } : {}),
    input: scrubAndLimit(p['tool_input'] ?? null, limits),
    response: scrubAndLimit(p['tool_response'] ?? null, limits, p['tool_input']),
  };
}

/** Turn one parsed Codex hook payload into a CapturedEvent, or say why it is skipped or rejected. */
export function normaliseCodexPayload(payload: unknown, options: NormaliseOptions): NormaliseResult {
  const envelope = readEnvelope(payload);
  if (!envelope.ok) return envelope;
  const { p, hook, sessionId } = envelope;
  const cwd = optStr(p['cwd']) ?? options.fallbackCwd;
  // The rollout: the worker reads it after each turn (`codex/rollout.ts`) for the user's words as typed,
  // the assistant's words between tool calls, and each command's exit code.
  const transcriptPath = optStr(p['transcript_path']) ?? null;
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
      event = toolEvent(p, options);
      break;
    }
    case 'PreCompact':
      event = { kind: 'pre_compact', trigger: str(p['trigger']) || 'auto', instructions: '' };
      break;
    case 'PostCompact':
      event = { kind: 'post_compact', trigger: str(p['trigger']) || 'auto', summary: '' };
      break;
    default: {
      const shared = claudeShapedEvent(hook, p, options);
      if (!shared) return { ok: false, skip: true, reason: `hook event ${hook} is not captured` };
      event = shared;
    }
  }
  return { ok: true, value: { hook, sessionId, cwd, transcriptPath, event } };
}
