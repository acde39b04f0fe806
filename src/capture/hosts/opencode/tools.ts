/**
 * opencode's tools in engram's words. The distillers know a tool call by Claude Code's names (`Bash`
 * with `command`, `Write` with `file_path` and `content`, `Edit` with `old_string` and `new_string`, …);
 * opencode's built-in tools carry the same facts under lower-case names and camelCase arguments
 * (`edit` with `filePath`, `oldString`, `newString`), renamed here once. A tool engram has no name for
 * keeps opencode's. A shell command's exit status is in the tool's metadata (`exit`), not its text.
 */
import type { Json } from '../../../core/model.ts';

const TOOL_NAMES: Readonly<Record<string, string>> = {
  bash: 'Bash',
  read: 'Read',
  write: 'Write',
  edit: 'Edit',
  multiedit: 'MultiEdit',
  glob: 'Glob',
  grep: 'Grep',
  list: 'LS',
  webfetch: 'WebFetch',
  websearch: 'WebSearch',
  todowrite: 'TodoWrite',
  task: 'Task',
};

/** opencode's argument names → Claude Code's (the others kept as they are). */
const ARG_NAMES: Readonly<Record<string, string>> = {
  filePath: 'file_path',
  oldString: 'old_string',
  newString: 'new_string',
  replaceAll: 'replace_all',
};

/** engram's own MCP tools as opencode names them (`<server>_<tool>`): never captured. */
export const OPENCODE_SKIP_TOOLS: readonly string[] = ['engram_*'];

export const engramToolName = (tool: string): string => TOOL_NAMES[tool] ?? tool;

export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The tool's arguments under the field names engram reads. */
export function engramToolInput(input: unknown): unknown {
  if (!isRecord(input)) return input ?? null;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) out[ARG_NAMES[key] ?? key] = value;
  return out;
}

/** One tool call's outcome as engram keeps it: a result, or a failure with its error text. */
export type ToolOutcome = { ok: true; response: Json } | { ok: false; error: string };

/**
 * The outcome of a finished call of `tool`: its text for the model (`output`) and its metadata (the
 * shell's `exit` code and `output`). A shell command that exited non-zero is a failure, `Exit code N`
 * first, like Claude Code's.
 */
export function toolOutcome(tool: string, output: string, metadata: unknown): ToolOutcome {
  if (tool !== 'bash') return { ok: true, response: output };
  const meta = isRecord(metadata) ? metadata : {};
  const text = typeof meta['output'] === 'string' ? meta['output'] : output;
  const exit = meta['exit'];
  if (typeof exit === 'number' && exit !== 0) return { ok: false, error: `Exit code ${exit}\n${text}` };
  return { ok: true, response: { stdout: text, stderr: '', interrupted: false } };
}
