/**
 * The one way to change memory. Every write of a memory, a session summary or a link goes through
 * here: each text is scrubbed, the row written, the memory's previous version kept, and one row
 * appended to the change log, all in one transaction (the caller's, when it has one open). No surface
 * writes these tables any other way, so none can store unscrubbed text or skip the log.
 */
import { EngramError } from '../core/errors.ts';
import { searchTermsOf } from '../core/identifiers.ts';
import { newObservationId, type ObservationId, type ProjectId } from '../core/ids.ts';
import type {
  MemoryOp,
  MemorySnapshot,
  Observation,
  ObservationDraft,
  ObservationSource,
  ObservationStatus,
} from '../core/model.ts';
import { SCREEN_VERSION } from '../core/instruction-screen.ts';
import { erasePhrase, phrasePattern } from '../core/phrase.ts';
import { lowestTrust, type TrustClass } from '../core/trust.ts';
import type { ChangesRepo } from './changes-repo.ts';
import type { Db } from './database.ts';
import { eraseInjectedLinesOf } from './erase-injected.ts';
import { eraseTurnOf } from './erase-turn.ts';
import { createLinkWriter } from './link-writer.ts';
import {
  cleanDraft,
  cleanList,
  cleanSnapshot,
  MAX_LIST,
  MAX_PROVENANCE,
  sameDraft,
  snapshotOf,
  storableText,
  unique,
} from './memory-draft.ts';
import {
  createReviewOps,
  judge,
  PERSON_ORIGINS,
  sameText,
  screenedTexts,
  trustOfWrite,
} from './memory-review.ts';
import { createMutationKit, type MutationContext, type MutationKit } from './mutation-kit.ts';
import {
  OBSERVATION_COLUMNS,
  observationDetailTokens,
  observationHash,
  toObservation,
  type ObservationRow,
} from './observations-repo.ts';
import { createProjectMove } from './project-move.ts';
import { lazyStatement } from './statements.ts';
import { createSummaryWriter } from './summary-writer.ts';

export type { MutationContext } from './mutation-kit.ts';
export { cleanDraft } from './memory-draft.ts';
type LinkWriter = ReturnType<typeof createLinkWriter>;
type SummaryWriter = ReturnType<typeof createSummaryWriter>;

export interface NewMemory {
  projectId: ProjectId;
  sessionId: string | null;
  source: ObservationSource;
  /** When what it records happened. */
  createdAt: number;
  provenance: string[];
  draft: ObservationDraft;
  pinned?: boolean;
  /** An earlier memory this one replaces (same project, still active). */
  supersedes?: string | null;
  /** Keep this id (a memory that already has one elsewhere, e.g. from the team); else a new one. */
  id?: ObservationId;
}

/** `merged`: the same memory existed (seen again); `tombstoned`: it was forgotten and stays so. */
export type CreateOutcome = 'created' | 'merged' | 'tombstoned';

export interface MergeAddition {
  facts?: string[];
  concepts?: string[];
  filesRead?: string[];
  filesModified?: string[];
  provenance?: string[];
  /** When it was seen again (default: the mutation time). */
  seenAt?: number;
  /** The trust of the evidence it was seen in again (mixed evidence takes the lowest). */
  trust?: TrustClass;
}

/** Memories through the mutation path (created, edited, merged, superseded, …, forgotten, redacted). */
function createMemoryOps(db: Db, kit: MutationKit, links: LinkWriter, summaries: SummaryWriter) {
  const { tx, log } = kit;
  const byId = lazyStatement(db, `SELECT ${OBSERVATION_COLUMNS} FROM observations WHERE id = ?`);
  const byHash = lazyStatement(
    db,
    `SELECT observation_id FROM memory_hashes WHERE project_id = ? AND content_hash = ?`,
  );
  const addHash = lazyStatement(
    db,
    `INSERT INTO memory_hashes (project_id, content_hash, observation_id) VALUES (?, ?, ?)
     ON CONFLICT (project_id, content_hash) DO NOTHING`,
  );
  const insert = lazyStatement(
    db,
    `INSERT INTO observations (id, project_id, session_id, type, title, subtitle, narrative, facts, concepts,
       files_read, files_modified, source, status, created_at, modified_at, content_hash, tokens, provenance,
       search_terms, version, pinned, seen_count, last_seen_at, subject, trust, review, review_reason, screen_version)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'active', ?, ?, ?, ?, ?, ?, 1, ?, 1, ?, ?, ?, ?, ?, ?)`,
  );
  const writeContent = lazyStatement(
    db,
    `UPDATE observations SET type = ?, title = ?, subtitle = ?, narrative = ?, facts = ?, concepts = ?,
       files_read = ?, files_modified = ?, content_hash = ?, tokens = ?, search_terms = ?, status = ?,
       status_reason = ?, supersedes = ?, pinned = ?, version = ?, modified_at = ?, subject = ?,
       trust = ?, review = ?, review_reason = ?, screen_version = ?
     WHERE id = ?`,
  );
  const writeSeen = lazyStatement(
    db,
    `UPDATE observations SET seen_count = seen_count + 1, last_seen_at = MAX(last_seen_at, ?), provenance = ?,
       modified_at = ? WHERE id = ?`,
  );
  const keepVersion = lazyStatement(
    db,
    `INSERT OR REPLACE INTO observation_versions (observation_id, version, snapshot, replaced_by_op, origin, replaced_at)
     VALUES (?, ?, ?, ?, ?, ?)`,
  );
  const latestVersion = lazyStatement(
    db,
    `SELECT snapshot FROM observation_versions WHERE observation_id = ? ORDER BY version DESC LIMIT 1`,
  );
  const trimVersions = lazyStatement(
    db,
    `DELETE FROM observation_versions WHERE observation_id = ? AND version <= ?`,
  );
  const erase = lazyStatement(
    db,
    `UPDATE observations SET status = 'forgotten', status_reason = 'forgotten', title = '[forgotten]',
       subtitle = '', narrative = '', facts = '[]', concepts = '[]', files_read = '[]', files_modified = '[]',
       search_terms = '', tokens = 0, provenance = '[]', supersedes = NULL, pinned = 0,
       version = version + 1, modified_at = ?
     WHERE id = ? AND status <> 'forgotten'`,
  );
  const dropVersions = lazyStatement(db, `DELETE FROM observation_versions WHERE observation_id = ?`);
  const dropLinksOf = lazyStatement(db, `DELETE FROM links WHERE from_id = ? OR to_id = ?`);
  const dropInjections = lazyStatement(db, `DELETE FROM injections WHERE observation_id = ?`);
  const versionsOf = lazyStatement(
    db,
    `SELECT version, snapshot FROM observation_versions WHERE observation_id = ?`,
  );
  const setSnapshot = lazyStatement(
    db,
    `UPDATE observation_versions SET snapshot = ? WHERE observation_id = ? AND version = ?`,
  );
  const setSupersedes = lazyStatement(db, `UPDATE observations SET supersedes = ? WHERE id = ?`);
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

  const setStatus = (
    id: string,
    status: Exclude<ObservationStatus, 'forgotten'>,
    reason: string | null,
    op: MemoryOp,
    ctx: MutationContext,
    extra: Partial<MemorySnapshot> = {},
  ): boolean =>
    tx(() => {
      const cur = mustLoad(id);
      if (cur.status === status) return false;
      const cleanReason = reason === null ? null : storableText(reason).trim().slice(0, 500);
      rewrite(cur, { ...snapshotOf(cur), status, statusReason: cleanReason, ...extra }, op, ctx);
      return true;
    });

  const writer = {
    /**
     * Store a new memory. The same memory (same content hash in the project, now or at any earlier
     * version) is merged instead (seen again); a forgotten one is never brought back.
     */
    create(m: NewMemory, ctx: MutationContext): { id: ObservationId; outcome: CreateOutcome } {
      const draft = cleanDraft(m.draft);
      const provenance = cleanList(m.provenance, MAX_PROVENANCE);
      const hash = observationHash(draft);
      return tx(() => {
        const known = byHash().get(m.projectId, hash) as { observation_id: string } | undefined;
        const existing = known ? load(known.observation_id) : null;
        if (existing) {
          if (existing.status === 'forgotten') return { id: existing.id, outcome: 'tombstoned' as const };
          writer.merge(
            existing.id,
            {
              filesRead: draft.filesRead,
              filesModified: draft.filesModified,
              provenance,
              seenAt: m.createdAt,
              ...(m.draft.trust ? { trust: m.draft.trust } : {}),
            },
            ctx,
          );
          return { id: existing.id, outcome: 'merged' as const };
        }
        const id = m.id ?? newObservationId(m.createdAt);
        const verdict = judge(screenedTexts(draft), trustOfWrite(ctx, m.draft.trust), undefined, {
          type: draft.type,
          relayed: m.draft.trust === 'external' && ctx.origin !== 'team',
        });
        insert().run(
          id,
          m.projectId,
          m.sessionId,
          draft.type,
          draft.title,
          draft.subtitle,
          draft.narrative,
          JSON.stringify(draft.facts),
          JSON.stringify(draft.concepts),
          JSON.stringify(draft.filesRead),
          JSON.stringify(draft.filesModified),
          m.source,
          m.createdAt,
          ctx.at,
          hash,
          observationDetailTokens(draft),
          JSON.stringify(provenance),
          searchTermsOf([draft.title, draft.subtitle, draft.narrative, ...draft.facts, ...draft.concepts]),
          m.pinned ? 1 : 0,
          m.createdAt,
          draft.subject ?? null,
          verdict.trust,
          verdict.review,
          verdict.reason,
          SCREEN_VERSION,
        );
        addHash().run(m.projectId, hash, id);
        log('memory', id, m.projectId, 'create', ctx, 1);
        if (verdict.review === 'held') log('memory', id, m.projectId, 'quarantine', ctx, 1);
        if (m.supersedes) writer.supersede(m.supersedes, id, ctx);
        return { id, outcome: 'created' as const };
      });
    },

    /** Change a memory's text, type, facts or files; its id stays, its old text is kept as a version. */
    edit(id: string, patch: Partial<ObservationDraft>, ctx: MutationContext): Observation {
      return tx(() => {
        const cur = mustLoad(id);
        const next = cleanDraft({ ...cur, ...patch });
        if (sameDraft(cur, next)) {
          retrust(cur, patch.trust, ctx);
          return mustLoadAny(id);
        }
        return rewrite(cur, { ...snapshotOf(cur), ...next }, 'edit', ctx, true, patch.trust);
      });
    },

    /**
     * The same (or nearly the same) memory was seen again: count it, and add what is new (facts,
     * concepts, files, provenance). A new version only when its content grew.
     */
    merge(id: string, add: MergeAddition, ctx: MutationContext): Observation {
      return tx(() => {
        const cur = mustLoad(id);
        const provenance = unique([...cur.provenance, ...cleanList(add.provenance, MAX_PROVENANCE)]).slice(
          -MAX_PROVENANCE,
        );
        writeSeen().run(add.seenAt ?? ctx.at, JSON.stringify(provenance), ctx.at, id);
        const next: MemorySnapshot = {
          ...snapshotOf(cur),
          facts: unique([...cur.facts, ...cleanList(add.facts)]).slice(0, MAX_LIST),
          concepts: unique([...cur.concepts, ...cleanList(add.concepts)]).slice(0, MAX_LIST),
          filesRead: unique([...cur.filesRead, ...cleanList(add.filesRead)]).slice(0, MAX_LIST),
          filesModified: unique([...cur.filesModified, ...cleanList(add.filesModified)]).slice(0, MAX_LIST),
        };
        if (sameDraft(cur, next)) {
          log('memory', id, cur.projectId, 'merge', ctx, cur.version);
          retrust(cur, add.trust, ctx);
          return mustLoadAny(id);
        }
        return rewrite(mustLoadAny(id), next, 'merge', ctx, true, add.trust);
      });
    },

    /** `newId` replaces `oldId` (same project; the old one must be active). False when nothing changed. */
    supersede(oldId: string, newId: string, ctx: MutationContext): boolean {
      if (oldId === newId) return false;
      return tx(() => {
        const old = load(oldId);
        const replacement = mustLoad(newId);
        if (!old || old.status !== 'active' || old.projectId !== replacement.projectId) return false;
        setStatus(oldId, 'superseded', `superseded by ${newId}`, 'supersede', ctx);
        if (replacement.supersedes !== oldId) setSupersedes().run(oldId, newId);
        links.link(newId, 'supersedes', oldId, replacement.projectId, ctx);
        return true;
      });
    },

    /** Mark a memory wrong or outdated (hidden from recall; restorable). */
    invalidate(id: string, reason: string, ctx: MutationContext): boolean {
      return setStatus(id, 'invalidated', reason, 'invalidate', ctx);
    },

    /** Put a memory away (hidden from recall; restorable). */
    archive(id: string, reason: string, ctx: MutationContext): boolean {
      return setStatus(id, 'archived', reason, 'archive', ctx);
    },

    /**
     * Undo the last change to a memory (an edit, invalidate, archive, supersede, pin, merge): it goes
     * back to its previous version, as a new version, so a restore can itself be undone.
     */
    restore(id: string, ctx: MutationContext): Observation {
      return tx(() => {
        const cur = mustLoad(id);
        const row = latestVersion().get(id) as { snapshot: string } | undefined;
        if (!row)
          throw new EngramError('NOT_FOUND', `${id} has no earlier version to restore`, {
            hint: '"engram history <id>" lists a memory\u2019s versions.',
          });
        const previous = JSON.parse(row.snapshot) as MemorySnapshot;
        return rewrite(cur, previous, 'restore', ctx);
      });
    },

    /** Pin (standing knowledge, always in the SessionStart index) or unpin. False when unchanged. */
    pin(id: string, pinned: boolean, ctx: MutationContext): boolean {
      return tx(() => {
        const cur = mustLoad(id);
        if (cur.pinned === pinned) return false;
        rewrite(cur, { ...snapshotOf(cur), pinned }, pinned ? 'pin' : 'unpin', ctx);
        return true;
      });
    },

    /**
     * Record that a memory became stale (the code it describes changed; `stale` true) or fresh again.
     * Staleness itself lives in its anchors (store.anchors, written in the same transaction); this logs
     * the transition so every reader of the change log (the vault's banners) sees it.
     */
    markStale(id: string, stale: boolean, ctx: MutationContext): void {
      tx(() => {
        const cur = load(id);
        if (!cur || cur.status === 'forgotten') return;
        log('memory', id, cur.projectId, stale ? 'stale' : 'fresh', ctx, cur.version);
      });
    },

    /**
     * Erase a memory's text everywhere engram keeps it: the row (and so its full-text and vector
     * entries), its earlier versions, its links, its lines in the context log, and the raw events and
     * prompt of the turn it came from. A tombstone stays (id, project, time, source) so it never comes back nor re-syncs.
     */
    forget(id: string, ctx: MutationContext): boolean {
      return tx(() => {
        const cur = load(id);
        if (!cur || cur.status === 'forgotten') return false;
        const prompts = eraseTurnOf(db, cur);
        // The session summary retells the turn: its title and prompts are taken out of it too.
        if (cur.sessionId)
          for (const text of [cur.title, ...prompts]) {
            const start = text.replace(/\s+/g, ' ').trim().slice(0, 60);
            if (start.length >= 8) summaries.redactSummary(cur.sessionId, phrasePattern(start), ctx);
          }
        erase().run(ctx.at, id);
        dropVersions().run(id);
        dropLinksOf().run(id, id);
        eraseInjectedLinesOf(db, id);
        dropInjections().run(id);
        log('memory', id, cur.projectId, 'forget', ctx, cur.version + 1);
        return true;
      });
    },

    /**
     * Drop every earlier version of a memory: text erased elsewhere, that this machine cannot name
     * (a teammate's `forget --match`), must not survive in its history. Logged as `redact`.
     */
    dropHistory(id: string, ctx: MutationContext): boolean {
      return tx(() => {
        const cur = load(id);
        if (!cur || cur.status === 'forgotten') return false;
        if (dropVersions().run(id).changes === 0) return false;
        log('memory', id, cur.projectId, 'redact', ctx, cur.version);
        return true;
      });
    },

    /**
     * Erase a phrase (a leaked secret, a name) from a memory: every text field and every earlier
     * version, in place — no version keeps the old text. False when the memory did not hold it.
     */
    redact(id: string, pattern: RegExp, ctx: MutationContext, words: RegExp | null = null): boolean {
      return tx(() => {
        const cur = load(id);
        if (!cur || cur.status === 'forgotten') return false;
        let touched = false;
        for (const v of versionsOf().all(id) as { version: number; snapshot: string }[]) {
          const snapshot = JSON.parse(erasePhrase(v.snapshot, pattern)) as MemorySnapshot;
          // Earlier versions' keywords lose the phrase's words too (as the current ones below).
          if (words !== null) snapshot.concepts = snapshot.concepts.filter((c) => !words.test(c));
          const erased = JSON.stringify(snapshot);
          if (erased !== v.snapshot) {
            setSnapshot().run(erased, id, v.version);
            touched = true;
          }
        }
        const text = (t: string) => erasePhrase(t, pattern);
        const list = (l: string[]) => l.map(text);
        const next: MemorySnapshot = {
          ...snapshotOf(cur),
          title: text(cur.title),
          subtitle: text(cur.subtitle),
          narrative: text(cur.narrative),
          facts: list(cur.facts),
          // Keywords derived from the text lose every one that holds a word of the phrase.
          concepts: list(cur.concepts).filter((c) => words === null || !words.test(c)),
          filesRead: list(cur.filesRead),
          filesModified: list(cur.filesModified),
          statusReason: cur.statusReason === null ? null : text(cur.statusReason),
          ...(cur.subject ? { subject: text(cur.subject) } : {}),
        };
        const changed = JSON.stringify(next) !== JSON.stringify(snapshotOf(cur));
        if (!changed && !touched) return false;
        // No version is kept: it would keep the phrase.
        rewrite(cur, next, 'redact', ctx, false);
        return true;
      });
    },
  };
  const review = createReviewOps(db, kit, {
    mustLoad,
    invalidate: (id, reason, ctx, op) => setStatus(id, 'invalidated', reason, op, ctx),
  });
  return { ...writer, ...review };
}

/**
 * The mutation path: every write of a memory, a session summary or a link (`store.memory.*`).
 */
export function createMemoryWriter(db: Db, changes: ChangesRepo) {
  const kit = createMutationKit(db, changes);
  const links = createLinkWriter(db, kit);
  const summaries = createSummaryWriter(db, kit);
  const memory = createMemoryOps(db, kit, links, summaries);
  return { ...memory, ...summaries, ...links, ...createProjectMove(db, kit, memory) };
}

export type MemoryWriter = ReturnType<typeof createMemoryWriter>;
