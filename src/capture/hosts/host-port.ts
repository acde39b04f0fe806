/**
 * The host port: everything engram needs to know about one coding-agent host (Claude Code, Codex CLI, …)
 * behind one interface, so nothing outside an adapter knows a host's field names. The hook half (parse a
 * payload, render context) runs on the hook's hot path; the set-up half is data the CLI's installer and
 * doctor read (where the hook configuration lives, which events to register, how long each may take).
 */
import type { CapturedEvent } from '../../core/model.ts';
import type { SizeLimits } from '../limit-size.ts';

/** The hosts engram has an adapter for (the value of `--host`; recorded on each session). */
export const HOST_NAMES = ['claude-code', 'codex', 'copilot', 'cursor', 'gemini', 'opencode'] as const;
export type HostName = (typeof HOST_NAMES)[number];

export const isHostName = (value: string): value is HostName =>
  (HOST_NAMES as readonly string[]).includes(value);

/** What a host can do, as far as engram is concerned. */
export interface HostCapabilities {
  /** A session-end event fires (else a session ends when it goes quiet). */
  sessionEnd: boolean;
  /** The hook events whose output reaches the model as context (empty: no injection). */
  injectsContextAt: readonly string[];
  /** Most characters of context one hook may print (engram's render budget never exceeds it). */
  contextCharCap: number;
  /** An unknown field in the hook's output makes the host drop it (so render only documented fields). */
  strictOutput: boolean;
  /** A failing tool call has an event of its own (else the failure is only in the tool's output text). */
  toolFailureEvent: boolean;
  /** The host keeps a transcript engram can read (`null`: none; else its format). */
  transcripts:
    | 'claude-code-jsonl'
    | 'codex-rollout-jsonl'
    | 'copilot-events-jsonl'
    | 'gemini-chat-jsonl'
    | 'opencode-sqlite'
    | null;
  /** The host runs an installed hook only once the user has approved it. */
  hookTrust: boolean;
  /**
   * The project's rules files the host loads into the agent's context itself (paths from the project's
   * root): a rule engram read from one of them is not injected again to that host while the file still
   * says it. Another host, which does not load the file, is still told.
   */
  loadsRulesFiles: readonly string[];
  /**
   * The host loads Claude Code's auto memory of the project (`MEMORY.md`, its first 200 lines) itself:
   * a rule engram read from it is not injected again to that host while the file still says it.
   */
  loadsAutoMemory: boolean;
}

/** A hook payload turned into engram's event, with the session facts every event carries. */
export interface NormalisedPayload {
  hook: string;
  sessionId: string;
  cwd: string;
  transcriptPath: string | null;
  event: CapturedEvent;
}

export type NormaliseResult =
  | { ok: true; value: NormalisedPayload }
  | { ok: false; skip: true; reason: string }
  | { ok: false; skip: false; reason: string };

export interface NormaliseOptions extends SizeLimits {
  skipTools: readonly string[];
  /** Used when the payload has no cwd. */
  fallbackCwd: string;
  /** The hook's environment (as the host started it), for hosts whose files it locates. */
  env?: Readonly<Record<string, string | undefined>>;
}

/** Where and what `engram install --host <name>` writes. */
export interface HostHookSetup {
  /** A display name for messages ("Claude Code", "Codex CLI"). */
  label: string;
  /**
   * The hook configuration file (a `{"hooks":{"<Event>":[matcher groups]}}` JSON file, or flat entries
   * with `flatEntries`), from the environment.
   */
  hooksFile: (env: Readonly<Record<string, string | undefined>>, home: string) => string;
  /** The events engram registers, in order. */
  events: readonly string[];
  /** Seconds each event's hook may take (`undefined`: the host's default). */
  timeoutSeconds: (event: string) => number | undefined;
  /** The host reads a hook's `timeout` in milliseconds (Gemini CLI), not seconds. */
  timeoutInMilliseconds: boolean;
  /** A name on each of engram's hook entries (Gemini CLI lists and toggles hooks by name), or null. */
  hookName: string | null;
  /** Extra words the hook command passes to engram's hook bundle (`--host codex`); none for the default host. */
  hookArgs: readonly string[];
  /**
   * The host lists its hook entries directly under each event (`{"type":"command","bash":…}`: Copilot),
   * naming the command and timeout keys; absent: Claude Code's matcher groups (`command`, `timeout`).
   */
  flatEntries?: { commandKey: string; timeoutKey: string };
  /** Top-level keys the hook file must have, written when absent (Cursor's `"version": 1`). */
  fileKeys?: Readonly<Record<string, string | number>>;
  /** The folder holding the host's transcripts (for backfill and messages), or null. */
  transcriptsDir: (env: Readonly<Record<string, string | undefined>>, home: string) => string | null;
  /** Where the host reads its user-level MCP servers, so install registers `engram mcp` (absent: not done). */
  mcp?: HostMcpSetup;
}

/** A host's user-level MCP server registry, as `engram install` writes engram's entry into it. */
export interface HostMcpSetup {
  /** The file, from the environment (`~/.claude.json`, `$CODEX_HOME/config.toml`, …). */
  file: (env: Readonly<Record<string, string | undefined>>, home: string) => string;
  /** `json`: the entry is `mcpServers.engram` of a JSON object; `toml`: Codex's `[mcp_servers.engram]` table. */
  format: 'json' | 'toml';
  /** The host's entry for a stdio server started as `command args` (strings and string lists only). */
  entry: (command: string, args: readonly string[]) => Record<string, string | readonly string[]>;
}

/** One host's adapter. */
export interface HostAdapter {
  name: HostName;
  capabilities: HostCapabilities;
  /** Turn one parsed hook payload into a CapturedEvent, or say why it is skipped or rejected. */
  normalise: (payload: unknown, options: NormaliseOptions) => NormaliseResult;
  /** What the hook prints to inject `text` as context at `hookEventName`, in the host's format and cap. */
  renderContext: (hookEventName: string, text: string) => string;
  setup: HostHookSetup;
}

/**
 * A plugin host's plugin file (`hosts/plugins.ts`, kept out of the hook bundle: only the CLI writes and
 * checks it).
 */
export interface HostPluginSetup {
  /** The plugin's text, running `node bundle` (absolute paths) with the host's words. */
  source: (hook: { node: string; bundle: string }, createdDirs: readonly string[]) => string;
  /** Does this text carry engram's mark (so install may replace it and uninstall delete it)? */
  isEngrams: (text: string) => boolean;
  /** The folders an install created (recorded in the file), for uninstall to remove when empty. */
  createdDirs: (text: string) => string[];
  /** The files the plugin runs (the node binary, engram's hook bundle), read back from its text. */
  targets: (text: string) => string[];
}
