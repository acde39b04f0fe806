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
import type { TrustClass } from '../core/trust.ts';
import type { ChangesRepo } from './changes-repo.ts';
import type { Db } from './database.ts';
import { createLinkWriter } from './link-writer.ts';
import { createErasureOps } from './memory-erasure.ts';
import { createMemoryRewrite } from './memory-rewrite.ts';
import {
  cleanDraft,
  cleanList,
  MAX_LIST,
  MAX_PROVENANCE,
  sameDraft,
  snapshotOf,
  storableText,
  unique,
} from './memory-draft.ts';
import { createReviewOps, judge, screenedTexts, trustOfWrite } from './memory-review.ts';
import { createMutationKit, type MutationContext, type MutationKit } from './mutation-kit.ts';
import { observationDetailTokens, observationHash } from './observations-repo.ts';
import { createProjectMove } from './project-move.ts';
import { lazyStatement } from './statements.ts';
import { createSummaryWriter, type SummaryWriter } from './summary-writer.ts';

export type { MutationContext } from './mutation-kit.ts';
export { cleanDraft } from './memory-draft.ts';
type LinkWriter = ReturnType<typeof createLinkWriter>;

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
  const { load, mustLoad, mustLoadAny, rewrite, retrust, indexHash } = createMemoryRewrite(db, kit);
  const byHash = lazyStatement(
    db,
    `SELECT observation_id FROM memory_hashes WHERE project_id = ? AND content_hash = ?`,
  );
  const insert = lazyStatement(
    db,
    `INSERT INTO observations (id, project_id, session_id, type, title, subtitle, narrative, facts, concepts,
       files_read, files_modified, source, status, created_at, modified_at, content_hash, tokens, provenance,
       search_terms, version, pinned, seen_count, last_seen_at, subject, trust, review, review_reason, screen_version)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'active', ?, ?, ?, ?, ?, ?, 1, ?, 1, ?, ?, ?, ?, ?, ?)`,
  );
  const writeSeen = lazyStatement(
    db,
    `UPDATE observations SET seen_count = seen_count + 1, last_seen_at = MAX(last_seen_at, ?), provenance = ?,
       modified_at = ? WHERE id = ?`,
  );
  const latestVersion = lazyStatement(
    db,
    `SELECT snapshot FROM observation_versions WHERE observation_id = ? ORDER BY version DESC LIMIT 1`,
  );
  const setSupersedes = lazyStatement(db, `UPDATE observations SET supersedes = ? WHERE id = ?`);

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
        indexHash(m.projectId, hash, id);
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
  };
  const review = createReviewOps(db, kit, {
    mustLoad,
    invalidate: (id, reason, ctx, op) => setStatus(id, 'invalidated', reason, op, ctx),
  });
  const erasure = createErasureOps(db, kit, { load, rewrite }, summaries);
  return { ...writer, ...erasure, ...review };
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
