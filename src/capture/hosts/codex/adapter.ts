/**
 * OpenAI Codex CLI: hooks in `$CODEX_HOME/hooks.json` (same shape as Claude Code's settings), strict
 * output (one unknown field and the context is dropped), a SessionEnd whose timeout Codex clamps to 3 s,
 * hooks that run only once trusted, rollout transcripts under `$CODEX_HOME/sessions/`.
 */
import { join } from 'node:path';
import type { HostAdapter } from '../host-port.ts';
import { hookSpecificContext } from '../render-output.ts';
import { CODEX_HOOK_EVENTS, normaliseCodexPayload } from './payload.ts';

/** Codex has no documented cap; engram keeps to Claude Code's 10,000 characters. */
const CONTEXT_CHAR_CAP = 10_000;
const INJECTS_AT: readonly string[] = ['SessionStart', 'UserPromptSubmit'];

/** `$CODEX_HOME`, else `~/.codex`. */
export const codexHome = (env: Readonly<Record<string, string | undefined>>, home: string): string =>
  env['CODEX_HOME'] || join(home, '.codex');

export const codexAdapter: HostAdapter = {
  name: 'codex',
  capabilities: {
    sessionEnd: true,
    injectsContextAt: INJECTS_AT,
    contextCharCap: CONTEXT_CHAR_CAP,
    strictOutput: true,
    toolFailureEvent: false,
    transcripts: 'codex-rollout-jsonl',
    hookTrust: true,
    loadsRulesFiles: ['AGENTS.md'],
    loadsAutoMemory: false,
  },
  normalise: normaliseCodexPayload,
  // Strict output: only the two documented fields, and only where Codex takes context.
  renderContext: (hookEventName, text) =>
    INJECTS_AT.includes(hookEventName) ? hookSpecificContext(hookEventName, text, CONTEXT_CHAR_CAP) : '',
  setup: {
    label: 'Codex CLI',
    hooksFile: (env, home) => join(codexHome(env, home), 'hooks.json'),
    events: CODEX_HOOK_EVENTS,
    // Codex clamps SessionEnd's timeout to 3 s and warns about a longer one.
    timeoutSeconds: (event) => (event === 'SessionEnd' ? 3 : 15),
    timeoutInMilliseconds: false,
    hookName: null,
    hookArgs: ['--host', 'codex'],
    transcriptsDir: (env, home) => join(codexHome(env, home), 'sessions'),
    // Codex hands an MCP server only a short list of its environment variables (HOME, PATH, …):
    // `env_vars` adds ENGRAM_HOME, so the server opens the store the hooks write to. Not `required`:
    // Codex would then refuse to start while engram's server cannot.
    mcp: {
      file: (env, home) => join(codexHome(env, home), 'config.toml'),
      format: 'toml',
      entry: (command, args) => ({ command, args, env_vars: ['ENGRAM_HOME'] }),
    },
  },
};
