/**
 * Failures by purpose, not by spelling: a failure of a purpose (keyed by purpose, suite and folder:
 * `test`, `test:e2e`, `lint@web`, `commit`) is open only while the latest run of that purpose fails.
 * A later run of the same key closes it whatever its spelling — a wrapper in front, another flag —
 * when it covers what failed: a whole-suite run closes any failure of its key, a single-file run only
 * the failure of that same file; a check whose output shows a passing test run (a gate running the
 * suite) is also a test run. Only the project's own runs count: a command run in a scratch
 * directory or another repository is not the project's.
 */
import { covers, partRuns, targetCovers, type CommandRun, type PartRun } from './command-runs.ts';
import { CHECKS, type Purpose } from './commands.ts';
import { packagesOf } from './commit-commands.ts';
import { isDocPath, isScratchPath } from './text.ts';

/** Purposes whose failure is a problem of the project (not a look, not a file shuffle). */
const TRACKED: ReadonlySet<Purpose> = new Set([
  ...CHECKS,
  'run',
  'migrate',
  'install',
  'uninstall',
  'commit',
  'push',
  'deploy',
]);

export interface OpenFailure {
  key: string;
  purpose: Purpose;
  /** '' when the whole suite (or the purpose as a whole) fails, else the failing targets. */
  targets: string[];
  /** The failing runs of this episode, oldest first. */
  runs: PartRun[];
}

export interface Closed {
  key: string;
  failures: PartRun[];
  closedBy: PartRun;
}

export interface PassedAtEnd {
  key: string;
  /** '' when a whole run passed after the last failure, else the target that passed. */
  target: string;
  run: PartRun;
}

export interface PurposeState {
  /** Failures still open at the end of the turn, in the order they first failed. */
  open: OpenFailure[];
  /** Failure episodes a later run of the turn closed. */
  closed: Closed[];
  /** Keys whose latest run in the turn passed: they close failures left open before. */
  passed: PassedAtEnd[];
}

/** A file of the project's code (not prose, not outside the project, not under /tmp): what a check covers. */
export const isProjectCode = (path: string) =>
  !/^(?:\/|~|[A-Za-z]:[\\/])/.test(path) && !isScratchPath(path) && !isDocPath(path);

/**
 * The project's code files edited after the run at `index`: a failure with such changes after its last
 * run is not known to fail any more — it was answered and not run again (its fix is unconfirmed).
 */
export function editedAfter(edits: readonly { path: string; index: number }[], index: number): string[] {
  return [...new Set(edits.filter((e) => e.index > index && isProjectCode(e.path)).map((e) => e.path))];
}

/**
 * A run of another purpose whose output is a test runner's passing summary (`just check` running the
 * suite with coverage) ran the tests too: it counts as a whole-suite test run that passed.
 */
export function testsRanBy(r: PartRun): PartRun | null {
  if (r.purpose === 'test' || r.outcome !== 'passed' || !r.summary) return null;
  if (r.summary.failed > 0 || r.summary.passed === 0) return null;
  const scope = r.dir !== '' ? `@${r.dir}` : '';
  return { ...r, purpose: 'test', key: `test${scope}`, target: '', suite: '' };
}

/** Part runs that say how the project's purpose stands. */
export function countedRuns(commands: readonly CommandRun[]): PartRun[] {
  return partRuns(commands)
    .filter(
      (r) =>
        r.where === 'project' &&
        TRACKED.has(r.purpose) &&
        !(r.purpose === 'run' && r.adhoc) &&
        (r.outcome === 'passed' || r.outcome === 'failed'),
    )
    .flatMap((r) => {
      const tests = testsRanBy(r);
      return tests ? [r, tests] : [r];
    });
}

export function purposeState(commands: readonly CommandRun[]): PurposeState {
  const open = new Map<string, { whole: boolean; targets: Map<string, PartRun>; runs: PartRun[] }>();
  const closed: Closed[] = [];
  const latest = new Map<string, { run: PartRun; wholePass: boolean }>();
  const counted = countedRuns(commands);
  for (const r of counted) {
    const episode = open.get(r.key);
    if (r.outcome === 'failed') {
      const e = episode ?? { whole: false, targets: new Map<string, PartRun>(), runs: [] };
      if (r.target === '') e.whole = true;
      else e.targets.set(r.target, r);
      e.runs.push(r);
      open.set(r.key, e);
      latest.set(r.key, { run: r, wholePass: false });
      continue;
    }
    const before = latest.get(r.key);
    latest.set(r.key, {
      run: r,
      wholePass: r.target === '' || (before?.run.outcome === 'passed' && before.wholePass),
    });
    if (!episode) {
      // The same script run from another folder (`node assets/build.js` failed, `cd assets && node
      // build.js` passed): the run of that script closes its failure, whatever folder keyed it.
      const same = r.script
        ? [...open].find(([, e]) => e.whole && e.runs.some((f) => covers(r, f)))
        : undefined;
      if (same) {
        closed.push({ key: same[0], failures: same[1].runs, closedBy: r });
        open.delete(same[0]);
        latest.set(same[0], { run: r, wholePass: true });
      }
      continue;
    }
    if (r.target === '') {
      closed.push({ key: r.key, failures: episode.runs, closedBy: r });
      open.delete(r.key);
      continue;
    }
    // A pass over several files passes each of them.
    for (const t of [...episode.targets.keys()]) if (targetCovers(r.target, t)) episode.targets.delete(t);
    if (!episode.whole && episode.targets.size === 0) {
      closed.push({ key: r.key, failures: episode.runs, closedBy: r });
      open.delete(r.key);
    }
  }
  // An install that failed is done once what it was installing is later used and works (`pip install
  // pytest` failed, another installer ran, then pytest's run passed).
  for (const [key, e] of open) {
    const last = e.runs[e.runs.length - 1] as PartRun;
    if (last.purpose !== 'install') continue;
    const wanted = new Set(packagesOf(last.raw).added.map((p) => p.toLowerCase()));
    const used = counted.find(
      (r) =>
        r.index > last.index &&
        r.outcome === 'passed' &&
        (wanted.has((r.tool.split(' ')[0] ?? '').toLowerCase()) ||
          wanted.has((r.summary?.runner ?? '').toLowerCase())),
    );
    if (!used) continue;
    closed.push({ key, failures: e.runs, closedBy: used });
    open.delete(key);
  }
  const openList: OpenFailure[] = [...open.entries()]
    .map(([key, e]) => ({
      key,
      purpose: (e.runs[0] as PartRun).purpose,
      targets: e.whole ? [] : [...e.targets.keys()],
      runs: e.runs,
    }))
    .sort((x, y) => (x.runs[0]?.index ?? 0) - (y.runs[0]?.index ?? 0));
  const passed: PassedAtEnd[] = [...latest.entries()]
    .filter(([, l]) => l.run.outcome === 'passed')
    .map(([key, l]) => ({ key, target: l.wholePass ? '' : l.run.target, run: l.run }));
  return { open: openList, closed, passed };
}
