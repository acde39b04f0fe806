/**
 * What Claude Code's tools do, by name: the ones that only read or look things up, and the ones that
 * edit files. Shared by the turn analysis and the reading of the user's words.
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
