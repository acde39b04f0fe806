/**
 * When a project's key files are ranked again: the graph step marks a project due when its graph grew,
 * and a due project is ranked (personalised PageRank over its touch edges) once its last ranking is old
 * enough — a burst of memories costs one ranking.
 */
import type { ProjectId } from '../core/ids.ts';
import type { Project } from '../core/model.ts';
import type { Store } from '../store/store.ts';
import { rankFiles } from './key-files.ts';
import { loadRankGraph } from './project-graph.ts';

/** A project's key files are ranked again at most this often (a rank reads its working set). */
export const RANK_EVERY_MS = 60_000;
const RANK_DUE = 'rank_due:';
const RANK_AT = 'rank_at:';

/** Recompute a project's key files (personalised PageRank over touch edges). */
export function rankProjectFiles(store: Store, project: Project, now: number): void {
  const ranks = rankFiles(loadRankGraph(store, project), now);
  store.transaction(() => store.graphFiles.setRanks(project.id, ranks));
}

/** Mark projects whose graph grew as due for ranking. */
export function markRankDue(store: Store, projectIds: Iterable<string>): void {
  store.transaction(() => {
    for (const projectId of projectIds) store.graph.setState(`${RANK_DUE}${projectId}`, 1);
  });
}

/** Rank the key files of projects whose graph grew, once their last ranking is old enough. */
export function rankDueProjects(store: Store, now: number, force = false): number {
  let ranked = 0;
  for (const [key, due] of store.graph.statesWith(RANK_DUE)) {
    if (due !== 1) continue;
    const projectId = key.slice(RANK_DUE.length);
    if (!force && now - store.graph.state(`${RANK_AT}${projectId}`) < RANK_EVERY_MS) continue;
    const project = store.sessions.project(projectId as ProjectId);
    if (project) rankProjectFiles(store, project, now);
    store.transaction(() => {
      store.graph.setState(key, 0);
      store.graph.setState(`${RANK_AT}${projectId}`, now);
    });
    ranked++;
  }
  return ranked;
}
