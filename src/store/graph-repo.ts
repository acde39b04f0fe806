/**
 * Reading the graph: a project's memories (every status the vault and queries show), its edges, the
 * edges around one node; and the graph step's cursor on the change log. Edges are written
 * only through the mutation path (`store.memory.link` / `unlink`).
 */
import type { Edge, EdgeKind } from '../core/graph.ts';
import type { ProjectId } from '../core/ids.ts';
import type { Observation } from '../core/model.ts';
import type { Db } from './database.ts';
import { OBSERVATION_COLUMNS, toObservation, type ObservationRow } from './observations-repo.ts';
import { lazyStatement, parseJsonList } from './statements.ts';

interface LinkRow {
  from_id: string;
  kind: string;
  to_id: string;
}

/** What ranking weighs of a memory. */
export type MemoryWeight = Pick<Observation, 'id' | 'type' | 'status' | 'modifiedAt' | 'pinned'>;
type WeightRow = Pick<ObservationRow, 'id' | 'type' | 'status' | 'modified_at' | 'pinned'>;
type WeightTuple = [id: string, type: string, status: string, modified_at: number, pinned: number];
const toWeight = (r: WeightRow): MemoryWeight => ({
  id: r.id as MemoryWeight['id'],
  type: r.type as MemoryWeight['type'],
  status: r.status as MemoryWeight['status'],
  modifiedAt: r.modified_at,
  pinned: r.pinned === 1,
});

/**
 * What the graph step reads of a memory to grow its edges (its text only when it holds a wiki-link or
 * is anchored: `mayLink` says whether any of its texts holds `[[`).
 */
export type StepMemory = Pick<
  Observation,
  | 'id'
  | 'projectId'
  | 'sessionId'
  | 'type'
  | 'status'
  | 'createdAt'
  | 'filesRead'
  | 'filesModified'
  | 'facts'
  | 'provenance'
> & { mayLink: boolean };
type StepTuple = [
  id: string,
  project_id: string,
  session_id: string | null,
  type: string,
  status: string,
  created_at: number,
  files_read: string,
  files_modified: string,
  facts: string,
  provenance: string,
  may_link: number | null,
];
const toStepMemory = ([
  id,
  project,
  session,
  type,
  status,
  createdAt,
  read,
  modified,
  facts,
  provenance,
  mayLink,
]: StepTuple): StepMemory => ({
  id: id as StepMemory['id'],
  projectId: project as ProjectId,
  sessionId: session,
  type: type as StepMemory['type'],
  status: status as StepMemory['status'],
  createdAt,
  filesRead: parseJsonList(read),
  filesModified: parseJsonList(modified),
  facts: parseJsonList(facts),
  provenance: parseJsonList(provenance),
  mayLink: mayLink === 1,
});

const toEdge = (r: LinkRow): Edge => ({ from: r.from_id, kind: r.kind as EdgeKind, to: r.to_id });
/**
 * The many-row reads take each row as an array (`raw`): the driver makes an object per row through the
 * engine's slow path, property by property, which costs more than the row itself.
 */
type LinkTuple = [from_id: string, kind: string, to_id: string];
const tupleEdge = ([from, kind, to]: LinkTuple): Edge => ({ from, kind: kind as EdgeKind, to });

export function createGraphRepo(db: Db) {
  const memories = lazyStatement(
    db,
    `SELECT ${OBSERVATION_COLUMNS} FROM observations
     WHERE project_id = ? AND status IN ('active', 'superseded', 'invalidated', 'archived')
     ORDER BY created_at, rowid`,
  );
  const recentMemories = lazyStatement(
    db,
    `SELECT ${OBSERVATION_COLUMNS} FROM observations
     WHERE project_id = ? AND status IN ('active', 'superseded', 'invalidated', 'archived')
     ORDER BY created_at DESC, rowid DESC LIMIT ?`,
  );
  // What ranking weighs of a memory, in the order `recentMemories` reads them.
  const recentWeights = lazyStatement(
    db,
    `SELECT id, type, status, modified_at, pinned FROM observations
     WHERE project_id = ? AND status IN ('active', 'superseded', 'invalidated', 'archived')
     ORDER BY created_at DESC, rowid DESC LIMIT ?`,
  );
  const pinnedMemories = lazyStatement(
    db,
    `SELECT ${OBSERVATION_COLUMNS} FROM observations WHERE project_id = ? AND pinned = 1 AND status = 'active'`,
  );
  // A fact holds `[[` only when the facts' JSON does (no two facts' texts meet in it), or when the JSON
  // escapes a character (`\u005b` is a `[`): the test on the texts joined never says yes where this says no.
  const stepMemories = lazyStatement(
    db,
    `SELECT id, project_id, session_id, type, status, created_at, files_read, files_modified, facts,
       provenance, instr(title, '[[') > 0 OR instr(subtitle, '[[') > 0 OR instr(narrative, '[[') > 0
         OR instr(facts, '[[') > 0 OR instr(facts, '\\u') > 0 AS may_link
     FROM observations WHERE id IN (SELECT value FROM json_each(?))`,
  );
  const edges = lazyStatement(db, `SELECT from_id, kind, to_id FROM links WHERE project_id = ?`);
  const edgesTouching = lazyStatement(
    db,
    `SELECT from_id, kind, to_id FROM links WHERE from_id IN (SELECT value FROM json_each(?))
     UNION SELECT from_id, kind, to_id FROM links WHERE to_id IN (SELECT value FROM json_each(?))`,
  );
  const outOf = lazyStatement(db, `SELECT from_id, kind, to_id FROM links WHERE from_id = ?`);
  const into = lazyStatement(db, `SELECT from_id, kind, to_id FROM links WHERE to_id = ?`);
  const byTitle = lazyStatement(
    db,
    `SELECT id FROM observations WHERE project_id = ? AND title = ? COLLATE NOCASE AND status <> 'forgotten' LIMIT 2`,
  );
  const afterRowid = lazyStatement(
    db,
    `SELECT rowid, id FROM observations WHERE rowid > ? AND status <> 'forgotten' ORDER BY rowid LIMIT ?`,
  );
  const afterRowidUnlogged = lazyStatement(
    db,
    `SELECT rowid, id FROM observations o WHERE rowid > ? AND status <> 'forgotten'
       AND NOT EXISTS (SELECT 1 FROM changes c WHERE c.entity_id = o.id AND c.seq > ? AND c.entity = 'memory'
         AND c.op IN (SELECT value FROM json_each(?)))
     ORDER BY rowid LIMIT ?`,
  );
  const activeTasks = lazyStatement(
    db,
    `SELECT ${OBSERVATION_COLUMNS} FROM observations INDEXED BY observations_by_session
     WHERE session_id = ? AND type = 'task' AND status = 'active'
     ORDER BY created_at DESC, rowid DESC`,
  );
  const lastTask = lazyStatement(
    db,
    `SELECT ${OBSERVATION_COLUMNS} FROM observations INDEXED BY observations_by_session
     WHERE session_id = ? AND created_at <= ? AND type = 'task' AND status = 'active' AND id <> ?
     ORDER BY created_at DESC, rowid DESC LIMIT 1`,
  );
  const turnTools = lazyStatement(
    db,
    `SELECT payload FROM events WHERE session_id = ? AND at BETWEEN ? AND ? AND kind = 'tool' ORDER BY at, seq`,
  );
  const projects = lazyStatement(db, `SELECT DISTINCT project_id FROM observations`);
  const active = lazyStatement(db, `SELECT DISTINCT project_id FROM sessions WHERE last_event_at > ?`);
  const getState = lazyStatement(db, `SELECT value FROM graph_state WHERE key = ?`);
  const statesLike = lazyStatement(db, `SELECT key, value FROM graph_state WHERE key LIKE ? ESCAPE '\\'`);
  const setState = lazyStatement(
    db,
    `INSERT INTO graph_state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
  );

  return {
    /** A project's memories that are not forgotten (archived ones too), oldest first. */
    memoriesOf(projectId: ProjectId): Observation[] {
      return (memories().all(projectId) as ObservationRow[]).map(toObservation);
    },
    /** A project's newest `limit` memories (not forgotten) and its pinned ones, newest first. */
    recentMemoriesOf(projectId: ProjectId, limit: number): Observation[] {
      const rows = recentMemories().all(projectId, limit) as ObservationRow[];
      const seen = new Set(rows.map((r) => r.id));
      for (const r of pinnedMemories().all(projectId) as ObservationRow[]) if (!seen.has(r.id)) rows.push(r);
      return rows.map(toObservation);
    },
    /**
     * The memories `recentMemoriesOf` reads, in its order, with only what ranking weighs of each (a
     * full row per memory is most of the cost of ranking a large project).
     */
    recentWeightsOf(projectId: ProjectId, limit: number): MemoryWeight[] {
      const rows = recentWeights().raw().all(projectId, limit) as WeightTuple[];
      const out = rows.map(([id, type, status, modified_at, pinned]) =>
        toWeight({ id, type, status, modified_at, pinned }),
      );
      const seen = new Set(out.map((m) => m.id as string));
      for (const r of pinnedMemories().all(projectId) as ObservationRow[])
        if (!seen.has(r.id)) out.push(toWeight(r));
      return out;
    },
    /**
     * What the graph step reads of each of these memories (`observations.get` reads all of a memory),
     * read together, a statement per thousand: id → what it reads; a memory there is not is left out.
     */
    stepMemories(ids: readonly string[]): Map<string, StepMemory> {
      const out = new Map<string, StepMemory>();
      for (let i = 0; i < ids.length; i += 1000)
        for (const r of stepMemories()
          .raw()
          .all(JSON.stringify(ids.slice(i, i + 1000))) as StepTuple[])
          out.set(r[0], toStepMemory(r));
      return out;
    },
    edgesOf(projectId: ProjectId): Edge[] {
      return (edges().raw().all(projectId) as LinkTuple[]).map(tupleEdge);
    },
    /** Every edge from or into one of `ids`. */
    edgesTouching(ids: readonly string[]): Edge[] {
      const list = JSON.stringify(ids);
      return (edgesTouching().raw().all(list, list) as LinkTuple[]).map(tupleEdge);
    },
    /** Edges from a node, and edges into it (backlinks). */
    around(id: string): { out: Edge[]; in: Edge[] } {
      return {
        out: (outOf().all(id) as LinkRow[]).map(toEdge),
        in: (into().all(id) as LinkRow[]).map(toEdge),
      };
    },
    /**
     * The tool calls captured in a turn (a session's events between two capture times), as stored
     * (raw events are pruned after retention.eventDays: an empty list then).
     */
    turnToolCalls(sessionId: string, from: number, to: number): { tool: string; input: unknown }[] {
      const out: { tool: string; input: unknown }[] = [];
      for (const row of turnTools().all(sessionId, from, to) as { payload: string }[]) {
        try {
          const e = JSON.parse(row.payload) as { tool?: unknown; input?: unknown };
          if (typeof e.tool === 'string') out.push({ tool: e.tool, input: e.input });
        } catch {
          // An unreadable payload was parked by the worker already; it tells nothing here.
        }
      }
      return out;
    },
    /** Projects with a session that saw an event after `at`. */
    projectsActiveSince(at: number): ProjectId[] {
      return (active().all(at) as { project_id: string }[]).map((r) => r.project_id as ProjectId);
    },
    /** The memory of a project with exactly this title (any letter case); null when none or several. */
    memoryTitled(projectId: string, title: string): string | null {
      const rows = byTitle().all(projectId, title) as { id: string }[];
      return rows.length === 1 ? (rows[0] as { id: string }).id : null;
    },
    /** Memories (not forgotten) after a rowid, in rowid order: a walk over every memory in batches. */
    memoryIdsAfter(rowid: number, limit: number): { rowid: number; id: string }[] {
      return afterRowid().all(rowid, limit) as { rowid: number; id: string }[];
    },
    /**
     * Like `memoryIdsAfter`, less the memories with a change of one of `ops` in the log after `seq`
     * (a reader of the log meets those there).
     */
    memoryIdsAfterUnlogged(
      rowid: number,
      limit: number,
      logged: { after: number; ops: readonly string[] },
    ): { rowid: number; id: string }[] {
      return afterRowidUnlogged().all(rowid, logged.after, JSON.stringify(logged.ops), limit) as {
        rowid: number;
        id: string;
      }[];
    },
    /** A session's active task memories, newest first (made at the same time: the later one first). */
    activeTasksOf(sessionId: string): Observation[] {
      return (activeTasks().all(sessionId) as ObservationRow[]).map(toObservation);
    },
    /** The newest active task memory of a session made at or before `at` (other than `exceptId`). */
    lastTaskOf(sessionId: string, at: number, exceptId: string): Observation | null {
      const row = lastTask().get(sessionId, at, exceptId) as ObservationRow | undefined;
      return row ? toObservation(row) : null;
    },
    /** Every project that has memories. */
    projectIds(): ProjectId[] {
      return (projects().all() as { project_id: string }[]).map((r) => r.project_id as ProjectId);
    },
    /** A named counter of the graph (the graph step's change-log cursor). */
    state(key: string): number {
      return (getState().get(key) as { value: number } | undefined)?.value ?? 0;
    },
    setState(key: string, value: number): void {
      setState().run(key, value);
    },
    /** Every state whose key starts with `prefix` (key → value). */
    statesWith(prefix: string): Map<string, number> {
      const rows = statesLike().all(`${prefix.replace(/[%_\\]/g, '\\$&')}%`) as {
        key: string;
        value: number;
      }[];
      return new Map(rows.map((r) => [r.key, r.value]));
    },
  };
}

export type GraphRepo = ReturnType<typeof createGraphRepo>;
