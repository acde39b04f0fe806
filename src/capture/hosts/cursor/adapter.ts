/**
 * Cursor's agent: user hooks in `~/.cursor/hooks.json` (`{"version":1,"hooks":{"<event>":[{"command",
 * "timeout"}]}}`: entries directly under each event, timeouts in seconds), its own camelCase events and
 * payloads (`payload.ts`); context only at `sessionStart`, as a top-level `additional_context`
 * (`beforeSubmitPrompt` can only allow or block a prompt). Cursor also runs Claude Code's hooks when its
 * "Third-party skills" setting is on; Claude Code's adapter leaves Cursor's payloads to these hooks.
 * No transcript engram reads, no MCP registry it writes.
 */
import { join } from 'node:path';
import type { HostAdapter } from '../host-port.ts';
import { topLevelContext } from '../render-output.ts';
import { CURSOR_HOOK_EVENTS, normaliseCursorPayload } from './payload.ts';

/** Cursor documents no cap on a hook's context; engram keeps to Claude Code's 10,000 characters. */
const CONTEXT_CHAR_CAP = 10_000;
const INJECTS_AT: readonly string[] = ['sessionStart'];

/** `text` as Cursor's sessionStart answer, cut to the cap. */
export const cursorContext = (text: string, cap: number = CONTEXT_CHAR_CAP): string =>
  topLevelContext('additional_context', text, cap);

export const cursorAdapter: HostAdapter = {
  name: 'cursor',
  capabilities: {
    sessionEnd: true,
    injectsContextAt: INJECTS_AT,
    contextCharCap: CONTEXT_CHAR_CAP,
    strictOutput: false,
    toolFailureEvent: true,
    transcripts: null,
    hookTrust: false,
    // Cursor's agent loads the project's AGENTS.md (beside its own .cursor/rules).
    loadsRulesFiles: ['AGENTS.md'],
    loadsAutoMemory: false,
  },
  normalise: normaliseCursorPayload,
  renderContext: (hookEventName, text) => (INJECTS_AT.includes(hookEventName) ? cursorContext(text) : ''),
  setup: {
    label: 'Cursor',
    hooksFile: (_env, home) => join(home, '.cursor', 'hooks.json'),
    events: CURSOR_HOOK_EVENTS,
    timeoutSeconds: (event) => (event === 'sessionEnd' ? 5 : 15),
    timeoutInMilliseconds: false,
    hookName: null,
    hookArgs: ['--host', 'cursor'],
    flatEntries: { commandKey: 'command', timeoutKey: 'timeout' },
    fileKeys: { version: 1 },
    transcriptsDir: () => null,
  },
};
