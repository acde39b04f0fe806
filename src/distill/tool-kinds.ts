/**
 * What Claude Code's tools do, by name: the ones that only read or look things up, and the ones that
 * edit files, the everyday ones, and how the host says a call was rejected. Shared by the turn analysis
 * and the reading of the user's words.
 */

/** Tools that only read or look things up (their failure is a hiccup, stopping one rejects nothing). */
export const READ_ONLY_TOOLS: ReadonlySet<string> = new Set([
  'Read',
  'Glob',
  'Grep',
  'LS',
  'WebFetch',
  'WebSearch',
  'NotebookRead',
  'TaskOutput',
  'ToolSearch',
]);

/** Tools that edit files. */
export const EDITING_TOOLS: ReadonlySet<string> = new Set(['Write', 'Edit', 'MultiEdit', 'NotebookEdit']);

/** The everyday tools of a coding session; any other (MCP tools, skills…) is worth naming. */
export const EVERYDAY_TOOLS: ReadonlySet<string> = new Set([
  ...READ_ONLY_TOOLS,
  ...EDITING_TOOLS,
  'Bash',
  'BashOutput',
  'KillShell',
  'KillBash',
  'Task',
  'Agent',
  'TodoWrite',
  'TaskCreate',
  'TaskUpdate',
  'TaskGet',
  'TaskList',
  'ExitPlanMode',
  'EnterPlanMode',
  'AskUserQuestion',
]);

/** The host's words for a tool call the user rejected or interrupted: it never ran, it did not fail. */
export const REJECTED_CALL =
  /doesn't want to (?:proceed|take this action)|user (?:denied|rejected|declined)|was rejected|permission .* (?:was|has been) denied|interrupted by user|STOP what you are doing and wait for the user|Cancelled: parallel tool call/i;
