/**
 * Key files of a project: personalised PageRank over touch edges (memories and sessions ↔ files),
 * with the walk jumping back to live memories in proportion to how recent they are, how much their
 * type counts, and whether they are pinned. A file many recent memories touch, or that shares memories
 * with such files, ranks high.
 */
import type { RankGraph } from './project-graph.ts';
import { personalisedPageRank } from './pagerank.ts';

const DAY_MS = 86_400_000;
const HALF_LIFE_DAYS = 14;

const TYPE_PULL: Record<string, number> = { decision: 1.5, bugfix: 1.3, error: 1.2, refactor: 1.1 };

/** File node id → rank (the file nodes' ranks sum to at most 1; 0 for files no live memory reaches). */
export function rankFiles(g: RankGraph, now: number): Map<string, number> {
  const nodes: string[] = [];
  const edges: [string, string, number][] = [];
  const pull = new Map<string, number>();
  for (const n of g.nodes.values()) {
    if (n.kind === 'memory' && n.memory.status !== 'active') continue;
    nodes.push(n.id);
    if (n.kind !== 'memory') continue;
    const age = Math.max(0, now - n.memory.modifiedAt) / DAY_MS;
    const weight = 2 ** (-age / HALF_LIFE_DAYS) * (TYPE_PULL[n.type] ?? 1) * (n.memory.pinned ? 2 : 1);
    pull.set(n.id, n.stale ? weight / 4 : weight);
  }
  for (const [from, list] of g.out)
    for (const e of list) if (e.kind === 'touches') edges.push([from, e.to, 1]);
  const rank = personalisedPageRank(nodes, edges, pull);
  const files = new Map<string, number>();
  for (const [id, r] of rank) if (g.nodes.get(id)?.kind === 'file' && r > 1e-12) files.set(id, r);
  return files;
}
