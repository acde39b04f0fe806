/**
 * Memories judged by an earlier version of the instruction screen (or made before there was one)
 * are judged again, a batch per worker round, through the mutation path: one newly held is logged as
 * `quarantine` (so the team push, the vault and the viewer see it), one released as `release`.
 */
import { SCREEN_VERSION } from '../core/instruction-screen.ts';
import type { Store } from '../store/store.ts';

/** Re-screen up to `limit` memories; how many became held. */
export function rescreenBatch(store: Store, at: number, limit = 500): { screened: number; held: number } {
  return store.transaction(() => {
    const ids = store.observations.unscreened(SCREEN_VERSION, limit);
    let held = 0;
    for (const id of ids) if (store.memory.rescreen(id, { origin: 'hook', at }) === 'held') held++;
    return { screened: ids.length, held };
  });
}
