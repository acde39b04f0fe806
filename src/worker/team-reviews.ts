/**
 * A person's approvals and rejections of quarantined memories in a shared project, sent to the team's
 * audit chain (`POST /v1/projects/:id/reviews`, team/review-audit.ts). They are read from the change
 * log — its `memory approve` / `memory reject` rows, which only a person's origin writes — after the
 * project's own review cursor (team_meta, `REVIEW_CURSOR`), so decisions made before the project was
 * shared are recorded at its first sync; the cursor moves only once the server recorded a page, so each
 * decision is recorded at least once. The memory itself travels with the outbox like any change: an
 * approved memory may be pushed from then on; a rejected one stays held, so its text never leaves.
 *
 * A teammate's approval never releases a memory here: a pulled memory is external content, screened
 * at that trust on this machine (store/memory-review.ts), and held until a person here approves it.
 * Their decision is in the team's audit log, under their own name, for whoever administers the project.
 */
import { isEngramError } from '../core/errors.ts';
import { SCREEN_VERSION } from '../core/instruction-screen.ts';
import type { Change } from '../core/model.ts';
import type { Store } from '../store/store.ts';
import type { SharedProject } from '../store/team-repo.ts';
import { MAX_REVIEWS, type ReviewEvent } from '../team/protocol.ts';
import { REVIEW_CURSOR, type SyncReport, type TeamSyncDeps } from './team-round.ts';

const KINDS = ['memory approve', 'memory reject'];

function eventOf(store: Store, c: Change): ReviewEvent | null {
  if (c.entity !== 'memory' || (c.op !== 'approve' && c.op !== 'reject')) return null;
  // Only a person's origins approve or reject (store/memory-review.ts): anything else is not a decision.
  if (c.origin !== 'cli' && c.origin !== 'viewer' && c.origin !== 'vault') return null;
  const memory = store.observations.get(c.entityId);
  return {
    memory: c.entityId,
    verdict: c.op,
    version: c.version,
    // The screen the memory was judged under (an approval stamps the version it was made with).
    screen: memory?.screenVersion ?? SCREEN_VERSION,
    at: c.at,
    via: c.origin,
    actor: c.actor,
  };
}

const cursorKey = (projectId: string) => `${REVIEW_CURSOR}${projectId}`;

/**
 * One page of the project's decisions after `from` (at most MAX_REVIEWS review rows of the change
 * log, any project's), and the sequence number the next page starts after.
 */
function reviewPage(store: Store, projectId: string, from: number) {
  const upTo = store.changes.lastSeq();
  const page = store.changes.sinceOfKinds(from, upTo, KINDS, MAX_REVIEWS);
  const events = page
    .filter((c) => c.projectId === projectId)
    .map((c) => eventOf(store, c))
    .filter((e): e is ReviewEvent => e !== null);
  const more = page.length === MAX_REVIEWS;
  return { events, next: more ? (page.at(-1)?.seq ?? upTo) : upTo, more };
}

/** The decisions the next sync would send, per shared project (`engram team sync --dry-run`). Reads only. */
export function planReviews(store: Store): { project: string; review: ReviewEvent }[] {
  const out: { project: string; review: ReviewEvent }[] = [];
  for (const p of store.team.projects()) {
    let from = Number(store.team.meta(cursorKey(p.projectId)) ?? 0);
    for (let round = 0; round < 100_000; round++) {
      const page = reviewPage(store, p.projectId, from);
      for (const review of page.events) out.push({ project: p.projectId, review });
      if (!page.more) break;
      from = page.next;
    }
  }
  return out;
}

/**
 * Send the project's decisions not yet recorded on the server. A server that has no such endpoint
 * yet (older than this client) records none: they wait for its upgrade.
 */
export async function pushReviews(deps: TeamSyncDeps, p: SharedProject, report: SyncReport): Promise<void> {
  const { store, api } = deps;
  const key = cursorKey(p.projectId);
  for (let round = 0; round < 100_000; round++) {
    const page = reviewPage(store, p.projectId, Number(store.team.meta(key) ?? 0));
    if (page.events.length > 0) {
      try {
        report.reviews += await api.reviews(p.projectId, page.events);
      } catch (error) {
        if (!isEngramError(error, 'NOT_FOUND')) throw error;
        deps.logger.warn('the team server does not record review decisions yet; they wait for its upgrade', {
          project: p.projectId,
        });
        return;
      }
    }
    store.transaction(() => store.team.setMeta(key, String(page.next)));
    if (!page.more) return;
  }
}
