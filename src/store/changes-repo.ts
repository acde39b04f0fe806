/**
 * The change log: one row per mutation of a memory, a session summary or a link, appended by the
 * mutation path in the same transaction as the mutation. Readers (the vault, the viewer's live stream,
 * team sync, `engram changes`) tail it by sequence number.
 */
import type { Change, ChangeOrigin } from '../core/model.ts';
import type { Db } from './database.ts';
import { lazyStatement } from './statements.ts';

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
}

// Rows are written only through the mutation kit, whose `log` takes typed operations.
const toChange = (r: ChangeRow): Change =>
  ({
    seq: r.seq,
    entity: r.entity,
    entityId: r.entity_id,
    projectId: r.project_id,
    op: r.op,
    origin: r.origin,
    actor: r.actor,
    at: r.at,
    version: r.version,
  }) as Change;

const COLUMNS = 'seq, entity, entity_id, project_id, op, origin, actor, at, version';

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

export function createChangesRepo(db: Db) {
  const insert = lazyStatement(
    db,
    `INSERT INTO changes (entity, entity_id, project_id, op, origin, actor, at, version) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
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
  const ofEntity = lazyStatement(db, `SELECT ${COLUMNS} FROM changes WHERE entity_id = ? ORDER BY seq`);
  const last = lazyStatement(db, `SELECT COALESCE(MAX(seq), 0) AS n FROM changes`);
  const latestOf = lazyStatement(
    db,
    `SELECT ${COLUMNS} FROM changes WHERE entity IN (SELECT value FROM json_each(?)) ORDER BY seq DESC LIMIT ?`,
  );

  return {
    /** Append one change; only the mutation path calls this, inside its transaction. */
    append(c: NewChange): number {
      const info = insert().run(c.entity, c.entityId, c.projectId, c.op, c.origin, c.actor, c.at, c.version);
      return Number(info.lastInsertRowid);
    },
    /** Changes after `seq`, oldest first (at most `limit`), optionally of one project. */
    since(seq: number, limit: number, projectId?: string): Change[] {
      const rows = projectId ? sinceInProject().all(seq, projectId, limit) : since().all(seq, limit);
      return (rows as ChangeRow[]).map(toChange);
    },
    /**
     * Changes after `seq` up to `upTo` of the given kinds only (`entity op`, e.g. `memory create`),
     * oldest first, at most `limit`: a reader that acts on a few kinds skips the others in SQL.
     */
    sinceOfKinds(seq: number, upTo: number, kinds: readonly string[], limit: number): Change[] {
      return (sinceOfKinds().all(seq, upTo, JSON.stringify(kinds), limit) as ChangeRow[]).map(toChange);
    },
    /** Every change of one memory, summary (session id) or link, oldest first. */
    ofEntity(entityId: string): Change[] {
      return (ofEntity().all(entityId) as ChangeRow[]).map(toChange);
    },
    /** The newest changes of these kinds of entity, newest first. */
    latest(entities: readonly Change['entity'][], limit: number): Change[] {
      return (latestOf().all(JSON.stringify(entities), limit) as ChangeRow[]).map(toChange);
    },
    /** The newest sequence number (0 when nothing changed yet). */
    lastSeq(): number {
      return (last().get() as { n: number }).n;
    },
  };
}

export type ChangesRepo = ReturnType<typeof createChangesRepo>;
