/**
 * The forget verb: a memory is erased for good from everywhere engram keeps it — its row and every
 * version (through the mutation path), its note in every vault engram keeps (at once, not at the next
 * vault sync), the SessionStart snapshots, and the backups that still hold it (the worker takes a new one). Every surface forgets
 * through here: the CLI and MCP at once, the viewer when a forget's undo window ends.
 */
import { dropErasedBackups } from '../store/backup.ts';
import { removeContextSnapshots, snapshotDirBeside } from '../store/context-snapshot.ts';
import { eraseDueForgets } from '../store/erase-due.ts';
import type { MutationContext } from '../store/memory-writer.ts';
import type { Store } from '../store/store.ts';
import { eraseFromVault } from '../graph/vault-erase.ts';

export interface ForgetResult {
  /** Erased now. */
  forgotten: string[];
  /** No such memory, or forgotten already. */
  missing: string[];
}

/** What forgetting needs beyond the store: where backups are kept (null: leave them). */
export interface ForgetDeps {
  store: Store;
  backupDir: string | null;
}

/** Erase what the store has just forgotten from the vaults, the SessionStart snapshots and the backups. */
function eraseCopies(deps: ForgetDeps, ids: readonly string[]): void {
  for (const id of ids) eraseFromVault(deps.store, null, { id });
  // The snapshots hold memories' titles: all of them go (the worker takes new ones).
  const snapshots = ids.length > 0 ? snapshotDirBeside(deps.store.db) : null;
  if (snapshots) removeContextSnapshots(snapshots);
  if (ids.length > 0 && deps.backupDir !== null) dropErasedBackups(deps.store.db, deps.backupDir);
}

/** Forget memories by id, in one transaction; then their vault notes and the backups holding them. */
export function forget(deps: ForgetDeps, ids: readonly string[], ctx: () => MutationContext): ForgetResult {
  const { store } = deps;
  const done = store.transaction(() => ids.map((id) => ({ id, forgotten: store.memory.forget(id, ctx()) })));
  const forgotten = done.filter((r) => r.forgotten).map((r) => r.id);
  eraseCopies(deps, forgotten);
  return { forgotten, missing: done.filter((r) => !r.forgotten).map((r) => r.id) };
}

/** Carry out the forgets whose undo window ended by `until` (the viewer's); the ids erased. */
export function forgetDue(deps: ForgetDeps, until: number, ctx: () => MutationContext): string[] {
  const erased = eraseDueForgets(deps.store, until, ctx);
  eraseCopies(deps, erased);
  return erased;
}
