/**
 * A node's neighbourhood in the memory graph for the graph page, capped: its links and backlinks
 * (supersedes, related, depends_on, links_to, touches, part_of) one step out, each neighbour a memory
 * (with its staleness), a file node or a session node. Read around the one node (its edges, then each
 * neighbour by id), never the whole project graph.
 */
import type { EdgeKind } from '../core/graph.ts';
import type { ProjectId } from '../core/ids.ts';
import { fileNodeId, isFileNodeId, isSessionNodeId, sessionIdOf, sessionNodeId } from '../graph/node-ids.ts';
import type { Store } from '../store/store.ts';

export type NodeKind = 'memory' | 'file' | 'session';

export interface GraphNode {
  /** The graph's id: `obs_…`, `fil_…` or `ses_…`. */
  id: string;
  kind: NodeKind;
  label: string;
  /** A memory's type and status. */
  type?: string;
  status?: string;
  stale?: boolean;
}

export interface GraphEdge {
  from: string;
  to: string;
  kind: EdgeKind;
}

export interface Neighbourhood {
  center: GraphNode;
  nodes: GraphNode[];
  edges: GraphEdge[];
  /** Neighbours left out by the cap. */
  more: number;
}

/** Most neighbours drawn around one node. */
export const NEIGHBOUR_CAP = 24;

/** One node of the graph by its id, or null (unknown, or a forgotten memory). */
export function graphNode(store: Store, id: string): GraphNode | null {
  if (isFileNodeId(id)) {
    const f = store.graphFiles.get(id);
    return f ? { id, kind: 'file', label: f.path } : null;
  }
  if (isSessionNodeId(id)) {
    const s = store.sessionList.get(sessionIdOf(id));
    return s ? { id, kind: 'session', label: s.request || `session ${s.id}` } : null;
  }
  const o = store.observations.get(id);
  if (!o || o.status === 'forgotten') return null;
  return { id, kind: 'memory', label: o.title, type: o.type, status: o.status };
}

/** The file node of a path in any project (the first project that has it), by its stable id. */
export function fileNodeOf(store: Store, path: string, projectId: ProjectId | null): string | null {
  const projects = projectId ? [projectId] : store.sessions.projectStats().map((p) => p.id);
  for (const p of projects) {
    const id = fileNodeId(p, path);
    if (store.graphFiles.get(id)) return id;
  }
  return null;
}

/** A session's node id. */
export const sessionNode = (sessionId: string): string => sessionNodeId(sessionId);

export function neighbourhoodOf(store: Store, id: string): Neighbourhood | null {
  const center = graphNode(store, id);
  if (!center) return null;
  const around = store.graph.around(id);
  const steps = [
    ...around.out.map((e) => ({ other: e.to, edge: e })),
    ...around.in.map((e) => ({ other: e.from, edge: e })),
  ];
  const nodes = new Map<string, GraphNode>();
  const edges: GraphEdge[] = [];
  let more = 0;
  for (const { other, edge } of steps) {
    if (other === id) continue;
    if (!nodes.has(other)) {
      if (nodes.size >= NEIGHBOUR_CAP) {
        more++;
        continue;
      }
      const node = graphNode(store, other);
      if (!node) continue;
      nodes.set(other, node);
    }
    edges.push({ from: edge.from, to: edge.to, kind: edge.kind });
  }
  const memories = [center, ...nodes.values()].filter((n) => n.kind === 'memory').map((n) => n.id);
  const stale = store.anchors.staleOf(memories);
  for (const n of [center, ...nodes.values()]) if (stale.has(n.id)) n.stale = true;
  return { center, nodes: [...nodes.values()], edges, more };
}
