/**
 * What a command did to the project, from the parts of it that worked: the commits it made (with the
 * paths staged for them), a push, tickets it created, project files it removed or renamed and
 * dependencies it installed or removed. A commit or removal in a scratch repository is not the project's.
 */
import type { CommandRun } from './command-runs.ts';
import { commitBody, commitMessage, commitOutput, packagesOf } from './commit-commands.ts';
import type { DependencyChanges } from './dependency-edits.ts';
import { stagedPaths } from './git-staging.ts';
import { movedPaths, removedPaths } from './removed-files.ts';
import { stripAnsi } from './terminal-output.ts';
import { ticketsCreated, type Ticket } from './tickets.ts';
import type { TaskCommit } from './turn-tasks.ts';
import { isScratchPath } from './text.ts';

/** The parts of a turn's analysis a command's effects are written into. */
export interface CommandEffects {
  commits: TaskCommit[];
  pushed: boolean;
  tickets: Ticket[];
  removed: { path: string; index: number; byUser?: boolean }[];
  moved: { from: string; to: string; index: number }[];
}

export interface EffectContext {
  /** A path as the project names it (relative to its root). */
  rel: (path: string) => string;
  /** Paths staged by name since the last commit (what the next commit records); emptied by a commit. */
  staged: string[];
  /** Told of each commit as it is made (the turn is cut into tasks at commits). */
  onCommit: (commit: TaskCommit, index: number) => void;
  addDependencies: (changes: DependencyChanges) => void;
  /** Told of each project file a command renamed. */
  onMove?: (from: string, to: string) => void;
}

export function recordCommandEffects(
  a: CommandEffects,
  ctx: EffectContext,
  run: CommandRun,
  command: string,
  output: string,
  index: number,
): void {
  const worked = (purpose: string) =>
    run.parts.some((p) => p.purpose === purpose && p.outcome === 'passed' && p.where === 'project');
  if (run.ok)
    for (const t of ticketsCreated(command, output))
      if (!a.tickets.some((x) => x.id === t.id)) a.tickets.push(t);
  // Only the project's own commits: a commit in a scratch repository is not one of them.
  const out = commitOutput(stripAnsi(output));
  const message = worked('commit') ? (commitMessage(command) ?? out?.subject ?? '') : '';
  // Git names paths from where it ran (`cd app && git add README.md` stages app/README.md): a folder
  // of the project the shell or the line moved into is put back in front of them.
  const gitDir = run.parts.find((p) => /^git\b/.test(p.canonical))?.dir ?? '';
  const inProject = gitDir !== '' && !/^(?:\/|~|[A-Za-z]:[\\/])/.test(gitDir);
  if (run.ok)
    for (const p of stagedPaths(command)) {
      const path = ctx.rel(inProject && !/^(?:\/|~)/.test(p) ? `${gitDir.replace(/\/+$/, '')}/${p}` : p);
      if (path !== '' && !ctx.staged.includes(path)) ctx.staged.push(path);
    }
  if (message) {
    const body = commitBody(command);
    const commit: TaskCommit = {
      message,
      ...(body.length > 0 ? { body } : {}),
      hash: out?.hash ?? '',
      branch: out?.branch ?? '',
      index,
      staged: ctx.staged.splice(0),
      filesChanged: out?.filesChanged ?? null,
      created: out?.created ?? [],
      // `git commit --amend --no-edit`: this work folded into the last commit, under its message.
      ...(/\bcommit\b[^|;&]*\s--amend\b/.test(command) && commitMessage(command) === null
        ? { reused: true }
        : {}),
    };
    a.commits.push(commit);
    ctx.onCommit(commit, index);
  }
  if (worked('push')) a.pushed = true;
  if (run.ok && run.where !== 'scratch')
    for (const path of removedPaths(command).map((p) => ctx.rel(p)))
      if (!isScratchPath(path) && !a.removed.some((r) => r.path === path)) a.removed.push({ path, index });
  if (run.ok && run.where !== 'scratch')
    for (const m of movedPaths(command)) {
      const from = ctx.rel(m.from);
      const to = ctx.rel(m.to);
      if (from === '' || to === '' || isScratchPath(from) || isScratchPath(to)) continue;
      a.moved.push({ from, to, index });
      ctx.onMove?.(from, to);
    }
  if (worked('install') || worked('uninstall')) {
    const pkgs = packagesOf(command);
    ctx.addDependencies({ added: pkgs.added, removed: pkgs.removed, updated: [] });
  }
}
