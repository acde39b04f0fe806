/**
 * GitHub Copilot CLI: user-level hooks in `$COPILOT_HOME/settings.json` (default `~/.copilot`), which
 * run without any trust step (a repository's `.github/hooks/*.json` run only in a trusted folder, and
 * are skipped silently otherwise); entries sit directly in each event's list (`{"type":"command",
 * "bash":…,"timeoutSec":…}`, no matcher groups). Context goes back as a top-level `additionalContext`
 * (`hookSpecificOutput` is ignored); the session's log is `session-state/<id>/events.jsonl`.
 */
import { join } from 'node:path';
import type { HostAdapter } from '../host-port.ts';
import { topLevelContext } from '../render-output.ts';
import { COPILOT_HOOK_EVENTS, normaliseCopilotPayload } from './payload.ts';

/** Copilot's limit was not measured; engram keeps to Claude Code's 10,000 characters. */
const CONTEXT_CHAR_CAP = 10_000;
const INJECTS_AT: readonly string[] = ['SessionStart', 'UserPromptSubmit'];

/** `$COPILOT_HOME`, else `~/.copilot`. */
export const copilotHome = (env: Readonly<Record<string, string | undefined>>, home: string): string =>
  env['COPILOT_HOME'] || join(home, '.copilot');

/** `text` as Copilot's context answer, cut to the cap. */
export const copilotContext = (text: string, cap: number = CONTEXT_CHAR_CAP): string =>
  topLevelContext('additionalContext', text, cap);

export const copilotAdapter: HostAdapter = {
  name: 'copilot',
  capabilities: {
    sessionEnd: true,
    // postToolUse's additionalContext reaches the model too; engram injects only where Claude Code does.
    injectsContextAt: INJECTS_AT,
    contextCharCap: CONTEXT_CHAR_CAP,
    strictOutput: false,
    // PostToolUseFailure is for a tool that failed to run; a command's non-zero exit is PostToolUse.
    toolFailureEvent: true,
    transcripts: 'copilot-events-jsonl',
    hookTrust: false,
    loadsRulesFiles: [],
    loadsAutoMemory: false,
  },
  normalise: normaliseCopilotPayload,
  renderContext: (hookEventName, text) => (INJECTS_AT.includes(hookEventName) ? copilotContext(text) : ''),
  setup: {
    label: 'GitHub Copilot CLI',
    hooksFile: (env, home) => join(copilotHome(env, home), 'settings.json'),
    events: COPILOT_HOOK_EVENTS,
    timeoutSeconds: (event) => (event === 'SessionEnd' ? 5 : 15),
    timeoutInMilliseconds: false,
    hookName: null,
    hookArgs: ['--host', 'copilot'],
    flatEntries: { commandKey: 'bash', timeoutKey: 'timeoutSec' },
    transcriptsDir: (env, home) => join(copilotHome(env, home), 'session-state'),
    // What `copilot mcp add engram -- <command> <args>` writes (`tools: ["*"]`: every tool offered).
    mcp: {
      file: (env, home) => join(copilotHome(env, home), 'mcp-config.json'),
      format: 'json',
      entry: (command, args) => ({ type: 'local', command, args, tools: ['*'] }),
    },
  },
};
