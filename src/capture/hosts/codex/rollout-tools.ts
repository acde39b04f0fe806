/**
 * Codex's tool calls as engram's distillers know them: the shell tools (`exec_command` `{cmd}`, the
 * older `shell` `{command: argv}` and `shell_command`, `local_shell_call`) become `Bash` `{command}` —
 * the name and input Codex's own PostToolUse hook reports —, an `apply_patch` becomes one `Write` (a
 * file added) or `Edit` (a file updated or deleted) per file it touches; other tools keep Codex's name.
 * A call's output is read for its exit status: the exit code Codex recorded with the command's end
 * (`item_completed` CommandExecution, the older `exec_command_end`), else the one its output carries
 * (`metadata.exit_code` of the JSON output older shells wrote, `Process exited with code N` in unified
 * exec's header), else `success: false`.
 */
import { isAbsolute, join } from 'node:path';

const rec = (value: unknown): Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
const str = (value: unknown): string => (typeof value === 'string' ? value : '');

/** A tool call Codex recorded, in engram's terms (one Codex call can be several: a patch of two files). */
export interface CodexCall {
  name: string;
  input: unknown;
}

const SHELLS = new Set(['exec_command', 'shell', 'shell_command', 'container.exec', 'local_shell']);

/** The command line of a shell call's argv (`["bash","-lc","npm test"]` → `npm test`). */
function commandLine(argv: unknown): string {
  if (typeof argv === 'string') return argv;
  if (!Array.isArray(argv)) return '';
  const words = argv.filter((w): w is string => typeof w === 'string');
  const shell = words.findIndex((w) => /^-\w*c$/.test(w));
  if (shell > 0 && shell === words.length - 2 && /(?:^|\/)(?:ba|z|da)?sh$/.test(words[0] ?? ''))
    return words[shell + 1] ?? '';
  return words.join(' ');
}

function parseArguments(text: unknown): Record<string, unknown> {
  if (typeof text !== 'string') return rec(text);
  try {
    return rec(JSON.parse(text));
  } catch {
    return { input: text };
  }
}

/** The files a patch in Codex's `*** Begin Patch` format adds, updates or deletes, with their lines. */
export function patchFiles(
  patch: string,
  cwd: string,
): { action: 'add' | 'update' | 'delete'; path: string; removed: string[]; added: string[] }[] {
  const out: { action: 'add' | 'update' | 'delete'; path: string; removed: string[]; added: string[] }[] = [];
  let current: (typeof out)[number] | null = null;
  for (const line of patch.split('\n')) {
    const head = /^\*\*\* (Add|Update|Delete) File: (.+)$/.exec(line);
    if (head) {
      const path = (head[2] ?? '').trim();
      current = {
        action: (head[1] ?? '').toLowerCase() as 'add' | 'update' | 'delete',
        path: isAbsolute(path) || cwd === '' ? path : join(cwd, path),
        removed: [],
        added: [],
      };
      out.push(current);
      continue;
    }
    if (!current || line.startsWith('***')) continue;
    if (line.startsWith('+')) current.added.push(line.slice(1));
    else if (line.startsWith('-')) current.removed.push(line.slice(1));
  }
  return out;
}

/** What one recorded call is, in engram's terms. */
export function codexCalls(name: string, args: unknown, cwd: string): CodexCall[] {
  const a = typeof args === 'string' && name === 'apply_patch' ? { input: args } : parseArguments(args);
  if (SHELLS.has(name)) {
    const command = str(a['cmd']) || commandLine(a['command']);
    return [{ name: 'Bash', input: { command, ...(str(a['workdir']) ? { cwd: str(a['workdir']) } : {}) } }];
  }
  if (name === 'apply_patch') {
    const files = patchFiles(str(a['input']) || str(a['patch']), str(a['workdir']) || cwd);
    if (files.length === 0) return [{ name: 'apply_patch', input: a }];
    return files.map((f) =>
      f.action === 'add'
        ? { name: 'Write', input: { file_path: f.path, content: f.added.join('\n') } }
        : {
            name: 'Edit',
            input: { file_path: f.path, old_string: f.removed.join('\n'), new_string: f.added.join('\n') },
          },
    );
  }
  return [{ name, input: a }];
}

/** Unified exec's header before the command's output. */
const EXEC_HEADER =
  /^(?:Chunk ID: \S+\n)?(?:Wall time: [^\n]*\n)?Process exited with code (-?\d+)\n(?:Original token count: \d+\n)?Output:\n/;

/** A call's output as Codex recorded it: the text the model was given, and the exit code when it says. */
export function readOutput(output: unknown): { text: string; exitCode: number | null; failed: boolean } {
  const o = rec(output);
  // A structured output (`{content, success}`) or a plain string.
  const raw =
    typeof output === 'string'
      ? output
      : str(o['content']) ||
        (Array.isArray(o['content'])
          ? o['content']
              .map((c) => str(rec(c)['text']))
              .filter(Boolean)
              .join('\n')
          : '') ||
        str(o['body']);
  const failed = o['success'] === false;
  const header = EXEC_HEADER.exec(raw);
  if (header) return { text: raw.slice(header[0].length), exitCode: Number(header[1]), failed };
  if (raw.startsWith('{')) {
    // The older shell tool: `{"output": "…", "metadata": {"exit_code": N, "duration_seconds": …}}`.
    try {
      const parsed = rec(JSON.parse(raw));
      const code = rec(parsed['metadata'])['exit_code'];
      if (typeof parsed['output'] === 'string' && typeof code === 'number')
        return { text: parsed['output'], exitCode: code, failed };
    } catch {
      // not JSON after all: the text as it is
    }
  }
  return { text: raw, exitCode: null, failed };
}

/** The end of a command Codex recorded (`item_completed` CommandExecution, `exec_command_end`, `patch_apply_end`). */
export function commandEnd(
  payload: Record<string, unknown>,
): { callId: string; exitCode: number | null; failed: boolean } | null {
  const type = str(payload['type']);
  if (type === 'item_completed') {
    const item = rec(payload['item']);
    if (str(item['type']) !== 'CommandExecution' || str(item['id']) === '') return null;
    const code = item['exit_code'];
    return {
      callId: str(item['id']),
      exitCode: typeof code === 'number' ? code : null,
      failed: str(item['status']) === 'failed',
    };
  }
  if (type === 'exec_command_end' && str(payload['call_id']) !== '') {
    const code = payload['exit_code'];
    return {
      callId: str(payload['call_id']),
      exitCode: typeof code === 'number' ? code : null,
      failed: false,
    };
  }
  if (type === 'patch_apply_end' && str(payload['call_id']) !== '')
    return { callId: str(payload['call_id']), exitCode: null, failed: payload['success'] === false };
  return null;
}
