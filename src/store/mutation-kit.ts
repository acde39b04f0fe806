/**
 * What every mutation shares: who makes it (origin, actor, time), running inside the caller's
 * transaction or one of its own, and appending its row to the change log.
 */
import { cleanText } from '../core/clean-text.ts';
import type { Change, ChangeOp, ChangeOrigin, LinkOp, MemoryOp, SummaryOp } from '../core/model.ts';
import type { ChangesRepo, EdgeSet } from './changes-repo.ts';
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
  /** Append one row to the change log (inside the mutation's transaction); each kind its own ops. */
  log(
    entity: 'memory',
    id: string,
    projectId: string | null,
    op: MemoryOp,
    ctx: MutationContext,
    version: number | null,
  ): void;
  log(
    entity: 'summary',
    id: string,
    projectId: string | null,
    op: SummaryOp,
    ctx: MutationContext,
    version: null,
  ): void;
  log(
    entity: 'link',
    id: string,
    projectId: string | null,
    op: LinkOp,
    ctx: MutationContext,
    version: null,
  ): void;
  /** Append one row for edges added from one node at once (read back as one `link add` per edge). */
  logEdges(fromId: string, edges: EdgeSet, projectId: string, ctx: MutationContext): void;
}

export function createMutationKit(db: Db, changes: ChangesRepo): MutationKit {
  return {
    tx: (fn) => (db.inTransaction ? fn() : writeTransaction(db, fn)),
    log: (
      entity: Change['entity'],
      entityId: string,
      projectId: string | null,
      op: ChangeOp['op'],
      ctx: MutationContext,
      version: number | null,
    ) => {
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
    logEdges: (fromId, edges, projectId, ctx) => {
      changes.appendEdges(fromId, edges, {
        projectId,
        origin: ctx.origin,
        actor: ctx.actor == null ? null : cleanText(ctx.actor),
        at: ctx.at,
      });
    },
  };
}
