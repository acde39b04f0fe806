/**
 * The trust of what a turn took in, by where each tool call's result came from: a web fetch or search,
 * a third-party MCP tool, a command that reaches the network, or a file of a dependency is external
 * content; a file of the project is the repository; any other command is local tool output. Tools that
 * only act (edits, todo lists) take nothing in.
 *
 * Memories the distillers make from the user's words carry the user's trust, rules read verbatim
 * from the repository's files and hooks the repository's; whatever the assistant (or an LLM) says is a
 * relay: local tool output at best, external as soon as its turn took in external content — the
 * assistant may be repeating what a page told it.
 */
import type { Json, QueuedEvent } from '../core/model.ts';
import type { TranscriptEntry } from '../core/transcript.ts';
import { lowestTrust, type TrustClass } from '../core/trust.ts';

/** Folders of other people's code inside a project (dependencies, vendored code, virtualenvs). */
const DEPENDENCY_DIR =
  /(?:^|[\\/])(?:node_modules|bower_components|jspm_packages|vendor|third_party|site-packages|dist-packages|\.venv|venv|\.tox|Pods|Carthage|\.cargo|\.gradle|\.m2|\.nuget|\.pub-cache|go[\\/]pkg[\\/]mod|\.bundle|elm-stuff|_deps)(?:[\\/]|$)/;
/**
 * Commands that bring outside content in (the network, a package registry, another repository).
 * Fetching or pulling the project's own remote is not among them: its output is refs and file
 * counts, and the files it brings are the repository's, judged as such when read.
 */
const NETWORK =
  /(?:^|[\s;&|(])(?:curl|wget|http|https|httpie|xh|aria2c|lynx|w3m|invoke-webrequest|iwr|irm|gh\s+(?:api|issue\s+view|pr\s+view|repo\s+view|release\s+view|gist)|(?:npm|pnpm|yarn|bun)\s+(?:view|info|show|search|docs|repo)|pip3?\s+(?:download|index|show|search)|cargo\s+(?:search|info)|gem\s+(?:search|info|specification)|go\s+doc|brew\s+info|apt(?:-cache)?\s+(?:show|policy)|docker\s+(?:search|pull)|git\s+(?:clone|archive\s+--remote))\b/;
const READ_TOOLS = new Set(['Read', 'Grep', 'Glob', 'LS', 'NotebookRead']);
/** Tools that only act or ask: nothing comes in from elsewhere through them. */
const ACTING_TOOLS = new Set([
  'Edit',
  'MultiEdit',
  'Write',
  'NotebookEdit',
  'TodoWrite',
  'ExitPlanMode',
  'AskUserQuestion',
  'KillShell',
  'KillBash',
]);
/** engram's own MCP tools (memories already judged on their way in). */
const OWN_MCP = /^mcp__(?:engram|plugin_engram_engram)__/;

const field = (input: Json, key: string): string => {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) return '';
  const v = input[key];
  return typeof v === 'string' ? v : '';
};

/** Whether `path` is a dependency's file, or (given the project's root) outside the project. */
export function foreignPath(path: string, projectRoot?: string): boolean {
  if (path === '') return false;
  if (DEPENDENCY_DIR.test(path)) return true;
  if (!projectRoot || !/^(?:\/|[A-Za-z]:[\\/])/.test(path)) return false;
  const root = projectRoot.replace(/[\\/]+$/, '');
  return path !== root && !path.startsWith(`${root}/`) && !path.startsWith(`${root}\\`);
}

/** What one tool call's result is worth as evidence; null when it took nothing in. */
export function toolCallTrust(name: string, input: Json, projectRoot?: string): TrustClass | null {
  if (ACTING_TOOLS.has(name)) return null;
  if (name === 'WebFetch' || name === 'WebSearch') return 'external';
  if (name.startsWith('mcp__')) return OWN_MCP.test(name) ? 'tool' : 'external';
  if (READ_TOOLS.has(name)) {
    const path = field(input, 'file_path') || field(input, 'path') || field(input, 'notebook_path');
    return foreignPath(path, projectRoot) ? 'external' : 'repository';
  }
  if (name === 'Bash') return NETWORK.test(field(input, 'command')) ? 'external' : 'tool';
  return 'tool';
}

/** Where Claude Code leaves a background command's output (`/tmp/claude-<uid>/<project>/tasks/<id>.output`). */
const HOST_TASK_OUTPUT = /[\\/]claude-\d+[\\/][^\\/]+[\\/]tasks[\\/][^\\/]+\.output$/;

/**
 * The lowest trust of what some tool calls took in (`repository` when they took in nothing). A file
 * outside the project that the session itself wrote (a scratch file, a background command's output)
 * is the session's own tool output, not someone else's content.
 */
export function floorOfCalls(
  calls: readonly { name: string; input: Json }[],
  projectRoot?: string,
): TrustClass {
  const written = new Set<string>();
  return lowestTrust(
    calls.map((c) => {
      const path = field(c.input, 'file_path') || field(c.input, 'notebook_path');
      if (ACTING_TOOLS.has(c.name) && path !== '') written.add(path);
      if (READ_TOOLS.has(c.name) && (written.has(path) || HOST_TASK_OUTPUT.test(path))) return 'tool';
      return toolCallTrust(c.name, c.input, projectRoot);
    }),
    'repository',
  );
}

/** The floor of a turn's hook events. */
export const floorOfEvents = (events: readonly QueuedEvent[], projectRoot?: string): TrustClass =>
  floorOfCalls(
    events.flatMap((q) =>
      (q?.event?.kind === 'tool' || q?.event?.kind === 'tool_failure') && typeof q.event.tool === 'string'
        ? [{ name: q.event.tool, input: q.event.input }]
        : [],
    ),
    projectRoot,
  );

/** The floor of transcript entries (a turn's). */
export const floorOfEntries = (entries: readonly TranscriptEntry[], projectRoot?: string): TrustClass =>
  floorOfCalls(
    entries.flatMap((e) =>
      e.kind === 'tool_call' && e.result ? [{ name: e.name, input: e.input as Json }] : [],
    ),
    projectRoot,
  );

/** The trust of the assistant's words relaying something of trust `own`: external when its turn took in external content. */
export const relayedTrust = (own: TrustClass, floor: TrustClass): TrustClass =>
  floor === 'external' ? 'external' : own;
