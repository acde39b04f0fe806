/**
 * What every mutation shares: who makes it (origin, actor, time), running inside the caller's
 * transaction or one of its own, and appending its row to the change log.
 */
import { cleanText } from '../core/clean-text.ts';
import type { Change, ChangeOrigin } from '../core/model.ts';
import type { ChangesRepo } from './changes-repo.ts';
import { writeTransaction, type Db } from './database.ts';

/** Who makes a change, from where, and when (the clock, not the time of what it records). */
export interface MutationContext {
  origin: ChangeOrigin;
  actor?: string | null;
  at: number;
}

export interface MutationKit {
  /** Run in the caller's transaction, or in a write transaction of its own. */
  tx<T>(fn: () => T): T;
  /** Append one row to the change log (inside the mutation's transaction). */
  log(
    entity: Change['entity'],
    entityId: string,
    projectId: string | null,
    op: string,
    ctx: MutationContext,
    version: number | null,
  ): void;
}

export function createMutationKit(db: Db, changes: ChangesRepo): MutationKit {
  return {
    tx: (fn) => (db.inTransaction ? fn() : writeTransaction(db, fn)),
    log: (entity, entityId, projectId, op, ctx, version) => {
      changes.append({
        entity,
        entityId,
        projectId,
        op,
        origin: ctx.origin,
        actor: ctx.actor == null ? null : cleanText(ctx.actor),
        at: ctx.at,
        version,
      });
    },
  };
}
