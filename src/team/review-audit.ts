/**
 * A member's review decisions in the project's audit chain: each approve or reject of a quarantined
 * memory is one row (`memory.approve` / `memory.reject`, the memory as its target), appended in the
 * request's transaction like every other row, so the chain stays numbered, linked and verifiable. Any
 * member who may read the project records theirs: a decision is about what their own machine injects
 * and changes nothing the server keeps. A decision sent again (a client that crashed before it noted
 * the answer) is a second row: the chain is append-only.
 */
import { cleanText } from '../core/clean-text.ts';
import { appendAudit, type AuditEvent } from './audit-log.ts';
import type { Tx } from './database.ts';
import type { ReviewEvent } from './protocol.ts';

/** The audit row of one decision: its action, target and detail (who and when: the request's). */
export const reviewAudit = (r: ReviewEvent): Pick<AuditEvent, 'action' | 'target' | 'detail'> => ({
  action: `memory.${r.verdict}`,
  target: cleanText(r.memory),
  detail: {
    version: r.version,
    screen: r.screen,
    decidedAt: r.at,
    via: r.via,
    actor: r.actor === null ? null : cleanText(r.actor),
  },
});

/**
 * Append each decision to `projectId`'s chain; null when the tenant may not read the project (the
 * caller answers 403). `base` gives the rows their time, principal and request.
 */
export async function appendReviews(
  tx: Tx,
  projectId: string,
  reviews: readonly ReviewEvent[],
  base: Omit<AuditEvent, 'action' | 'target' | 'detail' | 'chain'>,
): Promise<number | null> {
  const head = await tx.query('SELECT 1 FROM heads WHERE project_id = $1 AND engram_can(project_id, $2)', [
    projectId,
    'read',
  ]);
  if (head.rows.length === 0) return null;
  for (const r of reviews) await appendAudit(tx, { ...base, chain: projectId, ...reviewAudit(r) });
  return reviews.length;
}
