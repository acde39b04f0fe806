/**
 * `engram project move|merge`: bring an old project's memory to where the repository is now known
 * (after `git config engram.project <name>` or a changed remote), or merge two projects. Projects are
 * named by id, by name, or found by sharing this directory's root; `--dry-run` shows what would move.
 */
import { resolveProjectIdentity, withProjectId } from '../../../capture/project-identity.ts';
import { EngramError } from '../../../core/errors.ts';
import type { ProjectId } from '../../../core/ids.ts';
import { fileNodeId } from '../../../graph/node-ids.ts';
import { readProjectLinks } from '../../../store/project-links.ts';
import type { MoveTarget, ProjectMoveReport } from '../../../store/project-move.ts';
import type { ProjectStats } from '../../../store/sessions-repo.ts';
import type { Store } from '../../../store/store.ts';
import { keyVersionsOf } from '../../../worker/team-keys.ts';
import { printJson, withStore, type CliContext } from '../context.ts';

/** Other projects engram knows whose root is `project`'s root (a rename or a changed remote left them). */
export function sameRootProjects(
  projects: readonly Pick<ProjectStats, 'id' | 'name' | 'root' | 'observations'>[],
  project: { id: string; root: string },
): Pick<ProjectStats, 'id' | 'name' | 'root' | 'observations'>[] {
  return projects.filter((p) => p.id !== project.id && p.root === project.root);
}

/** A project the store knows, by id or by name (a name two projects share must be given as an id). */
function findProject(store: Store, which: string, flag: string): ProjectStats {
  const all = store.sessions.projectStats();
  const byId = all.find((p) => p.id === which);
  if (byId) return byId;
  const named = all.filter((p) => p.name === which);
  if (named.length === 1) return named[0] as ProjectStats;
  if (named.length > 1)
    throw new EngramError('INPUT_INVALID', `${flag} ${which}: ${named.length} projects have that name`, {
      hint: `Give the id instead: ${named.map((p) => `${p.id} (${p.root})`).join(', ')}`,
    });
  throw new EngramError('NOT_FOUND', `${flag} ${which}: no such project`, {
    hint: '"engram status" lists the projects engram knows, with their ids.',
  });
}

interface MoveOptions {
  action: 'move' | 'merge';
  dir: string;
  from: string | undefined;
  to: string | undefined;
  dryRun: boolean;
  json: boolean;
}

export function projectMoveCommand(ctx: CliContext, o: MoveOptions): number {
  const links = readProjectLinks(ctx.runtime.paths.projectLinks);
  const here = withProjectId(resolveProjectIdentity(o.dir, () => links));
  const report = withStore(ctx, (store): ProjectMoveReport => {
    let to: MoveTarget = { id: here.id, name: here.name, key: here.key, root: here.root };
    if (o.to !== undefined) {
      const found = findProject(store, o.to, '--to');
      const p = store.sessions.project(found.id) as MoveTarget;
      to = { id: p.id, name: p.name, key: p.key, root: p.root };
    }
    let fromId: ProjectId;
    if (o.from !== undefined) fromId = findProject(store, o.from, '--from').id;
    else {
      const others = sameRootProjects(store.sessions.projectStats(), to);
      if (others.length !== 1)
        throw new EngramError(
          'INPUT_INVALID',
          others.length === 0
            ? `no other project has the root ${to.root}: nothing to ${o.action}`
            : `${others.length} other projects have the root ${to.root}`,
          {
            hint:
              others.length === 0
                ? `Name the old project with --from (an id or a name from "engram status").`
                : `Name one with --from: ${others.map((p) => `${p.id} (${p.name})`).join(', ')}`,
          },
        );
      fromId = (others[0] as ProjectStats).id;
    }
    if (keyVersionsOf(store, fromId) || keyVersionsOf(store, to.id))
      throw new EngramError(
        'INPUT_INVALID',
        `moving an end-to-end encrypted project (or into one) is not supported yet`,
        {
          hint: 'Its team records are bound to the project they were encrypted for; keep it under its present name.',
        },
      );
    const plan = store.memory.planProjectMove(fromId, to);
    if (o.action === 'move' && plan.targetMemories > 0)
      throw new EngramError(
        'INPUT_INVALID',
        `${to.name} already holds ${plan.targetMemories} memories; a move is for an empty or new project`,
        {
          hint: `Merge the two instead: engram project merge --from ${fromId}${o.to ? ` --to ${to.id}` : ''}`,
        },
      );
    if (o.dryRun) return plan;
    return store.memory.moveProject(fromId, to, fileNodeId, { origin: 'cli', at: ctx.now() });
  });
  if (o.json) {
    printJson(ctx, { dryRun: o.dryRun, ...report });
    return 0;
  }
  const r = report;
  const verb = o.dryRun ? 'would move' : 'moved';
  ctx.io.out(
    `${verb} project ${r.from.name} (${r.from.id}) into ${r.to.name} (${r.to.id}${r.targetKnown ? '' : ', new'})\n` +
      `  ${r.memories} memories` +
      (r.duplicates > 0 ? ` (${r.duplicates} the same as one already there: merged into it)` : '') +
      `, ${r.summaries} summaries, ${r.sessions} sessions, ${r.links} links, ${r.anchors} anchors, ` +
      `${r.files} file nodes, ${r.vaultNotes} vault notes\n`,
  );
  if (r.shared)
    ctx.io.out(
      r.targetShared
        ? `  team: both were shared; the next team sync merges them on the team server too\n`
        : `  team: the sharing of ${r.from.name} follows to ${r.to.name}; ` +
            (o.dryRun
              ? 'the next team sync would move it on the team server too\n'
              : 'the next team sync moves it on the team server too ("engram team sync" does it now)\n'),
    );
  if (o.dryRun) ctx.io.out(`Nothing changed. Run it again without --dry-run to ${o.action}.\n`);
  return 0;
}
