/**
 * Copilot CLI's built-in tools in engram's words (Claude Code's, which the distillers read: `Write`
 * with `file_path` and `content`, `Edit` with `old_string` and `new_string`, …). Seen with 1.0.102
 * (`test/fixtures/hosts/copilot/file-tools/`): the PascalCase hook payloads already name the tools as
 * Claude Code does (`create` → `Write`, `view` → `Read`) but keep Copilot's arguments (`path`,
 * `file_text`, `old_str`, `paths`); events.jsonl keeps Copilot's names and arguments both. Each is
 * renamed here, once, for the hooks and the session log alike; a tool engram has no name for keeps
 * Copilot's.
 */

/** Copilot's tool name (events.jsonl, camelCase hooks) → engram's. */
const TOOL_NAMES: Readonly<Record<string, string>> = {
  bash: 'Bash',
  create: 'Write',
  view: 'Read',
  edit: 'Edit',
  glob: 'Glob',
  grep: 'Grep',
};

/** Per engram tool, Copilot's argument → the field engram reads. */
const FIELDS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  Write: { path: 'file_path', file_text: 'content' },
  Read: { path: 'file_path' },
  Edit: { path: 'file_path', old_str: 'old_string', new_str: 'new_string' },
  Glob: { paths: 'path' },
  Grep: { paths: 'path' },
};

/** engram's own MCP tools as Copilot names them (`<server>-<tool>`: `engram-search`): never captured. */
export const COPILOT_SKIP_TOOLS: readonly string[] = ['engram-*'];

export const copilotToolName = (tool: string): string => TOOL_NAMES[tool] ?? tool;

/** The arguments of a call of `tool` (engram's name) under the fields engram reads; the others kept. */
export function copilotToolInput(tool: string, input: unknown): unknown {
  const fields = FIELDS[tool];
  if (!fields || input === null || typeof input !== 'object' || Array.isArray(input)) return input ?? null;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input as Record<string, unknown>)) {
    const renamed = fields[key];
    // A field already in engram's words wins over Copilot's.
    if (renamed && !(renamed in (input as Record<string, unknown>))) out[renamed] = value;
    else out[key] = value;
  }
  return out;
}
