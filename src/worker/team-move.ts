/**
 * Project moves in team sync. A move of a shared project made here (`engram project move|merge`) is
 * queued by the store (`moves_pending`) and made on the server at the next sync, before anything is
 * pushed: the server copies the old project's records into the new one, authors and tombstones
 * included, and names the new one to every puller of the old. A teammate's client pulling the old
 * project learns where it went and follows: the same local move (origin `team`, so nothing is sent
 * back), then the new project is pulled from its start — every record it already holds is recognised
 * by id, version and hash, so nothing is duplicated.
 */
import { describeError } from '../core/errors.ts';
import type { ProjectId } from '../core/ids.ts';
import { fileNodeId } from '../graph/node-ids.ts';
import { PENDING_MOVES, type PendingMove } from '../store/project-move.ts';
import type { SharedProject } from '../store/team-repo.ts';
import type { SyncReport, TeamSyncDeps } from './team-round.ts';

/** Make on the server the moves made here; one that fails stays queued for the next sync. */
export async function sendPendingMoves(deps: TeamSyncDeps, report: SyncReport): Promise<void> {
  const { store } = deps;
  const raw = store.team.meta(PENDING_MOVES);
  if (raw === null || raw === '') return;
  const left: PendingMove[] = [];
  for (const move of JSON.parse(raw) as PendingMove[]) {
    try {
      const done = await deps.api.moveProject(move.from, move.to);
      report.moved.push({
        from: move.from,
        to: done.to.id,
        name: done.to.name,
        key: done.to.key,
        here: true,
      });
    } catch (error) {
      left.push(move);
      report.errors.push({ project: move.from, error: `moving it to ${move.to}: ${describeError(error)}` });
    }
  }
  store.transaction(() => store.team.setMeta(PENDING_MOVES, left.length > 0 ? JSON.stringify(left) : ''));
}

/** The server says `p` moved: move it here too, and return the project to sync in its place. */
export function followMove(
  deps: TeamSyncDeps,
  p: SharedProject,
  to: { id: string; key: string; name: string },
  report: SyncReport,
): SharedProject | null {
  const { store, clock } = deps;
  store.transaction(() => {
    const local = store.sessions.project(to.id as ProjectId);
    store.memory.moveProject(
      p.projectId as ProjectId,
      {
        id: to.id as ProjectId,
        name: local?.name ?? to.name,
        key: local?.key ?? to.key,
        root: local?.root ?? p.root,
      },
      fileNodeId,
      { origin: 'team', actor: null, at: clock.now() },
    );
  });
  report.moved.push({ from: p.projectId, to: to.id, name: to.name, key: to.key, here: false });
  return store.team.project(to.id);
}
