/**
 * Gemini CLI's tools in engram's words. The distillers know a tool call by the names Claude Code gives
 * them (`Bash` with `command`, `Write` with `file_path` and `content`, `Edit` with `old_string` and
 * `new_string`, …); Gemini's built-in tools carry the same facts under their own names, so each is
 * renamed here, once, for the hook events and the chat files alike. A tool engram has no name for
 * keeps Gemini's. A shell command's outcome is in its result text (`Exit Code: N` only when it is not
 * 0): a failing command becomes what Claude Code reports for one, a failure with `Exit code N` first.
 */
import type { Json } from '../../../core/model.ts';

/** Gemini's tool name → engram's (Claude Code's) name. */
const TOOL_NAMES: Readonly<Record<string, string>> = {
  run_shell_command: 'Bash',
  read_file: 'Read',
  read_many_files: 'Read',
  write_file: 'Write',
  replace: 'Edit',
  glob: 'Glob',
  grep_search: 'Grep',
  search_file_content: 'Grep',
  list_directory: 'LS',
  google_web_search: 'WebSearch',
  web_fetch: 'WebFetch',
  write_todos: 'TodoWrite',
};

/** engram's own MCP tools as Gemini names them (`mcp_<server>_<tool>`): never captured. */
export const GEMINI_SKIP_TOOLS: readonly string[] = ['mcp_engram_*'];

export const engramToolName = (tool: string): string => TOOL_NAMES[tool] ?? tool;

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The tool's arguments under the field names engram reads (the others kept as they are). */
export function engramToolInput(tool: string, input: unknown): unknown {
  if (!isRecord(input)) return input ?? null;
  const out: Record<string, unknown> = { ...input };
  if ('dir_path' in out && !('path' in out)) {
    out['path'] = out['dir_path'];
    delete out['dir_path'];
  }
  if (tool === 'replace' && 'allow_multiple' in out) {
    out['replace_all'] = out['allow_multiple'] === true;
    delete out['allow_multiple'];
  }
  return out;
}

/** What a shell result says, read from the sections Gemini writes (`Output:`, `Exit Code:`, …). */
export interface ShellResult {
  output: string;
  exitCode: number | null;
  /** A process-level error (the command could not start) or the signal that ended it. */
  error: string;
}

const SECTION = /^(Output|Error|Exit Code|Signal|Background PIDs|Process Group PGID): ?/;

/** Gemini's shell result text, its `<untrusted_context>` wrapping removed, into its sections. */
export function readShellResult(llmContent: string): ShellResult | null {
  const body = llmContent
    .replace(/^\s*<untrusted_context>\n?/, '')
    .replace(/\n?<\/untrusted_context>\s*$/, '');
  if (!/^Output: /.test(body)) return null; // cancelled, moved to the background, or not a shell result
  const sections = new Map<string, string>();
  let current = '';
  for (const line of body.split('\n')) {
    const head = SECTION.exec(line);
    if (head) {
      current = head[1] ?? '';
      sections.set(current, line.slice(head[0].length));
    } else if (current !== '') sections.set(current, `${sections.get(current) ?? ''}\n${line}`);
  }
  const output = sections.get('Output') ?? '';
  const code = Number.parseInt(sections.get('Exit Code') ?? '', 10);
  const error = [sections.get('Error'), sections.get('Signal') ? `signal ${sections.get('Signal')}` : '']
    .filter(Boolean)
    .join('\n');
  return {
    output: output === '(empty)' ? '' : output,
    exitCode: Number.isFinite(code) ? code : null,
    error,
  };
}

/** A tool's result as text: Gemini's `llmContent` is a string or a list of parts. */
export function resultText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value))
    return value.map((p) => (isRecord(p) && typeof p['text'] === 'string' ? p['text'] : '')).join('\n');
  if (isRecord(value) && typeof value['output'] === 'string') return value['output'];
  return '';
}

/** One Gemini tool call's outcome as engram keeps it: a result, or a failure with its error text. */
export type ToolOutcome = { ok: true; response: Json } | { ok: false; error: string };

/**
 * The outcome of a call of `tool` from its result text (and the error Gemini reports for a tool that
 * failed). A shell command that exited non-zero, or could not run, is a failure, `Exit code N` first.
 */
export function toolOutcome(tool: string, text: string, error: string): ToolOutcome {
  if (tool === 'run_shell_command') {
    const shell = readShellResult(text);
    if (shell) {
      if (shell.exitCode !== null && shell.exitCode !== 0)
        return {
          ok: false,
          error: [`Exit code ${shell.exitCode}`, shell.output, shell.error].filter(Boolean).join('\n'),
        };
      if (shell.error !== '')
        return { ok: false, error: [shell.error, shell.output].filter(Boolean).join('\n') };
      return { ok: true, response: { stdout: shell.output } };
    }
  }
  if (error !== '') return { ok: false, error };
  return { ok: true, response: text };
}
