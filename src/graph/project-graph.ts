/**
 * A project's graph read in one go (a few queries): memory nodes (with staleness), file nodes, session
 * nodes, and the edges between them both ways (backlinks are computed, never stored). Queries, the
 * vault, PageRank and pruning all work on this snapshot.
 */
import type { Edge, FileNode, StaleMark } from '../core/graph.ts';
import type { ProjectId } from '../core/ids.ts';
import type { Observation, Project, Session, Summary } from '../core/model.ts';
import type { MemoryWeight } from '../store/graph-repo.ts';
import type { Store } from '../store/store.ts';
import { sessionNodeId, type SessionNodeId } from './node-ids.ts';

export interface MemoryNode {
  kind: 'memory';
  id: string;
  /** The memory's type (decision, discovery, error, task, …). */
  type: string;
  title: string;
  memory: Observation;
  stale: StaleMark | null;
}

export interface FileGraphNode {
  kind: 'file';
  id: string;
  /** `file-summary` once the file was summarised, else `file`. */
  type: 'file' | 'file-summary';
  title: string;
  file: FileNode;
}

export interface SessionGraphNode {
  kind: 'session';
  id: SessionNodeId;
  type: 'session';
  title: string;
  session: Session;
  summary: Summary | null;
}

export type GraphNode = MemoryNode | FileGraphNode | SessionGraphNode;

export interface ProjectGraph {
  project: Project;
  nodes: Map<string, GraphNode>;
  /** Edges from each node, and into each node (backlinks), between nodes of the snapshot. */
  out: Map<string, Edge[]>;
  in: Map<string, Edge[]>;
}

/** A short one-line title for a session node. */
export function sessionTitle(session: Session, summary: Summary | null): string {
  const day = new Date(session.startedAt).toISOString().slice(0, 10);
  const request = (summary?.request ?? '').replace(/\s+/g, ' ').trim();
  return request === '' ? `Session ${day}` : `Session ${day} ${request.slice(0, 60).trim()}`;
}

export function nodeCreatedAt(n: GraphNode): number {
  if (n.kind === 'memory') return n.memory.createdAt;
  if (n.kind === 'file') return n.file.createdAt;
  return n.session.startedAt;
}

export function nodeUpdatedAt(n: GraphNode): number {
  if (n.kind === 'memory') return n.memory.modifiedAt;
  if (n.kind === 'file') return n.file.updatedAt;
  return Math.max(n.session.startedAt, n.session.endedAt ?? 0, n.summary?.updatedAt ?? 0);
}

export function nodeTags(n: GraphNode): string[] {
  return n.kind === 'memory' ? n.memory.concepts : [];
}

export function nodeStatus(n: GraphNode): string {
  if (n.kind === 'memory') return n.memory.status;
  if (n.kind === 'file') return n.file.deletedAt === null ? 'active' : 'deleted';
  return n.session.status;
}

/** Files a node is about: a memory's files, a file node's own path, a session's edited files. */
export function nodeFiles(n: GraphNode): string[] {
  if (n.kind === 'memory') return [...new Set([...n.memory.filesModified, ...n.memory.filesRead])];
  if (n.kind === 'file') return [n.file.path];
  return n.summary?.filesEdited ?? [];
}

function addEdge(map: Map<string, Edge[]>, key: string, e: Edge): void {
  const list = map.get(key);
  if (list) list.push(e);
  else map.set(key, [e]);
}

export interface LoadOptions {
  /** Leave archived memories out (queries of live memory); the vault keeps them out too. */
  includeArchived?: boolean;
  /**
   * Only the project's newest memories (and its pinned ones): a working set that keeps ranking, queries
   * and the MCP tools bounded however large the project grows. Absent: every memory (the vault, prune).
   */
  maxMemories?: number;
  /** Memories to have in the working set whatever their age (the ones a query names). */
  include?: readonly string[];
}

/** The working set most readers of a graph use: enough for key files, related memories, neighbourhoods. */
export const WORKING_SET = 5000;

function withIncluded(
  store: Store,
  projectId: ProjectId,
  memories: Observation[],
  include: readonly string[] = [],
): Observation[] {
  const have = new Set<string>(memories.map((m) => m.id));
  for (const id of include) {
    if (have.has(id)) continue;
    const m = store.observations.get(id);
    if (m && m.projectId === projectId && m.status !== 'forgotten') memories.push(m);
  }
  return memories;
}

/** Read a project's graph: all of it, or its working set (`maxMemories`). */
export function loadProjectGraph(store: Store, project: Project, options: LoadOptions = {}): ProjectGraph {
  const projectId = project.id as ProjectId;
  const nodes = new Map<string, GraphNode>();
  const stale = store.anchors.staleInProject(projectId);
  const memories =
    options.maxMemories === undefined
      ? store.graph.memoriesOf(projectId)
      : withIncluded(
          store,
          projectId,
          store.graph.recentMemoriesOf(projectId, options.maxMemories),
          options.include,
        );
  for (const m of memories) {
    if (m.status === 'archived' && !options.includeArchived) continue;
    nodes.set(m.id, {
      kind: 'memory',
      id: m.id,
      type: m.type,
      title: m.title,
      memory: m,
      stale: stale.get(m.id) ?? null,
    });
  }
  const edges = () =>
    options.maxMemories === undefined
      ? store.graph.edgesOf(projectId)
      : store.graph.edgesTouching(memories.map((m) => m.id));
  return { project, ...withFilesAndSessions(store, projectId, nodes, edges) };
}

/**
 * Add a project's file and session nodes to its memory nodes, and the edges between them all (`edges`
 * reads them); session nodes with nothing in them are left out.
 */
function withFilesAndSessions<N extends { kind: string; id: string }>(
  store: Store,
  projectId: ProjectId,
  nodes: Map<string, N | FileGraphNode | SessionGraphNode>,
  edges: () => Edge[],
): Pick<ProjectGraph, 'out' | 'in'> & { nodes: Map<string, N | FileGraphNode | SessionGraphNode> } {
  for (const f of store.graphFiles.ofProject(projectId))
    nodes.set(f.id, {
      kind: 'file',
      id: f.id,
      type: f.summarized ? 'file-summary' : 'file',
      title: f.path,
      file: f,
    });
  const summaries = new Map(store.summaries.ofProject(projectId).map((s) => [s.sessionId, s]));
  for (const s of store.sessions.ofProject(projectId)) {
    const id = sessionNodeId(s.id);
    const summary = summaries.get(s.id) ?? null;
    nodes.set(id, {
      kind: 'session',
      id,
      type: 'session',
      title: sessionTitle(s, summary),
      session: s,
      summary,
    });
  }
  const out = new Map<string, Edge[]>();
  const into = new Map<string, Edge[]>();
  for (const e of edges()) {
    const from = nodes.get(e.from);
    const to = nodes.get(e.to);
    if (!from || !to) continue;
    // The edge (read just now, ours) names its ends by the nodes' own id strings, not the copies its row
    // brought: every later lookup by them (a vault renders each edge in both its notes and in graph.json)
    // finds its key by identity, and the copies are not kept.
    e.from = from.id;
    e.to = to.id;
    addEdge(out, e.from, e);
    addEdge(into, e.to, e);
  }
  // Session nodes with nothing in them are left out (a session that made no memory).
  for (const [id, n] of nodes)
    if (n.kind === 'session' && !into.has(id) && !out.has(id) && (n as SessionGraphNode).summary === null)
      nodes.delete(id);
  return { nodes, out, in: into };
}

/** A memory node with only what ranking weighs of the memory. */
export interface WeightNode {
  kind: 'memory';
  id: string;
  type: string;
  memory: MemoryWeight;
  stale: StaleMark | null;
}

/** The graph key files are ranked on. */
export interface RankGraph {
  nodes: ReadonlyMap<string, WeightNode | FileGraphNode | SessionGraphNode>;
  out: ReadonlyMap<string, readonly Edge[]>;
}

/**
 * A project's working set as `loadProjectGraph(…, { maxMemories })` reads it — the same nodes and
 * edges in the same order — with only what ranking weighs of each memory.
 */
export function loadRankGraph(store: Store, project: Project, maxMemories = WORKING_SET): RankGraph {
  const projectId = project.id as ProjectId;
  const stale = store.anchors.staleInProject(projectId);
  const memories = store.graph.recentWeightsOf(projectId, maxMemories);
  const nodes = new Map<string, WeightNode | FileGraphNode | SessionGraphNode>();
  for (const m of memories) {
    if (m.status === 'archived') continue;
    nodes.set(m.id, { kind: 'memory', id: m.id, type: m.type, memory: m, stale: stale.get(m.id) ?? null });
  }
  return withFilesAndSessions(store, projectId, nodes, () =>
    store.graph.edgesTouching(memories.map((m) => m.id)),
  );
}

/** Edges of a node, both ways. */
export function edgesAround(g: ProjectGraph, id: string): { out: Edge[]; in: Edge[] } {
  return { out: g.out.get(id) ?? [], in: g.in.get(id) ?? [] };
}
