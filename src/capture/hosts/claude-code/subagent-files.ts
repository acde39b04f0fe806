/** Where newer Claude Code versions write a session's subagents: `<session>/subagents/agent-<id>.jsonl`. */
import { readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** Claude Code's subagent files of the session at `path` (none: the folder is not there). */
export function claudeSubagentFiles(path: string): string[] {
  const folder = join(dirname(path), basename(path, '.jsonl'), 'subagents');
  try {
    return readdirSync(folder)
      .filter((name) => name.endsWith('.jsonl'))
      .sort()
      .map((name) => join(folder, name));
  } catch {
    return [];
  }
}
