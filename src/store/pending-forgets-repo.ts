/**
 * Forgets waiting out their undo window. The viewer archives the memory at once, records it here,
 * and erases it (through the mutation path) once due; undo deletes the row and restores the memory.
 */
import type { Db } from './database.ts';
import { lazyStatement } from './statements.ts';

export interface PendingForget {
  observationId: string;
  batch: string;
  /** The request archived it (so undo restores it); false when it was archived already. */
  archived: boolean;
  requestedAt: number;
  dueAt: number;
}

interface Row {
  observation_id: string;
  batch: string;
  archived: number;
  requested_at: number;
  due_at: number;
}

const toPending = (r: Row): PendingForget => ({
  observationId: r.observation_id,
  batch: r.batch,
  archived: r.archived === 1,
  requestedAt: r.requested_at,
  dueAt: r.due_at,
});

export function createPendingForgetsRepo(db: Db) {
  const add = lazyStatement(
    db,
    `INSERT INTO pending_forgets (observation_id, batch, archived, requested_at, due_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (observation_id) DO UPDATE SET batch = excluded.batch, requested_at = excluded.requested_at,
       due_at = excluded.due_at`,
  );
  const due = lazyStatement(db, `SELECT * FROM pending_forgets WHERE due_at <= ? ORDER BY due_at LIMIT ?`);
  const ofBatch = lazyStatement(db, `SELECT * FROM pending_forgets WHERE batch = ?`);
  const one = lazyStatement(db, `SELECT * FROM pending_forgets WHERE observation_id = ?`);
  const remove = lazyStatement(db, `DELETE FROM pending_forgets WHERE observation_id = ?`);
  const any = lazyStatement(db, `SELECT 1 FROM pending_forgets LIMIT 1`);
  return {
    /** Whether any forget is waiting for its undo window to end. */
    any(): boolean {
      return any().get() !== undefined;
    },
    add(p: PendingForget): void {
      add().run(p.observationId, p.batch, p.archived ? 1 : 0, p.requestedAt, p.dueAt);
    },
    /** Those whose window has passed, oldest first. */
    due(now: number, limit: number): PendingForget[] {
      return (due().all(now, limit) as Row[]).map(toPending);
    },
    ofBatch(batch: string): PendingForget[] {
      return (ofBatch().all(batch) as Row[]).map(toPending);
    },
    get(observationId: string): PendingForget | null {
      const row = one().get(observationId) as Row | undefined;
      return row ? toPending(row) : null;
    },
    remove(observationId: string): boolean {
      return remove().run(observationId).changes === 1;
    },
  };
}

export type PendingForgetsRepo = ReturnType<typeof createPendingForgetsRepo>;
