/**
 * Claude Code, the first host: its hook payloads (`../../claude-code-payload.ts`), its context output
 * (`hookSpecificOutput.additionalContext`, at most 10,000 characters), its settings file and transcripts.
 * A payload Cursor sends when it runs Claude Code's hooks (it carries `cursor_version`) is skipped.
 */
import { join } from 'node:path';
import { HOOK_EVENTS } from '../../../core/model.ts';
import { normaliseClaudePayload } from '../../claude-code-payload.ts';
import type { HostAdapter } from '../host-port.ts';
import { hookSpecificContext } from '../render-output.ts';

const CONTEXT_CHAR_CAP = 10_000;

export const claudeCodeAdapter: HostAdapter = {
  name: 'claude-code',
  capabilities: {
    sessionEnd: true,
    injectsContextAt: ['SessionStart', 'UserPromptSubmit'],
    contextCharCap: CONTEXT_CHAR_CAP,
    strictOutput: false,
    toolFailureEvent: true,
    transcripts: 'claude-code-jsonl',
    hookTrust: false,
    loadsRulesFiles: ['CLAUDE.md', '.claude/CLAUDE.md', 'CLAUDE.local.md'],
    loadsAutoMemory: true,
  },
  normalise: (payload, options) =>
    // Cursor runs Claude Code's hooks too ("Third-party skills"), with its own payloads: those are
    // captured by engram's Cursor hooks (`engram install --host cursor`), never read as Claude Code's.
    payload !== null && typeof payload === 'object' && 'cursor_version' in payload
      ? { ok: false, skip: true, reason: 'a Cursor payload' }
      : normaliseClaudePayload(payload, options),
  renderContext: (hookEventName, text) => hookSpecificContext(hookEventName, text, CONTEXT_CHAR_CAP),
  setup: {
    label: 'Claude Code',
    hooksFile: (_env, home) => join(home, '.claude', 'settings.json'),
    events: HOOK_EVENTS,
    timeoutSeconds: (event) => (event === 'SessionEnd' ? 5 : 15),
    timeoutInMilliseconds: false,
    hookName: null,
    hookArgs: [],
    transcriptsDir: (_env, home) => join(home, '.claude', 'projects'),
    mcp: {
      file: (_env, home) => join(home, '.claude.json'),
      format: 'json',
      entry: (command, args) => ({ type: 'stdio', command, args }),
    },
  },
};
