/**
 * The payloads engram's opencode plugin sends (`plugin-source.ts`) → engram's CapturedEvent. opencode
 * has no hook commands: the plugin, running inside opencode, turns its callbacks and bus events into
 * one JSON payload each, in Claude Code's envelope (`hook_event_name`, `session_id`, `cwd`) with
 * opencode's own data beside it, and pipes it to `engram hook --host opencode`:
 *
 * - SessionStart: bus `session.created` (or the first `chat.message` of a session seen before it);
 * - UserPromptSubmit: `chat.message`, `parts` as opencode gives them (the user's text parts, and
 *   synthetic parts opencode adds for attachments and commands, left out here);
 * - PostToolUse: `tool.execute.after` (`tool_name`, `tool_input` = the tool's args, `tool_output` =
 *   `{title, output, metadata}`); PostToolUseFailure: a tool part that ended in `error` (bus
 *   `message.part.updated`, `error` its message), for a call that never reached `tool.execute.after`;
 * - Stop: bus `session.idle`, `last_assistant_message` = the last finished text part of the turn
 *   (`experimental.text.complete`);
 * - PreCompact: `experimental.session.compacting`; PostCompact: bus `session.compacted`;
 * - SessionEnd: the plugin's `dispose` (opencode shutting down: `reason` "exit") or bus
 *   `session.deleted` (`reason` "deleted").
 *
 * Facts about opencode: docs/hosts.md; the recorded events: test/fixtures/hosts/opencode/.
 */
import type * as OsModule from 'node:os';
import { isAbsolute, join } from 'node:path';
import type { CapturedEvent } from '../../../core/model.ts';
import { scrubAndLimit, type SizeLimits } from '../../limit-size.ts';
import type { NormaliseOptions, NormaliseResult } from '../host-port.ts';
import { optStr, readEnvelope, outputText, str, text, toolOf } from '../payload-fields.ts';
import { engramToolInput, engramToolName, isRecord, OPENCODE_SKIP_TOOLS, toolOutcome } from './tools.ts';

/** The events engram's plugin sends, in Claude Code's names. */
export const OPENCODE_HOOK_EVENTS = [
  'SessionStart',
  'UserPromptSubmit',
  'PostToolUse',
  'PostToolUseFailure',
  'Stop',
  'PreCompact',
  'PostCompact',
  'SessionEnd',
] as const;

type Env = Readonly<Record<string, string | undefined>>;

/** opencode's data folder, which holds its session store `opencode.db` (its own resolution, 1.18.33). */
export function opencodeDataDir(env: Env, home: string): string {
  return join(env['XDG_DATA_HOME'] || join(home, '.local', 'share'), 'opencode');
}

/**
 * The session store of the opencode that started this hook (the plugin passes opencode's environment
 * on), or null when it cannot be located. The worker writes the session's log from it at the turn's end.
 */
function storeOf(env: Env | undefined): string | null {
  if (!env) return null;
  // `node:os` only without $HOME: loading it costs every hook ~1 M instructions.
  const home = env['HOME'] || (process.getBuiltinModule('node:os') as typeof OsModule).homedir();
  const dir = opencodeDataDir(env, home);
  return isAbsolute(dir) ? join(dir, 'opencode.db') : null;
}

/** The user's words of a prompt: its text parts, without those opencode made up itself. */
export function promptText(parts: unknown): string {
  if (!Array.isArray(parts)) return '';
  return parts
    .filter((p) => isRecord(p) && p['type'] === 'text' && p['synthetic'] !== true && p['ignored'] !== true)
    .map((p) => str((p as Record<string, unknown>)['text']))
    .filter((t) => t !== '')
    .join('\n');
}

function toolEvent(p: Record<string, unknown>, tool: string, limits: SizeLimits): CapturedEvent {
  const out = isRecord(p['tool_output']) ? p['tool_output'] : {};
  const outcome = toolOutcome(tool, str(out['output']), out['metadata']);
  const name = engramToolName(tool);
  const input = scrubAndLimit((engramToolInput(p['tool_input']) ?? null) as never, limits);
  const toolUseId = optStr(p['tool_call_id']);
  const id = toolUseId ? { toolUseId } : {};
  return outcome.ok
    ? { kind: 'tool', tool: name, ...id, input, response: scrubAndLimit(outcome.response, limits, input) }
    : {
        kind: 'tool_failure',
        tool: name,
        ...id,
        input,
        error: outputText(outcome.error, limits),
        interrupted: false,
      };
}

/** Turn one payload of engram's opencode plugin into a CapturedEvent, or say why it is skipped or rejected. */
export function normaliseOpencodePayload(payload: unknown, options: NormaliseOptions): NormaliseResult {
  const envelope = readEnvelope(payload);
  if (!envelope.ok) return envelope;
  const { p, hook, sessionId } = envelope;
  const cwd = optStr(p['cwd']) ?? options.fallbackCwd;
  const skipTools = [...options.skipTools, ...OPENCODE_SKIP_TOOLS];
  let event: CapturedEvent;
  switch (hook) {
    case 'SessionStart':
      event = { kind: 'session_start', source: str(p['source']) || 'startup' };
      break;
    case 'UserPromptSubmit':
      event = { kind: 'prompt', prompt: text(promptText(p['parts']), options) };
      break;
    case 'PostToolUse': {
      const tool = toolOf(p, hook, skipTools);
      if (!tool.ok) return tool;
      event = toolEvent(p, tool.tool, options);
      break;
    }
    case 'PostToolUseFailure': {
      const tool = toolOf(p, hook, skipTools);
      if (!tool.ok) return tool;
      const toolUseId = optStr(p['tool_call_id']);
      event = {
        kind: 'tool_failure',
        tool: engramToolName(tool.tool),
        ...(toolUseId ? { toolUseId } : {}),
        input: scrubAndLimit((engramToolInput(p['tool_input']) ?? null) as never, options),
        error: outputText(p['error'], options),
        interrupted: false,
      };
      break;
    }
    case 'Stop':
      event = { kind: 'stop', lastMessage: text(p['last_assistant_message'], options) };
      break;
    case 'PreCompact':
      event = { kind: 'pre_compact', trigger: str(p['trigger']) || 'auto', instructions: '' };
      break;
    case 'PostCompact':
      event = { kind: 'post_compact', trigger: str(p['trigger']) || 'auto', summary: '' };
      break;
    case 'SessionEnd':
      event = { kind: 'session_end', reason: str(p['reason']) || 'other' };
      break;
    default:
      return { ok: false, skip: true, reason: `hook event ${hook} is not captured` };
  }
  // The transcript is opencode's store: the worker writes this session's log from it (never the hook).
  return { ok: true, value: { hook, sessionId, cwd, transcriptPath: storeOf(options.env), event } };
}
