/**
 * One shell command of a turn as a run (normalised, how it went) and, when it failed, as an error:
 * what must run again without it to resolve it, and the command its output suggests. Also what
 * resolved each error later in the turn.
 */
import { mainPart } from './canonical-command.ts';
import {
  classifyCommand,
  describeCounts,
  errorHeadline,
  hintOf,
  outputLooksFailed,
  testCounts,
  type CommandKind,
} from './commands.ts';
import { clip } from './text.ts';

export interface CommandRun {
  command: string;
  /** The normalised command (`npm test` for `npm test -- x.test.ts 2>&1 | tail`). */
  canonical: string;
  kind: CommandKind;
  ok: boolean;
  /** "12 passed, 1 failed" for tests, else the error headline when it failed. */
  detail: string;
  /** What it printed (clipped), for ports and hints. */
  output: string;
  index: number;
  at: number;
}

export interface TurnError {
  /** The command, or "Tool path". */
  what: string;
  message: string;
  /** A command the output suggests (`git push --set-upstream origin x`, `npx playwright install`). */
  hint: string;
  fixed: boolean;
  /** Where in the turn it was resolved (the next run of the same command that did not fail so). */
  fixedAt: number | null;
  /** A tool hiccup (a failed read or search, an edit whose old text was not found), not a real error. */
  minor: boolean;
  index: number;
  /** `cmd:<canonical>`, `file:<path>` or `tool:<name>`: what must succeed again to resolve it. */
  key: string;
}

/**
 * A command that ran: `failed` when the host reported a failure (non-zero exit), else its output
 * is read for the failures a pipe hides.
 */
export function commandRun(
  command: string,
  output: string,
  at: { index: number; at: number },
  failed: boolean,
  interrupted = false,
): { run: CommandRun; error: TurnError | null } {
  const part = mainPart(command);
  const kind = part?.kind ?? classifyCommand(command);
  const canonical = part?.canonical ?? command.trim();
  const ok = !failed && !interrupted && !outputLooksFailed(kind, output, command);
  const headline = errorHeadline(output) || 'failed';
  const counts = kind === 'test' ? describeCounts(testCounts(output)) : '';
  const run: CommandRun = {
    command,
    canonical,
    kind,
    ok,
    detail: kind === 'test' ? counts || (ok ? '' : headline) : ok ? '' : headline,
    output: clip(output, 2000),
    ...at,
  };
  if (ok) return { run, error: null };
  return {
    run,
    error: {
      what: clip(command, 80),
      message: headline,
      hint: hintOf(output),
      fixed: false,
      fixedAt: null,
      minor: failed && kind === 'inspect',
      index: at.index,
      key: `cmd:${canonical}`,
    },
  };
}

/**
 * Where each error was resolved: a command when it later ran without that error (it passed, or
 * failed differently: the next problem is its own error); a failed edit when the file was later
 * edited; a failed read or other tool call when the same tool later worked.
 */
export function resolveErrors(
  errors: TurnError[],
  commands: readonly CommandRun[],
  fileOk: ReadonlyMap<string, readonly number[]>,
  toolOk: ReadonlyMap<string, readonly number[]>,
): void {
  for (const err of errors) {
    const after = (list: readonly number[] | undefined) => list?.find((i) => i > err.index) ?? null;
    if (err.key.startsWith('file:')) err.fixedAt = after(fileOk.get(err.key.slice(5)));
    else if (err.key.startsWith('tool:')) err.fixedAt = after(toolOk.get(err.key));
    else {
      const resolving = commands.find(
        (c) =>
          c.index > err.index &&
          `cmd:${c.canonical}` === err.key &&
          (c.ok || errorHeadline(c.output) !== err.message),
      );
      err.fixedAt = resolving?.index ?? null;
    }
    err.fixed = err.fixedAt !== null;
  }
}
