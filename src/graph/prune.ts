/**
 * Retention as the seed has it: a project keeps at most `maxNodes` active memories; past that, the
 * least connected and then the oldest are archived (restorable, never deleted). Pinned memories stay.
 */
import type { ChangeOrigin, Project } from '../core/model.ts';
import type { Store } from '../store/store.ts';
import { loadProjectGraph } from './project-graph.ts';

export interface PruneCandidate {
  id: string;
  type: string;
  title: string;
  degree: number;
  createdAt: number;
}

export interface PruneReport {
  projectId: string;
  active: number;
  maxNodes: number;
  archived: PruneCandidate[];
  dryRun: boolean;
}

export function pruneProject(
  store: Store,
  project: Project,
  options: { maxNodes: number; dryRun: boolean; now: number; origin: ChangeOrigin },
): PruneReport {
  const g = loadProjectGraph(store, project);
  const live = [...g.nodes.values()].filter((n) => n.kind === 'memory' && n.memory.status === 'active');
  const report: PruneReport = {
    projectId: project.id,
    active: live.length,
    maxNodes: options.maxNodes,
    archived: [],
    dryRun: options.dryRun,
  };
  const excess = live.length - options.maxNodes;
  if (excess <= 0) return report;
  const candidates = live
    .filter((n) => n.kind === 'memory' && !n.memory.pinned)
    .map((n) => ({
      id: n.id,
      type: n.type,
      title: n.title,
      // Edges to other memories and files count; the session edge every memory has does not.
      degree:
        (g.out.get(n.id) ?? []).filter((e) => !(e.kind === 'part_of' && e.to.startsWith('ses_'))).length +
        (g.in.get(n.id) ?? []).length,
      createdAt: n.kind === 'memory' ? n.memory.createdAt : 0,
    }))
    .sort((a, b) => a.degree - b.degree || a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1))
    .slice(0, excess);
  report.archived = candidates;
  if (options.dryRun) return report;
  const reason = `pruned: least connected and oldest beyond retention.maxNodes (${options.maxNodes})`;
  store.transaction(() => {
    for (const c of candidates)
      store.memory.archive(c.id, reason, { origin: options.origin, at: options.now });
  });
  return report;
}
