/**
 * Related nodes, scored, each saying why: edges from the node and to it (backlinks), files shared,
 * tags in common. For a file: the memories that touch it and the files touched together with it.
 */
import type { EdgeKind } from '../core/graph.ts';
import { nodeFiles, nodeTags, type GraphNode, type ProjectGraph } from './project-graph.ts';

export interface RelatedHit {
  node: GraphNode;
  score: number;
  why: string[];
}

const EDGE_WEIGHT: Record<EdgeKind, number> = {
  supersedes: 3,
  depends_on: 2.5,
  related: 2.5,
  links_to: 2,
  touches: 1.5,
  part_of: 1,
};

const STATUS_WEIGHT: Record<string, number> = { active: 1, superseded: 0.5, invalidated: 0.4, archived: 0.3 };

/** Nodes related to `id` in the project graph, best first. */
export function relatedNodes(g: ProjectGraph, id: string, limit = 10): RelatedHit[] {
  const target = g.nodes.get(id);
  if (!target) return [];
  const hits = new Map<string, { score: number; why: string[] }>();
  const add = (otherId: string, score: number, why: string) => {
    if (otherId === id || !g.nodes.has(otherId)) return;
    const h = hits.get(otherId) ?? { score: 0, why: [] };
    h.score += score;
    if (!h.why.includes(why)) h.why.push(why);
    hits.set(otherId, h);
  };
  for (const e of g.out.get(id) ?? []) add(e.to, EDGE_WEIGHT[e.kind] ?? 1, `links to it (${e.kind})`);
  for (const e of g.in.get(id) ?? []) add(e.from, (EDGE_WEIGHT[e.kind] ?? 1) * 0.9, `links here (${e.kind})`);
  if (target.kind === 'file') {
    // Memories touching this file (above, as backlinks) and the files they touch too.
    const together = new Map<string, number>();
    for (const e of g.in.get(id) ?? [])
      if (e.kind === 'touches')
        for (const other of g.out.get(e.from) ?? [])
          if (other.kind === 'touches' && other.to !== id)
            together.set(other.to, (together.get(other.to) ?? 0) + 1);
    for (const [file, n] of together)
      add(file, Math.min(3, n) * 0.5, `touched together by ${n} memor${n === 1 ? 'y' : 'ies'}`);
  } else {
    const files = new Set(nodeFiles(target));
    const tags = new Set(nodeTags(target).map((t) => t.toLowerCase()));
    for (const n of g.nodes.values()) {
      if (n.id === id || n.kind !== 'memory') continue;
      const shared = nodeFiles(n).filter((f) => files.has(f));
      if (shared.length > 0) add(n.id, Math.min(3, shared.length), `shares ${shared.slice(0, 3).join(', ')}`);
      const common = nodeTags(n).filter((t) => tags.has(t.toLowerCase()));
      if (common.length > 0)
        add(n.id, Math.min(4, common.length) * 0.5, `tags: ${common.slice(0, 4).join(', ')}`);
    }
  }
  const out: RelatedHit[] = [];
  for (const [otherId, h] of hits) {
    const node = g.nodes.get(otherId) as GraphNode;
    const status = node.kind === 'memory' ? (STATUS_WEIGHT[node.memory.status] ?? 0.3) : 1;
    const stale = node.kind === 'memory' && node.stale ? 0.7 : 1;
    out.push({ node, score: Math.round(h.score * status * stale * 1000) / 1000, why: h.why });
  }
  return out
    .sort((a, b) => b.score - a.score || (a.node.id < b.node.id ? -1 : 1))
    .slice(0, Math.max(1, limit));
}

export interface Neighbourhood {
  centre: GraphNode;
  /** Nodes within `depth` edges, with the edges that reach them. */
  rings: { depth: number; node: GraphNode; via: { kind: EdgeKind; direction: 'out' | 'in'; from: string } }[];
}

/** A node and its neighbours up to `depth` edges away (both directions), at most `limit` of them. */
export function neighbourhood(g: ProjectGraph, id: string, depth = 1, limit = 40): Neighbourhood | null {
  const centre = g.nodes.get(id);
  if (!centre) return null;
  const seen = new Set([id]);
  const rings: Neighbourhood['rings'] = [];
  let frontier = [id];
  for (let d = 1; d <= depth && rings.length < limit; d++) {
    const next: string[] = [];
    for (const at of frontier) {
      const step = [
        ...(g.out.get(at) ?? []).map((e) => ({ to: e.to, kind: e.kind, direction: 'out' as const })),
        ...(g.in.get(at) ?? []).map((e) => ({ to: e.from, kind: e.kind, direction: 'in' as const })),
      ];
      for (const s of step) {
        if (seen.has(s.to) || rings.length >= limit) continue;
        const node = g.nodes.get(s.to);
        if (!node) continue;
        seen.add(s.to);
        next.push(s.to);
        rings.push({ depth: d, node, via: { kind: s.kind, direction: s.direction, from: at } });
      }
    }
    frontier = next;
  }
  return { centre, rings };
}
