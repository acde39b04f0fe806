/**
 * Gemini CLI: hooks in `~/.gemini/settings.json` (Claude Code's shape, timeouts in milliseconds, a
 * `name` per hook), context from SessionStart and BeforeAgent as `hookSpecificOutput.additionalContext`
 * (Gemini escapes its `<` and `>` and wraps it in `<hook_context>`), unknown output fields tolerated,
 * no trust step for a user's own hooks, chat files (JSON lines) under `~/.gemini/tmp/<project>/chats/`.
 */
import { join } from 'node:path';
import type { HostAdapter } from '../host-port.ts';
import { hookSpecificContext } from '../render-output.ts';
import { GEMINI_HOOK_EVENTS, normaliseGeminiPayload } from './payload.ts';

/** Gemini documents no cap on a hook's context; engram keeps to Claude Code's 10,000 characters. */
const CONTEXT_CHAR_CAP = 10_000;
const INJECTS_AT: readonly string[] = ['SessionStart', 'BeforeAgent'];

/** `~/.gemini` (Gemini CLI has no variable that moves it; HOME does). */
export const geminiDir = (home: string): string => join(home, '.gemini');

export const geminiAdapter: HostAdapter = {
  name: 'gemini',
  capabilities: {
    sessionEnd: true,
    injectsContextAt: INJECTS_AT,
    contextCharCap: CONTEXT_CHAR_CAP,
    strictOutput: false,
    toolFailureEvent: false,
    transcripts: 'gemini-chat-jsonl',
    hookTrust: false,
    loadsRulesFiles: ['GEMINI.md'],
    loadsAutoMemory: false,
  },
  normalise: normaliseGeminiPayload,
  renderContext: (hookEventName, text) =>
    INJECTS_AT.includes(hookEventName) ? hookSpecificContext(hookEventName, text, CONTEXT_CHAR_CAP) : '',
  setup: {
    label: 'Gemini CLI',
    hooksFile: (_env, home) => join(geminiDir(home), 'settings.json'),
    events: GEMINI_HOOK_EVENTS,
    // Gemini does not wait for SessionEnd's hook; the others it waits for, up to this.
    timeoutSeconds: (event) => (event === 'SessionEnd' ? 5 : 15),
    timeoutInMilliseconds: true,
    hookName: 'engram',
    hookArgs: ['--host', 'gemini'],
    transcriptsDir: (_env, home) => join(geminiDir(home), 'tmp'),
    mcp: {
      file: (_env, home) => join(geminiDir(home), 'settings.json'),
      format: 'json',
      entry: (command, args) => ({ command, args }),
    },
  },
};
