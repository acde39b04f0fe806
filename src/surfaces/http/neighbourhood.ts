/**
 * A memory's or a file's neighbourhood for the graph page, capped: the memory with its files, its
 * session, the memories it replaced or that replaced it, and the session's other memories; a file with
 * the memories that touch it. Nodes link to their own neighbourhood.
 */
import { buildFtsQuery } from '../../recall/fts-query.ts';
import type { Store } from '../../store/store.ts';

export type NodeKind = 'memory' | 'file' | 'session';

export interface GraphNode {
  key: string;
  kind: NodeKind;
  label: string;
  /** A memory's type and status (memories only). */
  type?: string;
  status?: string;
}

export interface GraphEdge {
  from: string;
  to: string;
  kind: string;
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

const memoryKey = (id: string) => `memory:${id}`;
const fileKey = (path: string) => `file:${path}`;

export function memoryNeighbourhood(store: Store, id: string): Neighbourhood | null {
  const o = store.observations.get(id);
  if (!o || o.status === 'forgotten') return null;
  const center: GraphNode = {
    key: memoryKey(o.id),
    kind: 'memory',
    label: o.title,
    type: o.type,
    status: o.status,
  };
  const nodes = new Map<string, GraphNode>();
  const edges: GraphEdge[] = [];
  let more = 0;
  const add = (node: GraphNode, edge: GraphEdge) => {
    if (nodes.has(node.key) || node.key === center.key) return;
    if (nodes.size >= NEIGHBOUR_CAP) {
      more++;
      return;
    }
    nodes.set(node.key, node);
    edges.push(edge);
  };
  const memory = (otherId: string | null, kind: string, outgoing: boolean) => {
    const other = otherId ? store.observations.get(otherId) : null;
    if (!other || other.status === 'forgotten') return;
    const node: GraphNode = {
      key: memoryKey(other.id),
      kind: 'memory',
      label: other.title,
      type: other.type,
      status: other.status,
    };
    add(node, outgoing ? { from: center.key, to: node.key, kind } : { from: node.key, to: center.key, kind });
  };
  memory(o.supersedes, 'supersedes', true);
  memory(/^superseded by (obs_[0-9a-z]{20})$/.exec(o.statusReason ?? '')?.[1] ?? null, 'supersedes', false);
  for (const path of o.filesModified)
    add(
      { key: fileKey(path), kind: 'file', label: path },
      { from: center.key, to: fileKey(path), kind: 'modifies' },
    );
  for (const path of o.filesRead)
    add(
      { key: fileKey(path), kind: 'file', label: path },
      { from: center.key, to: fileKey(path), kind: 'reads' },
    );
  if (o.sessionId) {
    const session = store.sessionList.get(o.sessionId);
    const key = `session:${o.sessionId}`;
    add(
      { key, kind: 'session', label: session?.request || o.sessionId },
      { from: center.key, to: key, kind: 'part of' },
    );
    for (const k of store.memoryList.page({ sessionId: o.sessionId }, NEIGHBOUR_CAP + 1)) {
      if (k.id !== o.id) memory(k.id, 'same session', true);
    }
  }
  return { center, nodes: [...nodes.values()], edges, more };
}

/** The memories that read or modify a file (found through the full-text index, then checked exactly). */
export function fileNeighbourhood(store: Store, path: string): Neighbourhood | null {
  const fts = buildFtsQuery(`"${path.replace(/"/g, ' ')}"`);
  if (!fts) return null;
  const center: GraphNode = { key: fileKey(path), kind: 'file', label: path };
  const nodes: GraphNode[] = [];
  const edges: GraphEdge[] = [];
  let more = 0;
  for (const { observation: o } of store.observations.search(fts, null, 500, {
    includeHidden: true,
    order: 'newest',
  })) {
    const kind = o.filesModified.includes(path) ? 'modifies' : o.filesRead.includes(path) ? 'reads' : null;
    if (!kind) continue;
    if (nodes.length >= NEIGHBOUR_CAP) {
      more++;
      continue;
    }
    const key = memoryKey(o.id);
    nodes.push({ key, kind: 'memory', label: o.title, type: o.type, status: o.status });
    edges.push({ from: key, to: center.key, kind });
  }
  return nodes.length === 0 ? null : { center, nodes, edges, more };
}
