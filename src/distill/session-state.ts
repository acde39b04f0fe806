/**
 * Where the session left the repository, from what git itself printed: the branch, the last commit and
 * whether it was pushed, the pull requests the session opened or looked at, and what was left
 * uncommitted (a `git status` run after the last change is the truth; otherwise the files changed
 * since the last commit). Carried from turn to turn in the rolling summary as one "State: …" line.
 */
import { testsRanBy } from './purpose-state.ts';
import type { TurnAnalysis } from './analyse-turn.ts';
import { clip, isDocPath as isDoc, isScratchPath, unique } from './text.ts';

export interface SessionState {
  branch: string;
  commit: string;
  subject: string;
  pushed: boolean;
  prs: string[];
  /** Files changed and not committed; null when nothing says. */
  uncommitted: string[] | null;
  /**
   * How each check last went: `passed`, `failed`, `stale` (code changed after it passed) or `changed`
   * (code changed after it failed: not known to fail any more).
   */
  checks: Partial<Record<CheckKind, CheckState>>;
  /** Code (not only docs) was changed in the session. */
  codeChanged: boolean;
  /** Files of the session the user says they removed themselves. */
  removedByUser: string[];
  /**
   * Whether the session works in a git repository: the host's record of the branch, a git command that
   * worked or said there is none, a commit. Null while nothing says: then changed files are still
   * "uncommitted", as they are in the usual case.
   */
  repo: boolean | null;
}

const CHECK_KINDS = ['test', 'typecheck', 'lint', 'build', 'gate'] as const;
type CheckKind = (typeof CHECK_KINDS)[number];
type CheckState = 'passed' | 'failed' | 'stale' | 'changed';
const CHECK_NAMES: Record<CheckKind, string> = {
  test: 'tests',
  typecheck: 'typecheck',
  lint: 'lint',
  build: 'build',
  // The project's own check command (`npm run check`): what CI runs, often typecheck and lint at once.
  gate: 'gate',
};

const EMPTY: SessionState = {
  branch: '',
  commit: '',
  subject: '',
  pushed: false,
  prs: [],
  uncommitted: null,
  checks: {},
  codeChanged: false,
  removedByUser: [],
  repo: null,
};
/** Lists of files git (or a tool that reads them) leaves out: they can change what a linter sees, not what a test does. */
const isIgnoreList = (path: string) =>
  /(?:^|\/)\.(?:git|docker|npm|prettier|eslint)ignore$|(?:^|\/)\.gitattributes$/.test(path);
const PREFIX = 'State: ';
const MAX_LISTED = 30;

/** Files `git status` (long or short format) reports as changed or untracked; null when it is not one. */
export function statusFiles(command: string, output: string): string[] | null {
  if (!/\bgit\s+(?:-C\s+\S+\s+)?status\b/.test(command)) return null;
  if (/nothing to commit|working tree clean/i.test(output)) return [];
  const files: string[] = [];
  for (const line of output.split('\n')) {
    const short = /^[ MADRCU?!]{2} (?:.* -> )?(\S.*)$/.exec(line);
    const long = /^\s+(?:modified|new file|deleted|renamed|typechange):\s+(?:.* -> )?(\S.*)$/.exec(line);
    const path = (long?.[1] ?? short?.[1] ?? '').trim();
    if (path !== '' && !files.includes(path)) files.push(path);
  }
  // Untracked files: git's indented list under the heading, after its "(use …)" hint and whether or not
  // a blank line comes between; the list ends at a blank or unindented line (git's closing sentence).
  const lines = output.split('\n');
  const heading = lines.findIndex((l) => /^Untracked files:\s*$/.test(l));
  if (heading >= 0) {
    let i = heading + 1;
    while (i < lines.length && /^\s+\(.*\)\s*$/.test(lines[i] ?? '')) i++;
    if ((lines[i] ?? '').trim() === '') i++;
    for (; i < lines.length; i++) {
      const line = lines[i] ?? '';
      if (line.trim() === '' || !/^\s/.test(line)) break;
      const path = line.trim();
      if (!path.startsWith('(') && !files.includes(path)) files.push(path);
    }
  }
  return files;
}

/** The branch a command's run shows the repository on, or ''. */
function branchOf(command: string, output: string): string {
  const created = /\bgit\s+(?:checkout\s+-[bB]|switch\s+-[cC])\s+([^\s;&|]+)/.exec(command)?.[1];
  if (created) return created;
  const onBranch = /^On branch (\S+)/m.exec(output)?.[1];
  if (onBranch) return onBranch;
  if (/\bgit\s+(?:branch\s+--show-current|rev-parse\s+--abbrev-ref\s+HEAD)\b/.test(command)) {
    const first = output.trim().split('\n')[0]?.trim() ?? '';
    if (/^[\w./-]+$/.test(first) && first !== 'HEAD') return first;
  }
  return '';
}

/** The state after a turn, from the state before it. */
export function nextState(previous: SessionState | null, a: TurnAnalysis): SessionState {
  const s: SessionState = {
    ...(previous ?? EMPTY),
    prs: [...(previous?.prs ?? [])],
    checks: { ...(previous?.checks ?? {}) },
    removedByUser: [...(previous?.removedByUser ?? [])],
  };
  let uncommitted = s.uncommitted === null ? null : new Set(s.uncommitted);
  // The host's word on the repository (its transcript records the branch with each prompt).
  if (a.hostBranch !== null && a.hostBranch !== '') {
    s.repo = true;
    // A detached HEAD is on no branch.
    if (s.branch === '' && a.hostBranch !== 'HEAD') s.branch = a.hostBranch;
  } else if (a.hostBranch === '' && s.repo === null) s.repo = false;
  const lastCommit = a.commits[a.commits.length - 1];
  const steps = [
    ...a.commands.map((c) => ({ index: c.index, run: c })),
    ...a.edits.map((e) => ({ index: e.index, edit: e.path })),
    ...a.commits.map((c) => ({ index: c.index, commit: c })),
    ...a.removed.map((r) => ({ index: r.index, removed: r.path, byUser: r.byUser === true })),
    ...a.moved.map((m) => ({ index: m.index, moved: m })),
  ]
    // A chain that commits and pushes (`git commit … && git push`) is one run and one commit at the same
    // index: the commit comes first, so the push after it counts.
    .sort((x, y) => x.index - y.index || Number('commit' in y) - Number('commit' in x));
  const committedAt = new Set(a.commits.map((c) => c.index));
  for (const step of steps) {
    // A file the session made and then removed is no longer a change it leaves.
    if ('removed' in step && step.removed !== undefined) {
      uncommitted?.delete(step.removed);
      if (step.byUser) s.removedByUser = unique([...s.removedByUser, step.removed]);
      continue;
    }
    // A renamed file is a change the session leaves under its new name.
    if ('moved' in step && step.moved !== undefined) {
      uncommitted?.delete(step.moved.from);
      (uncommitted ??= new Set()).add(step.moved.to);
      continue;
    }
    if ('edit' in step && step.edit !== undefined) {
      // A file outside the project (an absolute path: the project's own are relative) is none of the
      // repository's changes: `~/.config/app/config.json` is never "left uncommitted".
      if (/^(?:\/|~|[A-Za-z]:[\\/]|\\\\)/.test(step.edit)) continue;
      (uncommitted ??= new Set()).add(step.edit);
      s.removedByUser = s.removedByUser.filter((f) => f !== step.edit);
      const touched = isIgnoreList(step.edit)
        ? (['lint', 'gate'] as const)
        : isDoc(step.edit)
          ? []
          : CHECK_KINDS;
      if (touched === CHECK_KINDS) s.codeChanged = true;
      for (const k of touched)
        if (s.checks[k] === 'passed') s.checks[k] = 'stale';
        else if (s.checks[k] === 'failed') s.checks[k] = 'changed';
      continue;
    }
    if ('commit' in step && step.commit !== undefined) {
      const c = step.commit;
      s.repo = true;
      // A quiet commit (`git commit -q`) prints no hash: it is still the last commit.
      s.commit = c.hash;
      s.subject = c.message;
      s.pushed = false;
      if (c.branch !== '') s.branch = c.branch;
      // What it staged by name is committed; staged as a whole (or unknown), everything is.
      if (c.staged.length > 0 && uncommitted) for (const p of c.staged) uncommitted.delete(p);
      else uncommitted = new Set();
      continue;
    }
    const run = 'run' in step ? step.run : undefined;
    if (!run || run.where === 'scratch') continue;
    if (/\bgit\b/.test(run.command)) {
      if (/not a git repository/i.test(run.output)) s.repo = false;
      else if (run.ok && run.parts.some((p) => /^git\b/.test(p.canonical))) s.repo = true;
    }
    // A check that checked nothing ("0 runs, 0 assertions") says nothing of how the code stands.
    if ((CHECK_KINDS as readonly string[]).includes(run.purpose) && run.outcome !== 'inconclusive')
      s.checks[run.purpose as CheckKind] = run.ok ? 'passed' : 'failed';
    // A check that ran the test suite and showed it passing (a gate) is a test run too.
    if (run.where === 'project' && run.parts.some((p) => testsRanBy(p) !== null)) s.checks.test = 'passed';
    const pushed = run.parts.some((p) => p.purpose === 'push' && p.outcome === 'passed');
    if (!run.ok && !pushed) continue;
    const branch = branchOf(run.command, run.output);
    if (branch !== '') s.branch = branch;
    if (pushed && (s.subject !== '' || lastCommit === undefined)) s.pushed = true;
    // A status printed before the same line's commit (`git status && git commit …`) is out of date.
    const stale =
      committedAt.has(run.index) &&
      run.command.search(/\bgit\s+status\b/) < run.command.search(/\bgit\s+commit\b/);
    const status = stale ? null : statusFiles(run.command, run.output);
    if (status !== null) uncommitted = new Set(status.filter((f) => !isScratchPath(f)));
    if (/\bgh\s+pr\b/.test(run.command))
      for (const m of run.output.matchAll(/https:\/\/github\.com\/[\w.-]+\/[\w.-]+\/pull\/\d+/g))
        s.prs = unique([...s.prs.filter((p) => p !== m[0]), m[0]]).slice(-3);
  }
  s.uncommitted = uncommitted === null ? null : [...uncommitted];
  return s;
}

/** `files` as a list, the ones past `MAX_LISTED` counted. */
const listed = (files: readonly string[]) =>
  `${files.slice(0, MAX_LISTED).join(', ')}${files.length > MAX_LISTED ? ` (+${files.length - MAX_LISTED} more)` : ''}`;

/**
 * "State: on branch streaming; last commit 6d0e203 "fix: …" (pushed); PR …; checks: …; left
 * uncommitted: a.ts" or ''. The file lists come last (a reader cuts a long line there, not the checks),
 * and hold every file up to the summary's own limit: the state is carried from turn to turn in this
 * text, so what it leaves out is lost.
 */
export function formatState(s: SessionState): string {
  const left = s.uncommitted ?? [];
  // No repository: nothing was or could be committed; what changed is all there is to say.
  if (s.repo === false) {
    const parts = [
      checksText(s),
      'not a git repository',
      left.length > 0 ? `files changed: ${listed(left)}` : '',
      s.removedByUser.length > 0 ? `the user removed: ${listed(s.removedByUser)}` : '',
    ].filter(Boolean);
    return `${PREFIX}${parts.join('; ')}`;
  }
  const parts = [
    s.branch ? `on branch ${s.branch}` : '',
    s.subject
      ? `last commit${s.commit ? ` ${s.commit}` : ''} "${clip(s.subject, 70)}"${s.pushed ? ' (pushed)' : ' (not pushed)'}`
      : left.length > 0
        ? 'nothing committed this session'
        : '',
    s.prs.length > 0 ? `PR ${s.prs.join(', ')}` : '',
    checksText(s),
    s.uncommitted === null
      ? ''
      : left.length === 0
        ? 'nothing uncommitted'
        : `left uncommitted: ${listed(left)}`,
    s.removedByUser.length > 0 ? `the user removed: ${listed(s.removedByUser)}` : '',
  ].filter(Boolean);
  return parts.length > 0 ? `${PREFIX}${parts.join('; ')}` : '';
}

const STATE_WORDS: Record<CheckState, string> = {
  passed: 'passed',
  failed: 'failed',
  stale: 'not run since the last change',
  changed: 'failed before the last change',
};

/** "checks: tests passed, lint not run since the last change" ("tests not run": code changed, none ran). */
function checksText(s: SessionState): string {
  const parts = CHECK_KINDS.flatMap((k) => {
    const state = s.checks[k];
    if (state === undefined)
      return k === 'test' && s.codeChanged && Object.keys(s.checks).length > 0 ? ['tests not run'] : [];
    return [`${CHECK_NAMES[k]} ${STATE_WORDS[state]}`];
  });
  return parts.length > 0 ? `checks: ${parts.join(', ')}` : '';
}

/** The state a formatted line holds (what `formatState` wrote), or null. */
export function parseState(text: string): SessionState | null {
  const line = text.split(' | ').find((part) => part.startsWith(PREFIX));
  if (!line) return null;
  const body = line.slice(PREFIX.length);
  const commit = /last commit(?: ([^\s"]+))? "([^"]*)" \((pushed|not pushed)\)/.exec(body);
  const uncommitted = /(?:uncommitted|files changed): ([^;]+)/.exec(body)?.[1];
  const branch = /on branch ([^;\s]+)/.exec(body)?.[1] ?? '';
  const removedByUser = /the user removed: ([^;]+)/.exec(body)?.[1];
  const checks: SessionState['checks'] = {};
  const listed = /checks: ([^;]+)/.exec(body)?.[1] ?? '';
  for (const k of CHECK_KINDS) {
    const m = new RegExp(
      `\\b${CHECK_NAMES[k]} (passed|failed before the last change|failed|not run since the last change)`,
    ).exec(listed);
    const state = (Object.keys(STATE_WORDS) as CheckState[]).find((x) => STATE_WORDS[x] === m?.[1]);
    if (state) checks[k] = state;
  }
  return {
    checks,
    codeChanged: /not run|before the last change/.test(listed),
    branch,
    repo: /\bnot a git repository\b/.test(body) ? false : branch !== '' || commit !== null ? true : null,
    commit: commit?.[1] ?? '',
    subject: commit?.[2] ?? '',
    pushed: commit?.[3] === 'pushed',
    prs: /PR ([^;]+)/.exec(body)?.[1]?.split(', ') ?? [],
    removedByUser: removedByUser ? removedByUser.replace(/ \(\+\d+ more\)$/, '').split(', ') : [],
    uncommitted: /nothing uncommitted/.test(body)
      ? []
      : uncommitted
        ? uncommitted.replace(/ \(\+\d+ more\)$/, '').split(', ')
        : null,
  };
}

/** `text` with its state line (if any) replaced by `state` (first). */
export function withState(text: string, state: string): string {
  const rest = text
    .split(' | ')
    .filter((part) => part.trim() !== '' && !part.startsWith(PREFIX))
    .join(' | ');
  return [state, rest].filter(Boolean).join(' | ');
}
