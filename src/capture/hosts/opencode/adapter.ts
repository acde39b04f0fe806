/**
 * opencode: no hook commands. engram's plugin (`plugin-source.ts`, one file written into opencode's
 * `plugins/` folder: `$OPENCODE_CONFIG_DIR`, else `$XDG_CONFIG_HOME/opencode`, else
 * `~/.config/opencode`) runs inside opencode and pipes each event, in Claude Code's envelope, to
 * `engram hook --host opencode`; it puts the context the hook prints (`{"additionalContext": …}`) into
 * the system prompt of the session's model requests. opencode keeps its sessions in a SQLite store
 * (`$XDG_DATA_HOME/opencode/opencode.db`), which the worker reads at each turn's end (the events name it
 * as their transcript) and backfill reads (`session-store.ts`).
 */
import { join } from 'node:path';
import type { HostAdapter } from '../host-port.ts';
import { topLevelContext } from '../render-output.ts';
import { OPENCODE_HOOK_EVENTS, normaliseOpencodePayload, opencodeDataDir } from './payload.ts';

export { opencodeDataDir } from './payload.ts';

/** The plugin file's name in opencode's `plugins/` folder. */
export const OPENCODE_PLUGIN_FILE = 'engram.js';

/** opencode documents no limit on a plugin's system prompt text; engram keeps to Claude Code's 10,000. */
const CONTEXT_CHAR_CAP = 10_000;
const INJECTS_AT: readonly string[] = ['SessionStart', 'UserPromptSubmit'];
export const OPENCODE_HOOK_ARGS: readonly string[] = ['--host', 'opencode'];
/**
 * How long the plugin waits: for the context of a model request (the session's index, the prompt's
 * recall), and, as opencode shuts down, for the last events to be handed over (nothing else waits);
 * and how long one hook process may run before it is stopped (so a hung one cannot hold up the rest).
 */
export const OPENCODE_WAITS = { contextSeconds: 10, endSeconds: 3, hookSeconds: 15 };

type Env = Readonly<Record<string, string | undefined>>;

/** The folder opencode loads global plugins from (its own resolution, 1.18.33). */
export function opencodeConfigDir(env: Env, home: string): string {
  return env['OPENCODE_CONFIG_DIR'] || join(env['XDG_CONFIG_HOME'] || join(home, '.config'), 'opencode');
}

/** `text` as the answer the plugin reads, cut to the cap. */
export const opencodeContext = (text: string, cap: number = CONTEXT_CHAR_CAP): string =>
  topLevelContext('additionalContext', text, cap);

export const opencodeAdapter: HostAdapter = {
  name: 'opencode',
  capabilities: {
    // The plugin sends SessionEnd when opencode shuts down (its `dispose`) or a session is deleted.
    sessionEnd: true,
    injectsContextAt: INJECTS_AT,
    contextCharCap: CONTEXT_CHAR_CAP,
    strictOutput: false,
    toolFailureEvent: true,
    transcripts: 'opencode-sqlite', // read at each turn's end and by backfill, as logs (`session-store.ts`)
    hookTrust: false,
    loadsRulesFiles: ['AGENTS.md'],
    loadsAutoMemory: false,
  },
  normalise: normaliseOpencodePayload,
  renderContext: (hookEventName, text) => (INJECTS_AT.includes(hookEventName) ? opencodeContext(text) : ''),
  setup: {
    label: 'opencode',
    hooksFile: (env, home) => join(opencodeConfigDir(env, home), 'plugins', OPENCODE_PLUGIN_FILE),
    events: OPENCODE_HOOK_EVENTS,
    timeoutSeconds: (event) =>
      event === 'SessionEnd' ? OPENCODE_WAITS.endSeconds : OPENCODE_WAITS.contextSeconds,
    timeoutInMilliseconds: false,
    hookName: null,
    hookArgs: OPENCODE_HOOK_ARGS,
    transcriptsDir: opencodeDataDir,
  },
};
