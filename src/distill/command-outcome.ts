/**
 * How each part of a shell line went, from evidence: the exit status the host reported (a non-zero
 * exit arrives as a tool failure), which parts that status speaks for (`a && b` failing stops at the
 * part that failed; a part piped into `tail` or followed by `;` or `||` hides its own status), and what
 * each part's output shows — a test runner's summary, compiler and linter diagnostics, a crash.
 * Not failures: a probe whose non-zero exit is its answer (`grep` found nothing, `test -f`, `git diff
 * --quiet`, `ls` of a missing path), `git commit` with nothing to commit, a check that checked nothing,
 * a call the user rejected or interrupted, and a failure the assistant said it expected.
 */
import type { CommandPart } from './canonical-command.ts';
import { commitOutput } from './commit-commands.ts';
import { diagnostics } from './diagnostics.ts';
import { nothingTested, testSummary, type TestSummary } from './test-summary.ts';
import { stripAnsi } from './terminal-output.ts';

export type Outcome =
  | 'passed'
  | 'failed'
  /** A part after the one that failed in an `&&` chain. */
  | 'not run'
  /** Nothing says how it went (its status hidden, no evidence). */
  | 'unknown'
  /** A look whose non-zero exit is its answer. */
  | 'probe'
  /** `git commit` with nothing to commit. */
  | 'nothing'
  /** The assistant said it expected this to fail. */
  | 'expected'
  /** A check that checked nothing (no files processed, no tests matched). */
  | 'inconclusive'
  | 'interrupted';

export interface JudgedPart extends CommandPart {
  outcome: Outcome;
  summary: TestSummary | null;
}

/** How the host says the command ended. */
export type Exit = 'ok' | 'failed' | 'interrupted';

type Evidence = 'failed' | 'passed' | 'nothing' | 'inconclusive' | 'none';

const BUILD_FAILED =
  /(?:^|\s)error(?:\s+TS\d+|\[E\d+\])?:|^\s*\d+:\d+\s+error\b|\[ERROR\]|\bERR!|^npm error\b|✖ \d+ problems? \(\d+ errors?|Found [1-9]\d* errors?\b|^[1-9]\d* issues?:|\b(?:build|compilation) failed\b|\bBUILD FAILED\b|^\*\* \(\w*Error\)|\bERROR task failed\b|^make: \*\*\*|\bexited with (?:code|status) [1-9]|\bELIFECYCLE\b|Command failed with exit code [1-9]|Some errors were emitted|\b[1-9]\d* offenses? detected|Code style issues found|\bmods\/funs, found [1-9]/im;
/** A linter's summary that it found nothing to report. */
const LINT_CLEAN =
  /\b0 remaining\b|All checks passed|\bmods\/funs, found no issues\b|\bno offenses detected\b/i;
const STRONG =
  /Traceback \(most recent call last\)|^\w*(?:Error|Exception): |\bcommand not found\b|\bnpm ERR!|^npm error\b|^fatal: |^error: |panicked at|^panic: |Segmentation fault|\bline \d+: .*(?:unbound variable|command not found|No such file or directory|Permission denied|syntax error)|\bno such file or directory\b|^ERROR:|\bcannot find module\b|\bno matches found\b/im;
const NOTHING_PROCESSED =
  /\bNo files were processed\b|\bNo files matching\b|\bno files to (?:check|lint|format)\b|\bNo inputs were found\b/i;

/**
 * Commands that only set up the shell (`source ~/.cargo/env`, `export X=1`, `nvm use 20`): quiet when
 * they work, so an error in the line's output is another part's unless it names one of these.
 */
const SHELL_SETUP =
  /^(?:source|\.|export|set|unset|ulimit|alias|umask|shopt|nvm|conda|pyenv|rbenv|asdf|mise|direnv)$/;

/** A part that only sets up the shell (`conda activate x`, `mise use node@20`, not `mise run test`). */
const setsUpShell = (p: CommandPart) =>
  SHELL_SETUP.test(p.tool) &&
  (!/^(?:nvm|conda|pyenv|rbenv|asdf|mise|direnv)$/.test(p.tool) ||
    /^\S+ (?:use|activate|shell|local|global|allow|deactivate)\b/.test(p.raw.replace(/^\S*=\S*\s+/, '')));

/** The output names one of the part's arguments (`.venv/bin/activate`), quotes removed. */
const namesArgument = (p: CommandPart, text: string) =>
  p.raw
    .split(/\s+/)
    .slice(1)
    .map((w) => w.replace(/^["']|["']$/g, ''))
    .some((w) => w.length >= 3 && !w.startsWith('-') && text.includes(w));

function evidenceOf(p: CommandPart, text: string, summary: TestSummary | null): Evidence {
  const checked = (): Evidence => {
    // A linter's own all-clear: ruff's, Biome's, Credo's (`780 mods/funs, found no issues.`), RuboCop's.
    if (LINT_CLEAN.test(text)) return 'passed';
    if (diagnostics(text).some((d) => d.severity === 'error') || BUILD_FAILED.test(text)) {
      return NOTHING_PROCESSED.test(text) && !/\d+:\d+/.test(text) ? 'inconclusive' : 'failed';
    }
    return NOTHING_PROCESSED.test(text) ? 'inconclusive' : 'none';
  };
  switch (p.purpose) {
    case 'test':
      if (summary) return summary.failed > 0 ? 'failed' : summary.passed > 0 ? 'passed' : 'inconclusive';
      if (nothingTested(text, null)) return 'inconclusive';
      return /^\s*(?:FAIL|--- FAIL)\b|panicked at|Traceback \(most recent/m.test(text) ? 'failed' : 'none';
    case 'gate':
      // A gate runs the tests and the checks: a failing summary or diagnostic fails it.
      if (summary && summary.failed > 0) return 'failed';
      return checked();
    case 'build':
    case 'typecheck':
    case 'lint':
    case 'format':
      return checked();
    case 'commit':
      // git's own line for the commit it made wins over a later `git status` saying all is clean.
      if (commitOutput(text)) return 'passed';
      return /\bnothing (?:to commit|added to commit)\b|\bno changes added to commit\b/i.test(text)
        ? 'nothing'
        : 'none';
    case 'push':
      if (/error: failed to push|! \[(?:remote )?rejected\]|^fatal: /m.test(text)) return 'failed';
      return /->\s|Everything up-to-date/.test(text) ? 'passed' : 'none';
    case 'inspect':
      return 'none';
    default:
      // Setting up the shell is blamed only by an error that names what it set up (the file sourced).
      if (setsUpShell(p)) return STRONG.test(text) && namesArgument(p, text) ? 'failed' : 'none';
      return STRONG.test(text) ? 'failed' : 'none';
  }
}

/** The part an error line names (`cp: x: No such file or directory` names `cp`). */
function namedBy(parts: readonly CommandPart[], text: string): number {
  for (let i = parts.length - 1; i >= 0; i--) {
    const head = (parts[i]?.canonical.split(' ')[0] ?? '').split('/').pop() ?? '';
    if (head.length >= 2 && new RegExp(`^${head.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: `, 'm').test(text))
      return i;
  }
  return -1;
}

/** The output shows a task runner starting this part's task. */
function echoes(p: CommandPart, text: string): boolean {
  if (p.task === '') return false;
  const t = p.task.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^\\[${t}\\] |^> (?:\\S+@\\S+ )?${t}\\s*$`, 'm').test(text);
}

const PREDICT_MODAL =
  /\b(?:should|would|will|must|(?:i |we )?expect(?:ed|s)?(?: (?:it|this|them|that|the \w+))? to|(?:is|are) expected to|going to)\s+(?:(?:now|still|first|initially|correctly|definitely|actually)\s+)?(?:fail|error(?: out)?|break|panic|be rejected|be red|not (?:compile|pass|build|type-?check))\b/i;
const PREDICT_CHECK =
  /\b(?:see|watch|confirm|verify|check|prove|show|ensure|make sure)(?: that)? (?:it|this|they|the (?:new |old |same )?(?:test|tests|check|build|code|command|spec|suite|lint|linter)s?)(?: \w+)? (?:fails?|failing|errors?|breaks?)\b/i;
const NEGATED =
  /\b(?:should|would|will|must)(?:n't| not| no longer| never)\b|\bwon't\b|\bshouldn't\b|\bno longer\b/i;

/**
 * The assistant's words right before a command predict that it fails ("this should fail on the old
 * code", "let me verify the new test fails first"): a failure it expected is not a failure.
 */
export function predictsFailure(text: string): boolean {
  return predictingSentence(text) !== '';
}

/** The sentence of `text` that predicts the next command fails, or ''. */
export function predictingSentence(text: string): string {
  return (
    text
      .split(/(?<=[.!?])\s+|\n+/)
      .find((s) => (PREDICT_MODAL.test(s) || PREDICT_CHECK.test(s)) && !NEGATED.test(s))
      ?.trim() ?? ''
  );
}

/** Judge each part of a shell line from the host's exit report and the output. */
export function judgeParts(
  parts: readonly CommandPart[],
  output: string,
  exit: Exit,
  expectFailure = false,
): JudgedPart[] {
  const text = stripAnsi(output);
  const summary = testSummary(text);
  const evidence = parts.map((p) =>
    evidenceOf(p, text, p.purpose === 'test' || p.purpose === 'gate' ? summary : null),
  );
  const judged = (p: CommandPart, outcome: Outcome): JudgedPart => ({
    ...p,
    outcome,
    summary: p.purpose === 'test' || p.purpose === 'gate' ? summary : null,
  });
  if (exit === 'interrupted') return parts.map((p) => judged(p, 'interrupted'));
  /** Only `&&` (or a pipe into a filter) between part i and part j. */
  const chained = (i: number, j: number) =>
    parts.slice(i, j).every((p) => p.joiner === '&&' || (p.joiner === '|' && p.filtered));
  const failure = (i: number): Outcome => {
    const p = parts[i] as CommandPart;
    const e = evidence[i];
    if (p.purpose === 'inspect') return 'probe';
    if (e === 'nothing') return 'nothing';
    if (e === 'inconclusive') return 'inconclusive';
    // A server run in the foreground is stopped by the host's time limit: it ran, it did not fail.
    if (
      p.purpose === 'run' &&
      e !== 'failed' &&
      /\btimed out\b|\bwas killed\b|\bSIG(?:TERM|INT|KILL)\b/i.test(text)
    )
      return 'inconclusive';
    return expectFailure ? 'expected' : 'failed';
  };
  if (exit === 'failed') {
    // The part that failed: one whose own kind of evidence says so (a runner's summary, diagnostics, a
    // rejected push), else the one an error line names, else the first that printed a crash, else
    // the last (an `&&` chain stops at its failure).
    const own = (i: number) =>
      !/^(?:other|run|install|uninstall|migrate|deploy)$/.test(parts[i]?.purpose ?? '');
    const telling = (e: Evidence | undefined) => e === 'failed' || e === 'nothing' || e === 'inconclusive';
    // Task runners echo each task as it starts (`[lint] $ …`, `> lint`): the last one echoed failed.
    const echoed = parts.map((p) => echoes(p, text));
    const lastEchoed = echoed.lastIndexOf(true);
    let f = lastEchoed >= 0 && chained(0, lastEchoed) && evidence[lastEchoed] !== 'passed' ? lastEchoed : -1;
    if (f < 0) f = evidence.findIndex((e, i) => telling(e) && own(i));
    if (f < 0) f = namedBy(parts, text);
    if (f < 0) f = evidence.findIndex((e) => telling(e));
    if (f < 0) f = parts.length - 1;
    return parts.map((p, i) => {
      if (i === f) return judged(p, failure(i));
      if (i < f && chained(i, f)) return judged(p, 'passed');
      if (i > f && chained(f, i)) return judged(p, 'not run');
      const e = evidence[i];
      return judged(p, e === 'failed' ? failure(i) : e === 'passed' ? 'passed' : 'unknown');
    });
  }
  return parts.map((p, i) => {
    const e = evidence[i];
    // A part after an `||` ran only if what came before it failed: a clean exit does not say it ran.
    const reached = parts.slice(0, i).every((q) => q.joiner !== '||');
    const visible =
      reached && !p.filtered && chained(i, parts.length - 1) && parts[parts.length - 1]?.joiner !== '&';
    if (e === 'nothing') return judged(p, 'nothing');
    if (e === 'inconclusive') return judged(p, 'inconclusive');
    // A runner's own summary wins over a visible exit 0; other evidence of failure only when the
    // exit status was hidden (a pipe, `;`, `||`).
    if (e === 'failed' && (!visible || (summary !== null && (p.purpose === 'test' || p.purpose === 'gate'))))
      return judged(p, failure(i));
    if (e === 'passed' || visible || p.filtered) return judged(p, 'passed');
    return judged(p, 'unknown');
  });
}
