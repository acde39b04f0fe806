/**
 * The review verbs: the memories held in quarantine (instruction-like text from below the user's
 * trust: never injected, never standing, never pushed to the team), and a person's decision on each —
 * approve (it may be injected, stand and sync) or reject (invalidated, restorable) — through the
 * mutation path with the caller's origin. `engram review` and the viewer's review page and API ask here.
 * Each decision is a change-log row; in a project shared with a team, team sync also records it in
 * the team's audit chain (worker/team-reviews.ts), under the deciding member's name.
 */
import { EngramError, isEngramError } from '../core/errors.ts';
import type { Observation } from '../core/model.ts';
import type { MutationContext } from '../store/memory-writer.ts';
import type { Store } from '../store/store.ts';

/** The held memories, newest change first, and how many there are. */
export function heldMemories(store: Store, limit = 200): { total: number; held: Observation[] } {
  return { total: store.observations.heldCount(), held: store.observations.held(null, limit) };
}

export interface Decided {
  done: string[];
  /** Not quarantined: nothing to decide. */
  notHeld: string[];
  missing: string[];
  /** Of `done`: in a project shared with a team, so recorded in its audit log at the next sync. */
  shared: string[];
}

/** Approve or reject memories, in one transaction; an id that is not held or names none is reported. */
export function decide(
  store: Store,
  verb: 'approve' | 'reject',
  ids: readonly string[],
  reason: string,
  ctx: MutationContext,
): Decided {
  const out: Decided = { done: [], notHeld: [], missing: [], shared: [] };
  store.transaction(() => {
    for (const id of ids) {
      try {
        const done =
          verb === 'approve' ? store.memory.approve(id, ctx) : store.memory.reject(id, reason, ctx);
        (done ? out.done : out.notHeld).push(id);
        const projectId = done ? store.observations.get(id)?.projectId : undefined;
        if (projectId && store.team.project(projectId)) out.shared.push(id);
      } catch (error) {
        if (!isEngramError(error, 'NOT_FOUND')) throw error;
        out.missing.push(id);
      }
    }
  });
  return out;
}

/** One decision: NOT_FOUND for no such memory, INPUT_INVALID when it is not quarantined. */
export function decideOne(
  store: Store,
  verb: 'approve' | 'reject',
  id: string,
  reason: string,
  ctx: MutationContext,
): Observation {
  const r = decide(store, verb, [id], reason, ctx);
  if (r.missing.length > 0) throw new EngramError('NOT_FOUND', `no memory with id ${id}`);
  if (r.notHeld.length > 0) throw new EngramError('INPUT_INVALID', `${id} is not quarantined`);
  return store.observations.get(id) as Observation;
}
