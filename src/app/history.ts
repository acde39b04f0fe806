/**
 * The history read model: a memory as it is now, its earlier versions newest first (each with the
 * change that replaced it), and its change-log rows. `engram history`, MCP's history tool and the
 * viewer's history API read it here.
 */
import type { Store } from '../store/store.ts';
import { memoryOf, type Scope } from './scope.ts';

/** The history verb; NOT_FOUND when the id names no memory. */
export function history(store: Store, id: string, scope?: Scope) {
  const current = memoryOf(store, id, scope);
  return {
    id,
    current,
    versions: store.observations.history(id),
    changes: store.changes.ofEntity(id),
  };
}

export type MemoryHistory = ReturnType<typeof history>;
