/**
 * The seed's query interface over a project's graph: by id, type, tag, status, staleness, date; the
 * most recent; text matches (the caller's search ranks memories; files match by path and purpose);
 * and nodes related to a memory or a file, each saying why.
 */
import { EngramError } from '../core/errors.ts';
import { fileNodeId } from './node-ids.ts';
import {
  nodeCreatedAt,
  nodeFiles,
  nodeStatus,
  nodeTags,
  nodeUpdatedAt,
  type GraphNode,
  type ProjectGraph,
} from './project-graph.ts';
import { relatedNodes } from './related.ts';

export const QUERY_STATUSES = ['active', 'archived', 'superseded', 'invalidated'] as const;
export type QueryStatus = (typeof QUERY_STATUSES)[number];

export interface GraphQuery {
  id?: string;
  type?: string;
  tag?: string;
  /** A node id or a file path: nodes related to it, scored. */
  related?: string;
  /** The N most recently updated. */
  recent?: number;
  /** Memory ids a text search found, best first (the caller searches); files match the text themselves. */
  search?: { text: string; memoryIds: readonly string[] };
  status?: QueryStatus;
  staleOnly?: boolean;
  /** Only nodes made at or after this time. */
  since?: number;
  limit?: number;
}

export interface QueryHit {
  node: GraphNode;
  /** For --related: the score and why. */
  score?: number;
  why?: string[];
}

/** A file path or a node id as written by a user → the node id in this graph. */
export function resolveNodeRef(g: ProjectGraph, ref: string): string | null {
  if (g.nodes.has(ref)) return ref;
  const path = ref.replace(/^\.\//, '');
  const byPath = fileNodeId(g.project.id, path);
  if (g.nodes.has(byPath)) return byPath;
  if (path.startsWith(g.project.root)) {
    const rel = fileNodeId(g.project.id, path.slice(g.project.root.length).replace(/^\/+/, ''));
    if (g.nodes.has(rel)) return rel;
  }
  const suffix = [...g.nodes.values()].filter((n) => n.kind === 'file' && n.file.path.endsWith(`/${path}`));
  return suffix.length === 1 ? (suffix[0] as GraphNode).id : null;
}

const matchesTag = (n: GraphNode, tag: string) =>
  nodeTags(n).some((t) => t.toLowerCase().replace(/\s+/g, '-') === tag.toLowerCase().replace(/^#/, ''));

function matchesType(n: GraphNode, type: string): boolean {
  if (type === 'file' || type === 'file-summary')
    return n.kind === 'file' && (type === 'file' || n.type === type);
  return n.type === type;
}

export function queryGraph(g: ProjectGraph, q: GraphQuery): QueryHit[] {
  const limit = q.limit ?? (q.recent !== undefined ? q.recent : 20);
  const status = q.status ?? (q.id ? undefined : 'active');
  const keep = (n: GraphNode) =>
    (status === undefined || nodeStatus(n) === status || (n.kind !== 'memory' && status === 'active')) &&
    (q.type === undefined || matchesType(n, q.type)) &&
    (q.tag === undefined || matchesTag(n, q.tag)) &&
    (!q.staleOnly || (n.kind === 'memory' && n.stale !== null)) &&
    (q.since === undefined || nodeCreatedAt(n) >= q.since);
  if (q.id) {
    const node = g.nodes.get(q.id);
    return node && keep(node) ? [{ node }] : [];
  }
  if (q.related) {
    const id = resolveNodeRef(g, q.related);
    if (id === null)
      throw new EngramError('NOT_FOUND', `nothing called "${q.related}" in project ${g.project.name}`, {
        hint: 'Give a memory id (obs_…) or a file path a memory touched (as in "engram query --type file").',
      });
    return relatedNodes(g, id, Math.max(limit * 3, 30))
      .filter((h) => keep(h.node))
      .slice(0, limit)
      .map((h) => ({ node: h.node, score: h.score, why: h.why }));
  }
  let pool = [...g.nodes.values()].filter(keep);
  if (q.search) {
    const rank = new Map(q.search.memoryIds.map((id, i) => [id, i]));
    const text = q.search.text.toLowerCase();
    const fileMatch = (n: GraphNode) =>
      n.kind === 'file' &&
      (n.file.path.toLowerCase().includes(text) || n.file.purpose.toLowerCase().includes(text));
    const sessionMatch = (n: GraphNode) => n.kind === 'session' && n.title.toLowerCase().includes(text);
    pool = pool
      .filter((n) => rank.has(n.id) || fileMatch(n) || sessionMatch(n))
      .sort(
        (a, b) => (rank.get(a.id) ?? 1e9) - (rank.get(b.id) ?? 1e9) || nodeUpdatedAt(b) - nodeUpdatedAt(a),
      );
  } else pool.sort((a, b) => nodeUpdatedAt(b) - nodeUpdatedAt(a) || (a.id < b.id ? 1 : -1));
  return pool.slice(0, Math.max(1, limit)).map((node) => ({ node }));
}

/** The JSON shape of a query hit (`engram query --format json`, the MCP tools). */
export function queryHitJson(h: QueryHit) {
  const n = h.node;
  const memory = n.kind === 'memory' ? n.memory : null;
  return {
    id: n.id,
    type: n.type,
    title: n.title,
    subtitle: memory?.subtitle ?? (n.kind === 'file' ? n.file.purpose : ''),
    status: nodeStatus(n),
    stale: n.kind === 'memory' && n.stale !== null,
    ...(n.kind === 'memory' && n.stale ? { stale_since: n.stale.since, stale_reason: n.stale.reason } : {}),
    files: nodeFiles(n),
    tags: nodeTags(n),
    created: nodeCreatedAt(n),
    updated: nodeUpdatedAt(n),
    ...(memory ? { session_id: memory.sessionId, pinned: memory.pinned } : {}),
    ...(h.score !== undefined ? { score: h.score, why: h.why ?? [] } : {}),
  };
}

/** `[type] title - subtitle` (the seed's summary line), with the id and why for related hits. */
export function queryHitLine(h: QueryHit, staleDate: (ms: number) => string): string {
  const j = queryHitJson(h);
  const stale = j.stale && 'stale_since' in j ? ` (stale since ${staleDate(j.stale_since as number)})` : '';
  const status = j.status === 'active' ? '' : ` (${j.status})`;
  const subtitle = j.subtitle ? ` - ${j.subtitle.replace(/\s+/g, ' ').slice(0, 100)}` : '';
  const why = h.why ? `  [${h.why.join('; ')}]` : '';
  return `[${j.type}] ${j.title}${subtitle}${status}${stale} · ${j.id}${why}`;
}
