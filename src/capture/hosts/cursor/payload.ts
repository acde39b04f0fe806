/**
 * Cursor's agent hook payloads → engram's CapturedEvent. Cursor names its events in camelCase
 * (`sessionStart`, `beforeSubmitPrompt`, `postToolUse`, `postToolUseFailure`, `stop`, `preCompact`,
 * `sessionEnd`), carries the conversation as `conversation_id` (`session_id` too, the same id), the
 * project as `workspace_roots` (a tool event's `cwd` may be empty), a tool's result as `tool_output`, a
 * JSON-encoded string (a shell command's `output` and `exitCode`), and its tools under its own names
 * (`Shell`, `Read`, `Write`, `StrReplace`, `Grep`, `Delete`, `Task`, `MCP:<tool>`). Its `stop` says how
 * the loop ended, never the last answer. The transcript path it may send is not handed on: engram has
 * no reader for Cursor's transcripts. Facts: docs/hosts.md (from Cursor's documentation, not a run).
 */
import type { CapturedEvent, Json } from '../../../core/model.ts';
import { scrubAndLimit, type SizeLimits } from '../../limit-size.ts';
import type { NormaliseOptions, NormaliseResult } from '../host-port.ts';
import { optNum, optStr, readEnvelope, outputText, str, text, toolOf } from '../payload-fields.ts';

/** The Cursor hook events engram registers. */
export const CURSOR_HOOK_EVENTS = [
  'sessionStart',
  'beforeSubmitPrompt',
  'postToolUse',
  'postToolUseFailure',
  'stop',
  'preCompact',
  'sessionEnd',
] as const;

/** Cursor's tool names → engram's (Claude Code's); the others (`Read`, `Write`, `Grep`, …) are the same. */
const TOOL_NAMES: Readonly<Record<string, string>> = { Shell: 'Bash', StrReplace: 'Edit' };

/**
 * MCP tools: Cursor names them `MCP:<tool>`, without the server, so engram's own (reading memory must
 * never become a memory) cannot be told from another server's: none is captured.
 */
const MCP_TOOLS = ['MCP:*'];

const isRecord = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/** A `tool_output` string read as JSON when it is JSON, else kept as text. */
function output(value: unknown): unknown {
  if (typeof value !== 'string') return value ?? null;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

function toolEvent(p: Record<string, unknown>, tool: string, limits: SizeLimits): CapturedEvent {
  const input = scrubAndLimit((p['tool_input'] ?? null) as Json, limits);
  const result = output(p['tool_output']);
  if (tool === 'Bash' && isRecord(result)) {
    // `output` as the CLI sends it, `stdout` as the documentation's example has it.
    const said = str(result['output']) || str(result['stdout']);
    const code = optNum(result['exitCode']);
    if (code !== undefined && code !== 0)
      return {
        kind: 'tool_failure',
        tool,
        input,
        error: outputText(`Exit code ${code}\n${said}`, limits),
        interrupted: false,
      };
    return {
      kind: 'tool',
      tool,
      input,
      response: scrubAndLimit({ stdout: said, stderr: '', interrupted: false }, limits),
    };
  }
  return { kind: 'tool', tool, input, response: scrubAndLimit((result ?? null) as Json, limits, input) };
}

/** Turn one parsed Cursor hook payload into a CapturedEvent, or say why it is skipped or rejected. */
export function normaliseCursorPayload(payload: unknown, options: NormaliseOptions): NormaliseResult {
  // The conversation is the session (`stop` names only the conversation).
  const envelope = readEnvelope(
    isRecord(payload)
      ? { ...payload, session_id: payload['conversation_id'] ?? payload['session_id'] }
      : payload,
  );
  if (!envelope.ok) return envelope;
  const { p, hook, sessionId } = envelope;
  const roots = Array.isArray(p['workspace_roots']) ? p['workspace_roots'] : [];
  const cwd = optStr(p['cwd']) ?? optStr(roots[0]) ?? options.fallbackCwd;
  let event: CapturedEvent;
  switch (hook) {
    case 'sessionStart':
      // Cursor says no more of a start (no resume or clear): each conversation starts one session.
      event = { kind: 'session_start', source: 'startup' };
      break;
    case 'beforeSubmitPrompt':
      event = { kind: 'prompt', prompt: text(p['prompt'], options) };
      break;
    case 'postToolUse':
    case 'postToolUseFailure': {
      const tool = toolOf(p, hook, [...options.skipTools, ...MCP_TOOLS]);
      if (!tool.ok) return tool;
      const name = TOOL_NAMES[tool.tool] ?? tool.tool;
      event =
        hook === 'postToolUse'
          ? toolEvent(p, name, options)
          : {
              kind: 'tool_failure',
              tool: name,
              input: scrubAndLimit((p['tool_input'] ?? null) as Json, options),
              error: outputText(str(p['error_message']) || str(p['failure_type']) || 'failed', options),
              interrupted: p['is_interrupt'] === true,
            };
      break;
    }
    case 'stop':
      event = { kind: 'stop', lastMessage: '' };
      break;
    case 'preCompact':
      event = { kind: 'pre_compact', trigger: str(p['trigger']) || 'auto', instructions: '' };
      break;
    case 'sessionEnd':
      event = { kind: 'session_end', reason: str(p['reason']) || 'other' };
      break;
    default:
      return { ok: false, skip: true, reason: `hook event ${hook} is not captured` };
  }
  return { ok: true, value: { hook, sessionId, cwd, transcriptPath: null, event } };
}
