/**
 * Writing a memory's new state, the step every verb of the mutation path ends in: the state cleaned,
 * its text judged again (trust of the write, the instruction screen: held or clear), the previous
 * state kept as a version (the last 50), its content hash indexed for deduplication, one change logged
 * (and a `quarantine` one when it was just held). Also a memory read back by id, as the verbs need it.
 */
import { EngramError } from '../core/errors.ts';
import { searchTermsOf } from '../core/identifiers.ts';
import { SCREEN_VERSION } from '../core/instruction-screen.ts';
import type { MemoryOp, MemorySnapshot, Observation } from '../core/model.ts';
import { lowestTrust, type TrustClass } from '../core/trust.ts';
import type { Db } from './database.ts';
import { cleanSnapshot, snapshotOf } from './memory-draft.ts';
import { judge, PERSON_ORIGINS, sameText, screenedTexts, trustOfWrite } from './memory-review.ts';
import type { MutationContext, MutationKit } from './mutation-kit.ts';
import {
  OBSERVATION_COLUMNS,
  observationDetailTokens,
  observationHash,
  toObservation,
  type ObservationRow,
} from './observations-repo.ts';
import { lazyStatement } from './statements.ts';

/** Loading and rewriting memories, for the verbs of the mutation path. */
export function createMemoryRewrite(db: Db, kit: MutationKit) {
  const { log } = kit;
  const byId = lazyStatement(db, `SELECT ${OBSERVATION_COLUMNS} FROM observations WHERE id = ?`);
  const addHash = lazyStatement(
    db,
    `INSERT INTO memory_hashes (project_id, content_hash, observation_id) VALUES (?, ?, ?)
     ON CONFLICT (project_id, content_hash) DO NOTHING`,
  );
  const writeContent = lazyStatement(
    db,
    `UPDATE observations SET type = ?, title = ?, subtitle = ?, narrative = ?, facts = ?, concepts = ?,
       files_read = ?, files_modified = ?, content_hash = ?, tokens = ?, search_terms = ?, status = ?,
       status_reason = ?, supersedes = ?, pinned = ?, version = ?, modified_at = ?, subject = ?,
       trust = ?, review = ?, review_reason = ?, screen_version = ?
     WHERE id = ?`,
  );
  const keepVersion = lazyStatement(
    db,
    `INSERT OR REPLACE INTO observation_versions (observation_id, version, snapshot, replaced_by_op, origin, replaced_at)
     VALUES (?, ?, ?, ?, ?, ?)`,
  );
  const trimVersions = lazyStatement(
    db,
    `DELETE FROM observation_versions WHERE observation_id = ? AND version <= ?`,
  );
  const setTrust = lazyStatement(
    db,
    `UPDATE observations SET trust = ?, review = ?, review_reason = ?, screen_version = ? WHERE id = ?`,
  );

  const load = (id: string): Observation | null => {
    const row = byId().get(id) as ObservationRow | undefined;
    return row ? toObservation(row) : null;
  };
  const mustLoadAny = (id: string): Observation => load(id) as Observation;
  const mustLoad = (id: string): Observation => {
    const o = load(id);
    if (!o || o.status === 'forgotten')
      throw new EngramError('NOT_FOUND', `no memory with id ${id}`, {
        hint: 'Ids look like obs_…; "engram search <words>" lists them.',
      });
    return o;
  };

  /**
   * Write a new state of a memory: its previous state is kept as a version (unless `keep` is false),
   * the version goes up and the change is logged. `next` is already clean.
   */
  const rewrite = (
    cur: Observation,
    state: MemorySnapshot,
    op: MemoryOp,
    ctx: MutationContext,
    keep = true,
    claimed?: TrustClass,
  ): Observation => {
    const next = cleanSnapshot(state);
    const version = cur.version + 1;
    // New text is judged again: a person's is the user's; a redaction keeps the trust it had.
    const same = sameText(cur, next);
    const trust =
      same || op === 'redact' ? lowestTrust([claimed, cur.trust]) : trustOfWrite(ctx, claimed, cur.trust);
    const verdict = judge(
      screenedTexts(next),
      trust,
      { review: cur.review, reason: cur.reviewReason, trust: cur.trust, sameText: same },
      claimed === 'external' && ctx.origin !== 'team' ? { type: next.type, relayed: true } : undefined,
    );
    if (keep) {
      keepVersion().run(cur.id, cur.version, JSON.stringify(snapshotOf(cur)), op, ctx.origin, ctx.at);
      trimVersions().run(cur.id, cur.version - 50);
    }
    const hash = observationHash(next);
    writeContent().run(
      next.type,
      next.title,
      next.subtitle,
      next.narrative,
      JSON.stringify(next.facts),
      JSON.stringify(next.concepts),
      JSON.stringify(next.filesRead),
      JSON.stringify(next.filesModified),
      hash,
      observationDetailTokens(next),
      searchTermsOf([next.title, next.subtitle, next.narrative, ...next.facts, ...next.concepts]),
      next.status,
      next.statusReason,
      next.supersedes,
      next.pinned ? 1 : 0,
      version,
      ctx.at,
      next.subject ?? null,
      verdict.trust,
      verdict.review,
      verdict.reason,
      SCREEN_VERSION,
      cur.id,
    );
    addHash().run(cur.projectId, hash, cur.id);
    log('memory', cur.id, cur.projectId, op, ctx, version);
    if (verdict.review === 'held' && cur.review !== 'held')
      log('memory', cur.id, cur.projectId, 'quarantine', ctx, version);
    return mustLoadAny(cur.id);
  };

  /** Evidence of lower trust seen for the same text: the memory takes the lowest, and is judged again. */
  const retrust = (cur: Observation, claimed: TrustClass | undefined, ctx: MutationContext) => {
    const trust = trustOfWrite(ctx, claimed, cur.trust);
    if (trust === cur.trust || PERSON_ORIGINS.has(ctx.origin)) return;
    const verdict = judge(screenedTexts(cur), trust, undefined, {
      type: cur.type,
      relayed: claimed === 'external' && ctx.origin !== 'team',
    });
    setTrust().run(verdict.trust, verdict.review, verdict.reason, SCREEN_VERSION, cur.id);
    if (verdict.review === 'held' && cur.review !== 'held')
      log('memory', cur.id, cur.projectId, 'quarantine', ctx, cur.version);
  };

  /** Note that `hash` is the content of memory `id` in its project (a hash already taken keeps its memory). */
  const indexHash = (projectId: string, hash: string, id: string): void => {
    addHash().run(projectId, hash, id);
  };

  return { load, mustLoad, mustLoadAny, rewrite, retrust, indexHash };
}

export type MemoryRewrite = ReturnType<typeof createMemoryRewrite>;
