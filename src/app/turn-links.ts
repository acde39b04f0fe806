/**
 * A gotcha and the work of its turn that share the fix's files are one event told in two parts
 * (`distill/turn-parts.ts`): the work memory is linked to the gotcha (`related`), through the mutation
 * path, so either leads to the other. Runs inside the caller's transaction (`store-knowledge.ts`).
 */
import type { ProjectId } from '../core/ids.ts';
import type { ObservationDraft } from '../core/model.ts';
import { sameEvent } from '../distill/turn-parts.ts';
import type { MutationContext } from '../store/memory-writer.ts';
import type { Store } from '../store/store.ts';

/** Link the gotcha just stored (`id`, from `m` of the turn at its time) to the session's work of that turn. */
export function linkGotchaToWork(
  store: Store,
  gotcha: {
    projectId: ProjectId;
    session: string;
    id: string;
    m: { draft: Pick<ObservationDraft, 'type' | 'filesModified'>; createdAt: number };
  },
  ctx: MutationContext,
): number {
  const { projectId, session, id, m } = gotcha;
  if (m.draft.type !== 'gotcha') return 0;
  let linked = 0;
  for (const o of store.observations.ofSession(session)) {
    const sameTurn = o.status === 'active' && o.createdAt === m.createdAt && o.id !== id;
    if (sameTurn && sameEvent(o, m.draft) && store.memory.link(o.id, 'related', id, projectId, ctx)) linked++;
  }
  return linked;
}
