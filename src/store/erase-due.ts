/**
 * Forgets requested with an undo window (the viewer's): once due, each memory still archived is erased
 * through the mutation path. Run by the viewer while it serves and by the worker each round, so a viewer
 * that stopped before the window ended still has its forgets carried out (through app/forget.ts, which
 * also takes the memories' vault notes and backups).
 */
import type { MutationContext } from './mutation-kit.ts';
import type { Store } from './store.ts';

/** Erase what is due by `until`; the ids of the memories erased (a restored memory is not). */
export function eraseDueForgets(store: Store, until: number, ctx: () => MutationContext): string[] {
  const erased: string[] = [];
  for (;;) {
    const due = store.pendingForgets.due(until, 200);
    if (due.length === 0) return erased;
    store.transaction(() => {
      for (const p of due) {
        store.pendingForgets.remove(p.observationId);
        const o = store.observations.get(p.observationId);
        if (o?.status === 'archived' && store.memory.forget(p.observationId, ctx()))
          erased.push(p.observationId);
      }
    });
  }
}
