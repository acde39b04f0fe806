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
import type { SharedProject } from '../store/team-repo.ts';
import { MAX_REVIEWS, type ReviewEvent } from '../team/protocol.ts';
import { REVIEW_CURSOR, type SyncReport, type TeamSyncDeps } from './team-round.ts';

const KINDS = ['memory approve', 'memory reject'];

function eventOf(deps: TeamSyncDeps, c: Change): ReviewEvent | null {
  if (c.entity !== 'memory' || (c.op !== 'approve' && c.op !== 'reject')) return null;
  // Only a person's origins approve or reject (store/memory-review.ts): anything else is not a decision.
  if (c.origin !== 'cli' && c.origin !== 'viewer' && c.origin !== 'vault') return null;
  const memory = deps.store.observations.get(c.entityId);
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

/**
 * Send the project's decisions not yet recorded on the server; how many were recorded. A server that
 * has no such endpoint yet (older than this client) records none: they wait for its upgrade.
 */
export async function pushReviews(deps: TeamSyncDeps, p: SharedProject, report: SyncReport): Promise<void> {
  const { store, api } = deps;
  const key = `${REVIEW_CURSOR}${p.projectId}`;
  for (let round = 0; round < 100_000; round++) {
    const from = Number(store.team.meta(key) ?? 0);
    const upTo = store.changes.lastSeq();
    const page = store.changes.sinceOfKinds(from, upTo, KINDS, MAX_REVIEWS);
    const events = page
      .filter((c) => c.projectId === p.projectId)
      .map((c) => eventOf(deps, c))
      .filter((e): e is ReviewEvent => e !== null);
    if (events.length > 0) {
      try {
        report.reviews += await api.reviews(p.projectId, events);
      } catch (error) {
        if (!isEngramError(error, 'NOT_FOUND')) throw error;
        deps.logger.warn('the team server does not record review decisions yet; they wait for its upgrade', {
          project: p.projectId,
        });
        return;
      }
    }
    const full = page.length === MAX_REVIEWS;
    const next = full ? (page.at(-1)?.seq ?? upTo) : upTo;
    store.transaction(() => store.team.setMeta(key, String(next)));
    if (!full) return;
  }
}
