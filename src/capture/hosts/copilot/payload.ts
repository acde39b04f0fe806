/**
 * GitHub Copilot CLI hook payloads → engram's CapturedEvent. Copilot fires each event under two names:
 * a camelCase one (`postToolUse`) whose payload has camelCase fields and no event name, and a PascalCase
 * one (`PostToolUse`) whose payload follows Claude Code's field names (`hook_event_name`, `session_id`,
 * `tool_name`, `tool_input`) with Copilot's own result (`tool_result: {result_type,
 * text_result_for_llm}`). engram registers the PascalCase names, so every payload says its event.
 * A shell command that exits non-zero is still PostToolUse: its exit status is only in the trailing
 * `<shellId: N completed with exit code X>` of the text, read here into Claude Code's shapes (a
 * `tool_failure` whose error starts "Exit code X", like Claude Code's). Facts: docs/hosts.md.
 */
import type { CapturedEvent } from '../../../core/model.ts';
import { scrubAndLimit, type SizeLimits } from '../../limit-size.ts';
import type { NormaliseOptions, NormaliseResult } from '../host-port.ts';
import { claudeShapedEvent, optStr, readEnvelope, outputText, str, toolOf } from '../payload-fields.ts';
import { COPILOT_SKIP_TOOLS, copilotToolInput, copilotToolName } from './tools.ts';

/** The Copilot hook events engram registers (the verified PascalCase names, plus PreCompact from the docs). */
export const COPILOT_HOOK_EVENTS = [
  'SessionStart',
  'UserPromptSubmit',
  'PostToolUse',
  'PostToolUseFailure',
  'Stop',
  'PreCompact',
  'SessionEnd',
] as const;

/** The line Copilot's shell tool appends to a command's output. */
const SHELL_END = /\n?<shellId: [^>\n]* completed with exit code (-?\d+)>\s*$/;

/** A shell run's output and exit code out of Copilot's result text; null for any other result. */
export function shellRun(resultText: string): { output: string; exitCode: number } | null {
  const end = SHELL_END.exec(resultText);
  if (!end) return null;
  return { output: resultText.slice(0, end.index), exitCode: Number(end[1]) };
}

function resultText(p: Record<string, unknown>): string {
  const r = p['tool_result'];
  if (r !== null && typeof r === 'object' && !Array.isArray(r))
    return str((r as Record<string, unknown>)['text_result_for_llm']);
  return str(r);
}

function toolEvent(p: Record<string, unknown>, tool: string, limits: SizeLimits): CapturedEvent {
  const input = scrubAndLimit(copilotToolInput(tool, p['tool_input']), limits);
  const raw = resultText(p);
  const run = shellRun(raw);
  if (run && run.exitCode !== 0)
    return {
      kind: 'tool_failure',
      tool,
      input,
      error: outputText(`Exit code ${run.exitCode}\n${run.output}`, limits),
      interrupted: false,
    };
  return {
    kind: 'tool',
    tool,
    input,
    response: run
      ? scrubAndLimit({ stdout: run.output, stderr: '', interrupted: false }, limits)
      : scrubAndLimit(raw, limits, input),
  };
}

/** Copilot's start sources (`new`, `resume`) in Claude Code's words, which the context renderer reads. */
const startSource = (source: string): string => (source === 'new' || source === '' ? 'startup' : source);

/** Turn one parsed Copilot hook payload into a CapturedEvent, or say why it is skipped or rejected. */
export function normaliseCopilotPayload(payload: unknown, options: NormaliseOptions): NormaliseResult {
  const envelope = readEnvelope(payload);
  if (!envelope.ok) return envelope;
  const { p, hook, sessionId } = envelope;
  const cwd = optStr(p['cwd']) ?? options.fallbackCwd;
  // Only Stop names the session's events.jsonl; the worker reads it after the turn.
  const transcriptPath = optStr(p['transcript_path']) ?? null;
  let event: CapturedEvent;
  switch (hook) {
    case 'SessionStart':
      event = { kind: 'session_start', source: startSource(str(p['source'])) };
      break;
    case 'PostToolUse': {
      const tool = toolOf(p, hook, [...options.skipTools, ...COPILOT_SKIP_TOOLS]);
      if (!tool.ok) return tool;
      event = toolEvent(p, copilotToolName(tool.tool), options);
      break;
    }
    case 'PostToolUseFailure': {
      const tool = toolOf(p, hook, [...options.skipTools, ...COPILOT_SKIP_TOOLS]);
      if (!tool.ok) return tool;
      const name = copilotToolName(tool.tool);
      event = {
        kind: 'tool_failure',
        tool: name,
        input: scrubAndLimit(copilotToolInput(name, p['tool_input']), options),
        error: outputText(optStr(p['error']) ?? resultText(p), options),
        interrupted: false,
      };
      break;
    }
    default: {
      // Copilot's Stop carries no last message: the worker reads it from events.jsonl.
      const shared = claudeShapedEvent(hook, p, options);
      if (!shared) return { ok: false, skip: true, reason: `hook event ${hook} is not captured` };
      event = shared;
    }
  }
  return { ok: true, value: { hook, sessionId, cwd, transcriptPath, event } };
}
