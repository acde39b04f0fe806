/**
 * One shell command of a turn as runs: each simple command of the line judged on its own (its
 * purpose, key, place and outcome), the line's main part, and — for each part that failed — an error:
 * its telling line, class, the command its output suggests, and the key a later run must pass under
 * to resolve it. Also where, later in the turn, each error was resolved.
 */
import { commandParts, type CommandPart, type Where } from './canonical-command.ts';
import {
  judgeParts,
  predictingSentence,
  type Exit,
  type JudgedPart,
  type Outcome,
} from './command-outcome.ts';
import { PRIORITY, type Purpose } from './commands.ts';
import {
  diagnostics,
  errorClass,
  errorHeadline,
  hintOf,
  tellingLine,
  type ErrorClass,
} from './diagnostics.ts';
import { stripAnsi } from './terminal-output.ts';
import { clip } from './text.ts';

export interface PartRun extends JudgedPart {
  index: number;
  at: number;
  /** The line as a whole. */
  command: string;
  /** "12 passed, 1 failed" for tests; the telling line when it failed. */
  detail: string;
  /** The telling line of its failure ('' unless it failed). */
  message: string;
}

export interface CommandRun {
  command: string;
  /** The normalised command of its main part (`npm test` for `npm test -- x.test.ts 2>&1 | tail`). */
  canonical: string;
  /** The main part's purpose. */
  purpose: Purpose;
  /** The main part's key. */
  key: string;
  /** Every simple command of the line, judged. */
  parts: PartRun[];
  /** Its main part passed. */
  ok: boolean;
  outcome: Outcome;
  where: Where;
  /** "12 passed, 1 failed" for tests, else the telling line when it failed. */
  detail: string;
  /** What it printed (escape sequences removed, clipped), for ports, hints and fixes. */
  output: string;
  index: number;
  at: number;
  /** What the assistant said right before it that predicted it fails ("this should fail on the old code"). */
  predicted?: string;
}

export interface TurnError {
  /** The command, or "Tool path". */
  what: string;
  message: string;
  /** A command the output suggests (`git push --set-upstream origin x`, `npx playwright install`). */
  hint: string;
  fixed: boolean;
  /** Where in the turn it was resolved. */
  fixedAt: number | null;
  /** A tool hiccup (a failed read or search, an edit whose old text was not found), not a real error. */
  minor: boolean;
  index: number;
  /** `purpose:<key>`, `file:<path>` or `tool:<name>`: what must succeed again to resolve it. */
  key: string;
  /** For a command: the normalised failing part (`npm test`). */
  canonical?: string;
  /** For a command: what ran (`tauri` of `npx tauri init`). */
  tool?: string;
  purpose?: Purpose;
  target?: string;
  where?: Where;
  /** The project's script it ran (`assets/build.js`), when an interpreter ran one. */
  script?: string;
  /** The rule or code the error names. */
  rule?: string;
  /** The offending line of code the tool showed. */
  snippet?: string;
  /** The failing test, for a test run. */
  test?: string;
  cls?: ErrorClass;
}

const countsText = (p: JudgedPart) =>
  p.summary
    ? [`${p.summary.passed} passed`, p.summary.failed > 0 ? `${p.summary.failed} failed` : '']
        .filter(Boolean)
        .join(', ')
    : '';

function pickMain(parts: readonly PartRun[]): PartRun | null {
  const failed = parts.find((p) => p.outcome === 'failed');
  if (failed) return failed;
  let best: PartRun | null = null;
  for (const p of parts)
    if (best === null || PRIORITY.indexOf(p.purpose) < PRIORITY.indexOf(best.purpose)) best = p;
  return best;
}

/** The paths a run's target lists (`lib/a.ex lib/b.ex`); none for a whole run or inline code. */
const targetPaths = (target: string) => (target === '' || target === 'inline' ? [] : target.split(' '));
/** One file named two ways: the same path, or one the other's end (`lib/a.ex`, `/repo/lib/a.ex`). */
export const samePath = (a: string, b: string) => a === b || a.endsWith(`/${b}`) || b.endsWith(`/${a}`);

/**
 * What a check over several files failed for: the files of its target its diagnostics name (a lint
 * of three files that found a problem in one failed for that one, and a later pass over that one
 * alone closes it). The target as given when the diagnostics name none of its files, or one outside.
 */
export function failingTarget(target: string, output: string): string {
  const paths = targetPaths(target);
  if (paths.length < 2) return target;
  const files = [...new Set(diagnostics(output).map((d) => d.file))].filter((f) => f !== '');
  if (files.length === 0 || !files.every((f) => paths.some((p) => samePath(p, f)))) return target;
  return paths.filter((p) => files.some((f) => samePath(p, f))).join(' ');
}

/** Whether a run over `later`'s target ran what `target` names (all of it, or each of its paths). */
export function targetCovers(later: string, target: string): boolean {
  if (later === '' || later === target) return true;
  const paths = targetPaths(later);
  const wanted = targetPaths(target);
  return wanted.length > 0 && wanted.every((w) => paths.includes(w));
}

/**
 * A command that ran. `exit`: how the host says it ended (a failure event is a non-zero exit).
 * `said`: what the assistant said right before running it (a failure it predicted is expected).
 */
export function commandRun(
  command: string,
  output: string,
  at: { index: number; at: number },
  exit: Exit,
  options: { root?: string; said?: string; cwd?: string } = {},
): { run: CommandRun; errors: TurnError[] } {
  const parts: CommandPart[] = commandParts(command, options.root ?? '', options.cwd ?? '');
  const clean = stripAnsi(output);
  const predicted = predictingSentence(options.said ?? '');
  const judged = judgeParts(parts.length > 0 ? parts : commandParts('true'), clean, exit, predicted !== '');
  const errors: TurnError[] = [];
  const runs: PartRun[] = judged.map((judgedPart) => {
    const p =
      judgedPart.outcome === 'failed'
        ? { ...judgedPart, target: failingTarget(judgedPart.target, clean) }
        : judgedPart;
    let detail = countsText(p);
    let message = '';
    if (p.outcome === 'failed') {
      const t = tellingLine(clean, p.purpose);
      message = t.line || errorHeadline(clean) || 'failed';
      detail = p.purpose === 'test' && detail !== '' ? detail : message;
      errors.push({
        what: clip(command, 80),
        message,
        hint: hintOf(clean),
        fixed: false,
        fixedAt: null,
        minor: false,
        index: at.index,
        key: `purpose:${p.key}`,
        canonical: p.canonical,
        tool: p.tool,
        purpose: p.purpose,
        target: p.target,
        where: p.where,
        ...(p.script ? { script: p.script } : {}),
        rule: t.rule,
        snippet: t.snippet,
        ...(t.test ? { test: t.test } : {}),
        cls: errorClass(t, p.purpose),
      });
    }
    return { ...p, ...at, command, detail, message };
  });
  const main = pickMain(runs);
  const outcome: Outcome = main?.outcome ?? 'unknown';
  return {
    run: {
      command,
      canonical: main?.canonical ?? command.trim(),
      purpose: main?.purpose ?? 'other',
      key: main?.key ?? 'other:',
      parts: parts.length > 0 ? runs : [],
      ok: outcome === 'passed' || outcome === 'unknown' || outcome === 'nothing',
      outcome,
      where: main?.where ?? 'project',
      detail: main?.detail ?? '',
      output: clean.length <= 4000 ? clean : `${clean.slice(0, 2000)}\n…\n${clean.slice(-2000)}`,
      ...at,
      ...(predicted ? { predicted } : {}),
    },
    errors,
  };
}

/** Every part run of the turn, in order. */
export const partRuns = (commands: readonly CommandRun[]): PartRun[] => commands.flatMap((c) => c.parts);

/** A tool's subcommand: the plain word right after the tool (`init` of `npx tauri init …`), or ''. */
function subcommand(p: Pick<PartRun, 'canonical' | 'tool'>): string {
  const words = p.canonical.split(' ');
  const at = words.indexOf(p.tool.split(' ').pop() ?? '');
  const next = at >= 0 ? (words[at + 1] ?? '') : '';
  return /^[a-z][\w:-]*$/.test(next) ? next : '';
}

/**
 * What a command is called: a tool of no known purpose by its words up to its subcommand (`npx tauri
 * init` for `npx tauri init --app-name …`), every other by its normal form.
 */
export function commandName(p: Pick<PartRun, 'canonical' | 'tool' | 'purpose'>): string {
  const sub = p.purpose === 'other' ? subcommand(p) : '';
  if (sub === '') return p.canonical;
  const words = p.canonical.split(' ');
  return words.slice(0, words.indexOf(p.tool.split(' ').pop() ?? '') + 2).join(' ');
}

/**
 * Two spellings of one command of a tool: the same text, or the same subcommand given other values
 * (`tauri init --app-name "A b"`, then `tauri init --app-name a-b`).
 */
export const sameCommand = (
  a: Pick<PartRun, 'canonical' | 'tool'>,
  b: Pick<PartRun, 'canonical' | 'tool'>,
): boolean =>
  a.canonical === b.canonical ||
  (a.tool === b.tool && subcommand(a) !== '' && subcommand(a) === subcommand(b));

/** Whether a later run of the same key covers what a failing part ran (the same target, or all of it). */
export function covers(
  later: Pick<PartRun, 'target' | 'key' | 'script' | 'purpose' | 'canonical' | 'tool'>,
  failed: {
    key: string;
    target?: string;
    script?: string;
    purpose?: Purpose;
    canonical?: string;
    tool?: string;
  },
): boolean {
  const key = failed.key.replace(/^purpose:/, '');
  const target = failed.target ?? '';
  // The same script of the project run from another folder (`node assets/build.js`, then `cd assets
  // && node build.js`) is a run of the same thing, whatever folder keyed each.
  if (failed.script && later.script === failed.script && later.purpose === failed.purpose) return true;
  // Inline code that failed is retried as a program of its own, wherever it runs.
  if (target === 'inline') return later.key.replace(/@.*$/, '') === key.replace(/@.*$/, '');
  if (later.key !== key) return false;
  // A tool of no known purpose is keyed by its name: another of its commands (`bd sync` after `bd
  // ready` failed) is not a run of the one that failed.
  if (
    later.purpose === 'other' &&
    failed.canonical !== undefined &&
    !sameCommand(later, { canonical: failed.canonical, tool: failed.tool ?? '' })
  )
    return false;
  return targetCovers(later.target, target);
}

/**
 * Where each error was resolved: a command error when a later run of its key covering its target
 * passed, or failed without that error (the next problem is its own error); a failed edit when the
 * file was later edited; a failed read or other tool call when the same tool later worked.
 */
export function resolveErrors(
  errors: TurnError[],
  commands: readonly CommandRun[],
  fileOk: ReadonlyMap<string, readonly number[]>,
  toolOk: ReadonlyMap<string, readonly number[]>,
): void {
  const runs = partRuns(commands);
  for (const err of errors) {
    const after = (list: readonly number[] | undefined) => list?.find((i) => i > err.index) ?? null;
    if (err.key.startsWith('file:')) err.fixedAt = after(fileOk.get(err.key.slice(5)));
    else if (err.key.startsWith('tool:')) err.fixedAt = after(toolOk.get(err.key));
    else {
      const resolving = runs.find(
        (r) =>
          r.index > err.index &&
          covers(r, err) &&
          (r.outcome === 'passed' || (r.outcome === 'failed' && r.message !== err.message)),
      );
      err.fixedAt = resolving?.index ?? null;
    }
    err.fixed = err.fixedAt !== null;
  }
}
