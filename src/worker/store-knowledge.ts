/**
 * Storing what a turn (or a transcript read) distilled as knowledge, not as new rows each time, all
 * through the store's mutation path (so every merge, edit, supersede and close is in the change log):
 * a memory with a known subject is merged into the existing one (a command seen again, the same
 * gotcha, the same convention), replaces it (a task list, a failure that changed), or supersedes it
 * (a different value for an environment fact); a rule (preference, convention, decision) on the same
 * subject as a standing one merges or supersedes it; a commit attaches to the work it commits; a
 * command that works again closes the failure left open before it; a finished task list is archived.
 * Standing knowledge is pinned when created. Runs inside the caller's transaction.
 */
import type { ObservationId, ProjectId } from '../core/ids.ts';
import type { Observation, ObservationDraft, ObservationSource } from '../core/model.ts';
import { mergedGitHookRule } from '../distill/extractors/project-rules.ts';
import type { Resolution } from '../distill/gotchas.ts';
import {
  attachedCommit,
  closedFailure,
  isStanding,
  mergedCommandFact,
  ruleRelation,
  saidReading,
  uncommitted,
} from '../distill/knowledge.ts';
import type { MutationContext } from '../store/memory-writer.ts';
import type { Store } from '../store/store.ts';

export interface KnowledgeMemory {
  draft: ObservationDraft;
  createdAt: number;
  provenance: string[];
  /** The LLM's replacement of a memory it was shown (checked when it was prepared). */
  supersedes?: string | null;
  /** The assistant's statements this memory shows were wrong (a user's correction): memories stating them are withdrawn. */
  refutes?: readonly string[];
}

export interface KnowledgeBatch {
  projectId: ProjectId;
  sessionId: string | null;
  source: ObservationSource;
  memories: KnowledgeMemory[];
  resolutions?: readonly Resolution[];
  finishedTasks?: readonly { subject: string; at: number }[];
  /** The memories were stated by the user (MCP `remember`): their decisions are standing. */
  byUser?: boolean;
}

export interface KnowledgeReport {
  created: number;
  merged: number;
  updated: number;
  superseded: number;
  closed: number;
  ids: ObservationId[];
}

const RULE_TYPES = new Set(['preference', 'convention', 'correction', 'decision']);
/** What the user said (never withdrawn by a correction of the assistant). */
const USER_TYPES = new Set(['preference', 'convention', 'correction']);
/** A statement compared as words only (markup, a title's ellipsis and case removed). */
const statementKey = (s: string) =>
  s
    .toLowerCase()
    .replace(/…$/, '')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();

/** Store a batch; invalid drafts are skipped by `onInvalid` (logged by the caller). */
export function storeKnowledge(
  store: Store,
  batch: KnowledgeBatch,
  ctx: MutationContext,
  onInvalid: (error: unknown) => void = (error) => {
    throw error;
  },
): KnowledgeReport {
  const report: KnowledgeReport = { created: 0, merged: 0, updated: 0, superseded: 0, closed: 0, ids: [] };
  const { projectId } = batch;
  const merge = (existing: Observation, m: KnowledgeMemory, add: Partial<ObservationDraft> = {}) => {
    store.memory.merge(
      existing.id,
      {
        facts: add.facts ?? [],
        filesRead: m.draft.filesRead,
        filesModified: m.draft.filesModified,
        provenance: m.provenance,
        seenAt: m.createdAt,
      },
      ctx,
    );
    report.merged++;
    report.ids.push(existing.id);
  };
  const edit = (existing: Observation, patch: Partial<ObservationDraft>) => {
    store.memory.edit(existing.id, patch, ctx);
    report.updated++;
  };
  const create = (
    m: KnowledgeMemory,
    draft: ObservationDraft = m.draft,
    supersedes: string | null = m.supersedes ?? null,
  ) => {
    const written = store.memory.create(
      {
        projectId,
        sessionId: batch.sessionId,
        source: batch.source,
        createdAt: m.createdAt,
        provenance: m.provenance,
        draft,
        pinned: isStanding(draft, { byUser: batch.byUser === true }),
        supersedes,
      },
      ctx,
    );
    if (written.outcome === 'created') report.created++;
    if (written.outcome === 'merged') report.merged++;
    report.ids.push(written.id);
    return written.id;
  };

  const place = (m: KnowledgeMemory) => {
    const d = m.draft;
    const subject = d.subject ?? '';
    if (subject === 'attach:commit') {
      const { subject: _attach, ...plain } = d;
      const work = batch.sessionId
        ? [...store.observations.ofSession(batch.sessionId)].reverse().find((o) => uncommitted(o))
        : undefined;
      if (work) {
        edit(work, attachedCommit(work, plain));
        merge(work, m);
      } else create(m, plain);
      return;
    }
    const existing = subject !== '' ? store.observations.bySubject(projectId, subject) : null;
    if (existing) {
      if (subject.startsWith('command:')) {
        const patch = mergedCommandFact(existing, d);
        if (patch) edit(existing, patch);
        merge(existing, m);
      } else if (subject.startsWith('tasks:') || subject.startsWith('fail:')) {
        edit(existing, { title: d.title, subtitle: d.subtitle, narrative: d.narrative, facts: d.facts });
        merge(existing, m);
      } else if (subject.startsWith('env:') && existing.title !== d.title) {
        create(m, d, existing.id);
        report.superseded++;
      } else if (subject.startsWith('rule:git-hook:')) {
        // The same git hook seen running other checks: its convention lists them all.
        const patch = mergedGitHookRule(existing, d);
        if (patch) edit(existing, patch);
        merge(existing, m);
      } else if (subject.startsWith('said:')) {
        // The same words of the user read again (from the transcript after the hook's prompt): the
        // reading with more of the dialogue (a correction, a choice) replaces a plainer one.
        const patch = saidReading(existing, d);
        if (patch) edit(existing, patch);
        merge(existing, m);
      } else merge(existing, m, { facts: d.facts });
      return;
    }
    const unnamed = subject === '' || subject.startsWith('said:');
    if (unnamed && RULE_TYPES.has(d.type) && isStanding(d, { byUser: batch.byUser === true })) {
      for (const older of store.observations.pinned(projectId, 300)) {
        const relation = ruleRelation(older, d);
        if (relation === 'same') {
          merge(older, m);
          return;
        }
        if (relation === 'newer') {
          create(m, d, older.id);
          report.superseded++;
          return;
        }
      }
    }
    create(m);
  };

  /**
   * Memories of the session that state what `m` refutes (the user's own words excepted). Matched by
   * their statement, not by time: a transcript's clock is not always in order.
   */
  const withdraw = (m: KnowledgeMemory) => {
    const refuted = (m.refutes ?? []).map(statementKey).filter((t) => t.length >= 25);
    if (refuted.length === 0 || !batch.sessionId) return;
    for (const o of store.observations.ofSession(batch.sessionId)) {
      if (USER_TYPES.has(o.type) || o.source === 'manual') continue;
      const title = statementKey(o.title);
      if (title.length < 25 || !refuted.some((r) => r.includes(title) || title.includes(r))) continue;
      store.memory.invalidate(o.id, 'the user corrected it', ctx);
      report.superseded++;
    }
  };

  for (const m of batch.memories) {
    try {
      place(m);
      withdraw(m);
    } catch (error) {
      onInvalid(error);
    }
  }
  for (const r of batch.resolutions ?? []) {
    const failed = store.observations.bySubject(projectId, `fail:${r.key.replace(/^cmd:/, '')}`);
    if (!failed || failed.createdAt >= r.at) continue;
    store.memory.edit(failed.id, closedFailure(failed, r), ctx);
    report.closed++;
  }
  for (const t of batch.finishedTasks ?? []) {
    const list = store.observations.bySubject(projectId, t.subject);
    if (list && list.createdAt <= t.at) store.memory.archive(list.id, 'every task on the list was done', ctx);
  }
  return report;
}
