/**
 * Where each host keeps its transcripts and which files under there are transcripts, for backfill:
 * Claude Code's projects folder (`<slug>/<session>.jsonl`, subagents in `<session>/subagents/`), Codex's
 * rollouts (`$CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl`, and `archived_sessions/`), Gemini CLI's
 * chat files (`~/.gemini/tmp/<project>/chats/session-*.jsonl`), Copilot CLI's session logs
 * (`$COPILOT_HOME/session-state/<id>/events.jsonl`) and opencode's store (`$XDG_DATA_HOME/opencode/
 * opencode.db`, its sessions written out as logs engram reads). A host without a transcript reader has no finder.
 * Kept out of the adapters (which the hook loads) like the readers: only backfill and install walk folders.
 */
import { readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { findFiles, inSubagentsFolder, type TranscriptFile } from '../transcript/find-files.ts';
import { codexHome } from './codex/adapter.ts';
import { opencodeDataDir } from './opencode/adapter.ts';
import { opencodeSessionLogs } from './opencode/session-store.ts';
import type { HostName } from './host-port.ts';
import { hostAdapter } from './index.ts';

export type { TranscriptFile } from '../transcript/find-files.ts';

type Env = Readonly<Record<string, string | undefined>>;

export interface TranscriptFinder {
  host: HostName;
  /** The folders the host writes its transcripts to. */
  roots: (env: Env, home: string) => string[];
  /**
   * The host's transcript files under `root` (one of `roots`, or a folder laid out like one). A host
   * whose sessions are not files (opencode's SQLite store) writes them as logs into `logDir`, engram's
   * own folder for them, and gives those; without `logDir` it finds none. With `scratchDir` (a dry
   * run) it writes nothing into `logDir`: a log that would change is written there instead.
   */
  find: (root: string, logDir?: string, scratchDir?: string) => TranscriptFile[];
}

/**
 * The project a Gemini chat file belongs to: Gemini writes the project's path into `.project_root` in
 * the project's folder of `~/.gemini/tmp` (the chat file itself does not say).
 */
function geminiProjectRoot(chatFile: string): string | null {
  try {
    return readFileSync(join(dirname(dirname(chatFile)), '.project_root'), 'utf8').trim() || null;
  } catch {
    return null; // an older layout, or the marker gone: the session's cwd from its hooks, if any
  }
}

/** Hosts whose transcripts engram can read. */
const FINDERS: Partial<Record<HostName, TranscriptFinder>> = {
  'claude-code': {
    host: 'claude-code',
    roots: (env, home) => [
      hostAdapter('claude-code').setup.transcriptsDir(env, home) ?? join(home, '.claude', 'projects'),
    ],
    // Every `*.jsonl` up to four levels down (a projects folder, or one project's folder of it).
    find: (root) => findFiles(root, 'claude-code', 4, (p) => p.endsWith('.jsonl'), inSubagentsFolder),
  },
  codex: {
    host: 'codex',
    roots: (env, home) => [
      join(codexHome(env, home), 'sessions'),
      join(codexHome(env, home), 'archived_sessions'),
    ],
    find: (root) => findFiles(root, 'codex', 4, (p) => /^rollout-.*\.jsonl$/.test(basename(p))),
  },
  gemini: {
    host: 'gemini',
    roots: (env, home) => [
      hostAdapter('gemini').setup.transcriptsDir(env, home) ?? join(home, '.gemini', 'tmp'),
    ],
    find: (root) =>
      findFiles(
        root,
        'gemini',
        3,
        (p) => basename(dirname(p)) === 'chats' && /^session-.*\.jsonl$/.test(basename(p)),
        () => false,
        geminiProjectRoot,
      ),
  },
  copilot: {
    host: 'copilot',
    roots: (env, home) => [
      hostAdapter('copilot').setup.transcriptsDir(env, home) ?? join(home, '.copilot', 'session-state'),
    ],
    find: (root) => findFiles(root, 'copilot', 1, (p) => basename(p) === 'events.jsonl'),
  },
  opencode: {
    host: 'opencode',
    roots: (env, home) => [
      hostAdapter('opencode').setup.transcriptsDir(env, home) ?? opencodeDataDir(env, home),
    ],
    // Its `opencode.db` (or `opencode export` files), each session written as a log into `logDir`.
    find: (root, logDir, scratchDir) =>
      logDir === undefined
        ? []
        : opencodeSessionLogs(root, join(logDir, 'opencode'), scratchDir && join(scratchDir, 'opencode')),
  },
};

/** The host's transcript finder, or null when engram reads no transcripts of that host. */
export function transcriptFinder(host: HostName): TranscriptFinder | null {
  return FINDERS[host] ?? null;
}
