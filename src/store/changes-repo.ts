/**
 * The change log: one row per mutation of a memory, a session summary or a link, appended by the
 * mutation path in the same transaction as the mutation — or one row for a set of edges added from one
 * node at once (the graph step's derived edges: `edges`, 0017), which every reader here gets as one
 * change per edge, each with the row's sequence number. Readers (the vault, the viewer's live stream,
 * team sync, `engram changes`) tail it by sequence number: a row's edges always come whole.
 */
import type { Change, ChangeOrigin } from '../core/model.ts';
import type { Db } from './database.ts';
import { lazyStatement, type Stmt } from './statements.ts';

interface ChangeRow {
  seq: number;
  entity: Change['entity'];
  entity_id: string;
  project_id: string | null;
  op: string;
  origin: ChangeOrigin;
  actor: string | null;
  at: number;
  version: number | null;
  /** A set row's edges: JSON [kind, to] pairs leaving `entity_id` (null on every other row). */
  edges: string | null;
}

// Rows are written only through the mutation kit, whose `log` takes typed operations.
const toChange = (r: ChangeRow, entityId = r.entity_id): Change =>
  ({
    seq: r.seq,
    entity: r.entity,
    entityId,
    projectId: r.project_id,
    op: r.op,
    origin: r.origin,
    actor: r.actor,
    at: r.at,
    version: r.version,
  }) as Change;

/** The changes one row stands for: itself, or one per edge of a set row ("<from> <kind> <to>"). */
function toChanges(rows: readonly ChangeRow[]): Change[] {
  const out: Change[] = [];
  for (const r of rows) {
    if (r.edges === null) {
      out.push(toChange(r));
      continue;
    }
    for (const [kind, to] of JSON.parse(r.edges) as [string, string][])
      out.push(toChange(r, `${r.entity_id} ${kind} ${to}`));
  }
  return out;
}

const COLUMNS = 'seq, entity, entity_id, project_id, op, origin, actor, at, version, edges';
type ChangeTuple = [
  seq: number,
  entity: ChangeRow['entity'],
  entity_id: string,
  project_id: string | null,
  op: string,
  origin: ChangeOrigin,
  actor: string | null,
  at: number,
  version: number | null,
  edges: string | null,
];

/**
 * The rows of a read of `COLUMNS`, each taken as an array (`raw`): the driver makes an object per row
 * through the engine's slow path, property by property, which costs more than the row itself.
 */
function rowsOf(stmt: Stmt, ...params: unknown[]): ChangeRow[] {
  return (stmt.raw().all(...params) as ChangeTuple[]).map(
    ([seq, entity, entity_id, project_id, op, origin, actor, at, version, edges]) => ({
      seq,
      entity,
      entity_id,
      project_id,
      op,
      origin,
      actor,
      at,
      version,
      edges,
    }),
  );
}

export interface NewChange {
  entity: Change['entity'];
  entityId: string;
  projectId: string | null;
  op: string;
  origin: ChangeOrigin;
  actor: string | null;
  at: number;
  version: number | null;
}

/** Edges added from one node in one mutation: each as [kind, to]. */
export type EdgeSet = readonly (readonly [kind: string, to: string])[];

export function createChangesRepo(db: Db) {
  const insert = lazyStatement(
    db,
    `INSERT INTO changes (entity, entity_id, project_id, op, origin, actor, at, version, edges)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const since = lazyStatement(db, `SELECT ${COLUMNS} FROM changes WHERE seq > ? ORDER BY seq LIMIT ?`);
  const sinceInProject = lazyStatement(
    db,
    `SELECT ${COLUMNS} FROM changes WHERE seq > ? AND project_id = ? ORDER BY seq LIMIT ?`,
  );
  const sinceOfKinds = lazyStatement(
    db,
    `SELECT ${COLUMNS} FROM changes WHERE seq > ? AND seq <= ?
       AND entity || ' ' || op IN (SELECT value FROM json_each(?)) ORDER BY seq LIMIT ?`,
  );
  // A link's changes may sit in its own rows or in set rows of the node it leaves.
  const ofEntity = lazyStatement(
    db,
    `SELECT ${COLUMNS} FROM changes WHERE entity_id = ? OR (entity_id = ? AND edges IS NOT NULL) ORDER BY seq`,
  );
  const last = lazyStatement(db, `SELECT COALESCE(MAX(seq), 0) AS n FROM changes`);
  const latestOf = lazyStatement(
    db,
    `SELECT ${COLUMNS} FROM changes WHERE entity IN (SELECT value FROM json_each(?)) ORDER BY seq DESC LIMIT ?`,
  );

  return {
    /** Append one change; only the mutation path calls this, inside its transaction. */
    append(c: NewChange): number {
      const info = insert().run(
        c.entity,
        c.entityId,
        c.projectId,
        c.op,
        c.origin,
        c.actor,
        c.at,
        c.version,
        null,
      );
      return Number(info.lastInsertRowid);
    },
    /**
     * Append one row for edges added from `fromId` in one mutation (readers get one `link add` change
     * per edge); only the mutation path calls this, inside its transaction, with at least one edge.
     */
    appendEdges(
      fromId: string,
      edges: EdgeSet,
      c: Omit<NewChange, 'entity' | 'entityId' | 'op' | 'version'>,
    ): number {
      const info = insert().run(
        'link',
        fromId,
        c.projectId,
        'add',
        c.origin,
        c.actor,
        c.at,
        null,
        JSON.stringify(edges),
      );
      return Number(info.lastInsertRowid);
    },
    /**
     * Changes after `seq`, oldest first, from at most `limit` rows (a set row gives all its edges, so
     * there may be more changes than `limit`; the next read goes on after the last one's seq),
     * optionally of one project.
     */
    since(seq: number, limit: number, projectId?: string): Change[] {
      const rows = projectId ? rowsOf(sinceInProject(), seq, projectId, limit) : rowsOf(since(), seq, limit);
      return toChanges(rows);
    },
    /**
     * Changes after `seq` up to `upTo` of the given kinds only (`entity op`, e.g. `memory create`),
     * oldest first, from at most `limit` rows (as `since`): a reader that acts on a few kinds skips the
     * others in SQL.
     */
    sinceOfKinds(seq: number, upTo: number, kinds: readonly string[], limit: number): Change[] {
      return toChanges(rowsOf(sinceOfKinds(), seq, upTo, JSON.stringify(kinds), limit));
    },
    /** Every change of one memory, summary (session id) or link ("<from> <kind> <to>"), oldest first. */
    ofEntity(entityId: string): Change[] {
      const from = entityId.includes(' ') ? entityId.slice(0, entityId.indexOf(' ')) : null;
      const rows = rowsOf(ofEntity(), entityId, from);
      return toChanges(rows).filter((c) => c.entityId === entityId);
    },
    /** The newest changes of these kinds of entity, newest first (at most `limit`). */
    latest(entities: readonly Change['entity'][], limit: number): Change[] {
      return toChanges(rowsOf(latestOf(), JSON.stringify(entities), limit)).slice(0, limit);
    },
    /** The newest sequence number (0 when nothing changed yet). */
    lastSeq(): number {
      return (last().get() as { n: number }).n;
    },
  };
}

export type ChangesRepo = ReturnType<typeof createChangesRepo>;
