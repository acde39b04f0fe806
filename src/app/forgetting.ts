/**
 * Forgetting from the viewer, with an undo window before erasure. A request archives the memories at
 * once (out of recall and search) and records them as pending; undo restores them; once due they are
 * erased as every forget is (app/forget.ts: the store, the vault notes, the backups). A memory restored by other means meanwhile is no longer archived,
 * and so is not erased: restoring it cancels its forget.
 */
import { randomBytes } from 'node:crypto';
import { EngramError } from '../core/errors.ts';
import type { Clock, Logger } from '../core/ports.ts';
import type { MutationContext } from '../store/memory-writer.ts';
import type { Store } from '../store/store.ts';
import { forgetDue } from './forget.ts';

/** Most memories one request may forget (a bigger filter must be narrowed). */
export const MAX_FORGET = 10_000;
const ARCHIVE_REASON = 'forget requested in the viewer (undo restores it)';

export interface ForgetRequest {
  batch: string;
  dueAt: number;
  count: number;
}

export function createForgetting(deps: {
  store: Store;
  clock: Clock;
  logger: Logger;
  undoMs: () => number;
  /** Where backups are kept (those holding an erased memory go); null: leave them. */
  backupDir: string | null;
}) {
  const { store, clock, logger } = deps;
  const ctx = (): MutationContext => ({ origin: 'viewer', at: clock.now() });

  return {
    /** Archive the memories now and erase them after the undo window. */
    request(ids: readonly string[]): ForgetRequest {
      if (ids.length > MAX_FORGET)
        throw new EngramError('INPUT_INVALID', `at most ${MAX_FORGET} memories can be forgotten at once`, {
          hint: 'Narrow the filter (a project, a type, a date range).',
        });
      const at = clock.now();
      const batch = `fgt_${randomBytes(8).toString('hex')}`;
      const dueAt = at + deps.undoMs();
      let count = 0;
      store.transaction(() => {
        for (const id of ids) {
          const o = store.observations.get(id);
          if (!o || o.status === 'forgotten') continue;
          const archived = o.status !== 'archived' && store.memory.archive(id, ARCHIVE_REASON, ctx());
          store.pendingForgets.add({ observationId: id, batch, archived, requestedAt: at, dueAt });
          count++;
        }
      });
      if (ids.length > 0 && count === 0) throw new EngramError('NOT_FOUND', 'nothing left to forget there');
      return { batch, dueAt, count };
    },

    /** Take a request back: its memories return to what they were. */
    undo(batch: string): { restored: number } {
      const pending = store.pendingForgets.ofBatch(batch);
      if (pending.length === 0)
        throw new EngramError('NOT_FOUND', 'nothing to undo: the memories were already erased, or restored');
      let restored = 0;
      store.transaction(() => {
        for (const p of pending) {
          store.pendingForgets.remove(p.observationId);
          const o = store.observations.get(p.observationId);
          if (p.archived && o?.status === 'archived') {
            store.memory.restore(p.observationId, ctx());
            restored++;
          }
        }
      });
      return { restored };
    },

    /** Erase what is due by `until` (default now) and still archived; returns how many were erased. */
    sweep(until = clock.now()): number {
      const erased = forgetDue({ store, backupDir: deps.backupDir }, until, ctx).length;
      if (erased > 0) logger.info('forgot memories whose undo window ended', { erased });
      return erased;
    },

    /** When a memory's forget is due, if it has one pending. */
    pendingOf(id: string): { batch: string; dueAt: number } | null {
      const p = store.pendingForgets.get(id);
      return p ? { batch: p.batch, dueAt: p.dueAt } : null;
    },
  };
}

export type Forgetting = ReturnType<typeof createForgetting>;
