/**
 * A session's task list kept true in the store: later work that did what an item names closes that
 * item (`distill/task-evidence.ts`), and a later list finished in full closes the items it did — the
 * stored list is archived once nothing on it is open, or when the finished list was the same plan
 * rewritten (it did most of its open items). Through the mutation path; runs inside the
 * caller's transaction (`store-knowledge.ts`).
 */
import type { ProjectId } from '../core/ids.ts';
import type { ObservationDraft } from '../core/model.ts';
import { listAfterWork, recordedWork } from '../distill/task-evidence.ts';
import { tasksSubject } from '../distill/task-state.ts';
import { finishesList, remainingList, rewritesList } from '../distill/work-state.ts';
import type { MutationContext } from '../store/memory-writer.ts';
import type { Store } from '../store/store.ts';

/**
 * A memory of the session's work stored at `at`: the items of the session's task list, written
 * before it, that it did are no longer open. Whether the list changed.
 */
export function closeWorkedItems(
  store: Store,
  projectId: ProjectId,
  sessionId: string,
  work: Pick<ObservationDraft, 'facts' | 'filesModified' | 'subject'>,
  at: number,
  ctx: MutationContext,
): boolean {
  // A commit attached to its work records the files it staged, not work of its own.
  if (work.filesModified.length === 0 || work.subject === 'attach:commit') return false;
  const list = store.observations.bySubject(projectId, tasksSubject(sessionId));
  if (!list || list.status !== 'active' || list.lastSeenAt >= at) return false;
  const after = listAfterWork(list, recordedWork(work));
  if (!after) return false;
  if ('archive' in after) store.memory.archive(list.id, 'later work did every task on the list', ctx);
  else store.memory.edit(list.id, after, ctx);
  return true;
}

/** Task lists finished, with the items done on them (when known): the stored lists they close. */
export function closeFinishedLists(
  store: Store,
  projectId: ProjectId,
  finished: readonly { subject: string; at: number; done?: readonly string[] }[],
  ctx: MutationContext,
): void {
  for (const t of finished) {
    const list = store.observations.bySubject(projectId, t.subject);
    // A new list finished in full does not close the items the stored one still had open; those it
    // did are no longer open.
    if (!list || list.createdAt > t.at || list.status !== 'active') continue;
    if (finishesList(list.facts, t.done))
      store.memory.archive(list.id, 'every task on the list was done', ctx);
    // The same plan rewritten and finished: what it left out was taken off the plan.
    else if (rewritesList(list.facts, t.done))
      store.memory.archive(list.id, 'the list was rewritten and every task on it done', ctx);
    else {
      const left = remainingList(list, t.done ?? []);
      if (left) store.memory.edit(list.id, left, ctx);
    }
  }
}
