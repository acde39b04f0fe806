/**
 * A run the user reports: a prompt that pastes a terminal's line (`❯ ./run.sh`, `$ npm test`) and what
 * it printed. It is evidence like a run of the agent's own — the user ran it in the project — so a
 * failure it shows is a failure of that purpose until a later run of it passes.
 */

/** A shell prompt and the command after it, as terminals print them. */
const PROMPT_LINE = /^\s*(?:[❯➜$%#]|\S+@\S+[:\s][^\n]*?[$%#])\s+([./\w][^\n]{1,200})$/;
/** What makes pasted output a failure rather than a listing. */
const FAILED =
  /\b(?:error|failed|failure|fatal|exception|traceback|panic|cannot|not found|exit (?:code|status) [1-9])\b|✖|✗|\bFAIL\b/i;

export interface ReportedRun {
  command: string;
  output: string;
}

/** The first pasted command line of a prompt and the output below it, when that output shows a failure. */
export function reportedRun(prompt: string): ReportedRun | null {
  const lines = prompt.replace(/\r\n?/g, '\n').split('\n');
  for (let i = 0; i < lines.length; i++) {
    const m = PROMPT_LINE.exec(lines[i] ?? '');
    if (!m?.[1]) continue;
    const rest: string[] = [];
    for (const line of lines.slice(i + 1)) {
      if (PROMPT_LINE.test(line)) break;
      rest.push(line);
    }
    const output = rest.join('\n').trim();
    if (output === '' || !FAILED.test(output)) return null;
    return { command: m[1].trim(), output };
  }
  return null;
}
