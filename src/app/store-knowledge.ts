/**
 * Storing what a turn (or a transcript read) distilled as knowledge, not as new rows each time, all
 * through the store's mutation path (so every merge, edit, supersede and close is in the change log):
 * a purpose's command fact is folded into the commands card of its folder (`distill/commands-card.ts`);
 * a memory with a known subject is merged into the existing one (the same gotcha, the same
 * convention), replaces it (a task list, a failure that changed), or supersedes it
 * (a different value for an environment fact); a rule (preference, convention, decision) on the same
 * subject as a standing one merges or supersedes it; a commit attaches to the work it commits; a later
 * run of the same purpose that passes closes the failure left open before it (whatever its spelling):
 * a gotcha with its fix, or archived when it was only progress; a finished task list is archived.
 * Standing knowledge is pinned when created. Runs inside the caller's transaction.
 */
import type { ObservationId, ProjectId } from '../core/ids.ts';
import type { Observation, ObservationDraft, ObservationSource } from '../core/model.ts';
import { mergedGitHookRule } from '../distill/extractors/project-rules.ts';
import { FAILURE_TITLE, type Resolution } from '../distill/gotchas.ts';
import {
  attachedCommit,
  closedFailure,
  closes,
  failureSubjects,
  isStanding,
  ruleRelation,
  saidReading,
  uncommitted,
  scriptsNotKnown,
} from '../distill/knowledge.ts';
import { ciFactWithRuns, ciRunsOf } from '../distill/ci-knowledge.ts';
import {
  PURPOSE_PREFIX,
  cardSubject,
  commandEntries,
  cardWith,
  purposeOf,
} from '../distill/commands-card.ts';
import { lowestTrust } from '../core/trust.ts';
import { withoutSentences } from '../distill/narration.ts';
import { withoutDroppedClaims } from '../distill/dropped-text.ts';
import { notFixedWork } from '../distill/not-fixed.ts';
import {
  commitBelongsTo,
  confirmedAttempt,
  unconfirmedFailure,
  isUncommittedWork,
  isWork,
  restatedWork,
  sameWork,
  withoutRemovedFile,
  withRenamedFile,
  refutedAttempt,
  staleFinding,
  staleTitle,
} from '../distill/work-state.ts';
import type { MutationContext } from '../store/memory-writer.ts';
import { sourceSubject } from './standing-files.ts';
import { closeFinishedLists, closeWorkedItems } from './task-lists.ts';
import { linkGotchaToWork } from './turn-links.ts';
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
  /**
   * Project files removed, and when: the session's earlier work on them is no longer part of it; or
   * renamed (`to`): that work is told under the new name.
   */
  removedFiles?: readonly { path: string; at: number; to?: string }[];
  /**
   * Documents edited, the word pairs they stopped saying and when: the session's earlier claims about
   * them that name one are taken back (see `distill/dropped-text.ts`).
   */
  droppedText?: readonly { path: string; pairs: readonly string[]; at: number }[];
  /**
   * The user saying, as a turn opened at `at`, that the work before did not do it: the session's
   * latest work before then is told as tried (see `distill/not-fixed.ts`).
   */
  notFixed?: readonly { said: string; at: number }[];
  /** Task lists finished, with the items done on them (when known). */
  finishedTasks?: readonly { subject: string; at: number; done?: readonly string[] }[];
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
        // Seen again in other evidence: the memory takes the lowest trust (the mutation path decides).
        ...(m.draft.trust ? { trust: m.draft.trust } : {}),
      },
      ctx,
    );
    report.merged++;
    report.ids.push(existing.id);
  };
  /** Edit with `m`'s text: its evidence's trust goes with it. */
  const edit = (existing: Observation, patch: Partial<ObservationDraft>, m?: KnowledgeMemory) => {
    store.memory.edit(existing.id, m?.draft.trust ? { ...patch, trust: m.draft.trust } : patch, ctx);
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

  /** What the project's command knowledge states, entry by entry (its cards, or older per-purpose facts). */
  const commandFacts = () => commandEntries(store.observations.pinned(projectId, 300));
  /** A command CI was seen running: the project's one CI fact says so too. */
  const spreadCiRuns = (d: ObservationDraft) => {
    const runs = ciRunsOf(d);
    const cis = runs.length > 0 ? store.observations.bySubjectPrefix(projectId, 'env:ci:') : [];
    const [ci] = cis;
    const whole = ci && cis.length === 1 ? ciFactWithRuns(ci, runs) : null;
    if (ci && whole) edit(ci, { title: whole.title, narrative: whole.narrative, facts: whole.facts });
  };
  /**
   * A purpose's command fact goes into the commands card of its folder: created when absent, edited
   * when the purpose is new or its entry changes, seen again otherwise. Per-purpose facts a store
   * written before the card holds for that folder are folded in and superseded by it.
   */
  const toCard = (m: KnowledgeMemory, purpose: { dir: string }) => {
    const d = m.draft;
    const older = store.observations
      .bySubjectPrefix(projectId, PURPOSE_PREFIX)
      .filter((o) => purposeOf(o.subject)?.dir === purpose.dir);
    const card = store.observations.bySubject(projectId, cardSubject(purpose.dir));
    const next = cardWith(card, [...older, d]);
    if (!next) return;
    // Its evidence is the runs of every purpose folded in: the lowest of their trust.
    const trusts = [d.trust, ...older.map((o) => o.trust)].filter((t) => t !== undefined);
    const trust = trusts.length > 0 ? lowestTrust(trusts) : undefined;
    const withTrust = { ...m, draft: { ...d, ...(trust ? { trust } : {}) } };
    let id: string;
    if (!card) id = create(withTrust, { ...next, ...(trust ? { trust } : {}) }, null);
    else {
      if (
        card.title !== next.title ||
        card.narrative !== next.narrative ||
        card.facts.join('\n') !== next.facts.join('\n')
      )
        edit(
          card,
          { title: next.title, narrative: next.narrative, facts: next.facts, concepts: next.concepts },
          withTrust,
        );
      merge(card, withTrust);
      id = card.id;
    }
    for (const o of older) if (store.memory.supersede(o.id, id, ctx)) report.superseded++;
    spreadCiRuns(d);
  };

  const place = (m: KnowledgeMemory) => {
    let d = m.draft;
    const subject = d.subject ?? '';
    const purpose = purposeOf(subject);
    if (purpose) {
      toCard(m, purpose);
      return;
    }
    if (subject.startsWith('env:scripts:')) {
      const left = scriptsNotKnown(
        d,
        commandFacts().map((e) => ({ title: '', facts: e.facts })),
      );
      if (!left) return;
      d = left;
      m = { ...m, draft: d };
    }
    if (subject.startsWith('env:ci:')) {
      // What a CI log showed CI running (kept on the command facts) goes into the CI fact as well.
      const runs = commandFacts().flatMap(ciRunsOf);
      const others = store.observations
        .bySubjectPrefix(projectId, 'env:ci:')
        .filter((o) => o.subject !== subject);
      const whole = others.length === 0 ? ciFactWithRuns(d, runs) : null;
      if (whole) {
        d = whole;
        m = { ...m, draft: d };
      }
    }
    if (subject === 'attach:commit') {
      const { subject: _attach, ...plain } = d;
      const work = batch.sessionId
        ? [...store.observations.ofSession(batch.sessionId)]
            .reverse()
            .find((o) => o.status === 'active' && uncommitted(o) && commitBelongsTo(o, d.filesModified))
        : undefined;
      if (work) {
        edit(work, attachedCommit(work, plain), m);
        merge(work, m);
      } else create(m, plain);
      return;
    }
    if (batch.sessionId && isWork(d)) {
      // The same files changed again in this session (and perhaps committed now): this is the work as
      // it now stands. Committed work before it stays history.
      const session = store.observations.ofSession(batch.sessionId);
      // The user's corrections up to now: work done before one of them and redone after it is the same.
      const corrections = session.filter((o) => o.type === 'correction' && o.createdAt <= m.createdAt);
      const corrected = (o: { createdAt: number }) => corrections.some((c) => c.createdAt > o.createdAt);
      const earlier = session.filter(
        (o) =>
          o.status === 'active' &&
          o.createdAt <= m.createdAt &&
          isUncommittedWork(o) &&
          sameWork(o, d, corrected(o)),
      );
      const [newest, ...older] = [...earlier].reverse();
      if (newest) {
        const restated = earlier.map((o) => ({ ...o, corrected: corrected(o) }));
        const id = create(m, restatedWork(d, restated), newest.id);
        report.superseded++;
        for (const o of older) if (store.memory.supersede(o.id, id, ctx)) report.superseded++;
        return;
      }
    }
    if (subject.startsWith('rule:file:')) {
      // A rules file the session read whose rules engram reads from the file itself (app/standing-files):
      // they are stored already, attributed to their lines.
      const path = d.facts.find((f) => f.startsWith('source: '))?.slice('source: '.length) ?? '';
      if (path !== '' && store.observations.bySubjectPrefix(projectId, sourceSubject(path)).length > 0)
        return;
    }
    const existing = subject !== '' ? store.observations.bySubject(projectId, subject) : null;
    if (existing) {
      if (subject.startsWith('tasks:') || subject.startsWith('fail:')) {
        edit(existing, { title: d.title, subtitle: d.subtitle, narrative: d.narrative, facts: d.facts }, m);
        merge(existing, m);
      } else if (
        (subject.startsWith('env:') || subject.startsWith('answer:')) &&
        (existing.title !== d.title || existing.narrative !== d.narrative)
      ) {
        create(m, d, existing.id);
        report.superseded++;
      } else if (subject.startsWith('rule:git-hooks:')) {
        // The same git hooks seen running other checks: their convention lists them all.
        const patch = mergedGitHookRule(existing, d);
        if (patch) edit(existing, patch, m);
        merge(existing, m);
      } else if (subject.startsWith('said:')) {
        // The same words of the user read again (from the transcript after the hook's prompt): the
        // reading with more of the dialogue (a correction, a choice) replaces a plainer one.
        const patch = saidReading(existing, d);
        if (patch) edit(existing, patch, m);
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
    const id = create(m);
    // A store written before the hooks of a runner were one convention: its per-hook ones give way.
    if (subject.startsWith('rule:git-hooks:'))
      for (const older of store.observations.pinned(projectId, 300))
        if ((older.subject ?? '').startsWith('rule:git-hook:') && store.memory.supersede(older.id, id, ctx))
          report.superseded++;
  };

  /** Work of the failure's session told as tried and not run again: the run that closed it bore it out. */
  const confirmAttempts = (failed: Observation, r: Resolution) => {
    const command = FAILURE_TITLE.exec(failed.title)?.[1];
    if (!command || !failed.sessionId) return;
    for (const o of store.observations.ofSession(failed.sessionId)) {
      if (o.status !== 'active' || o.createdAt > r.at) continue;
      const patch = confirmedAttempt(o, command, r.command);
      if (patch) {
        store.memory.edit(o.id, patch, ctx);
        report.updated++;
      }
    }
  };

  /** A later run of the same purpose passed: the failures it covers are closed (a gotcha, or archived). */
  const close = (r: Resolution) => {
    for (const subject of failureSubjects(r)) {
      const failed = store.observations.bySubject(projectId, subject);
      if (!failed || !closes(failed, r)) continue;
      confirmAttempts(failed, r);
      const outcome = closedFailure(failed, r);
      if ('archive' in outcome) store.memory.archive(failed.id, outcome.archive, ctx);
      else {
        const known = outcome.gotcha.subject
          ? store.observations.bySubject(projectId, outcome.gotcha.subject)
          : null;
        if (known && known.id !== failed.id) {
          // The same gotcha was learned before: it is seen again, and the failure is no longer open.
          store.memory.merge(
            known.id,
            { facts: outcome.gotcha.facts ?? [], provenance: failed.provenance, seenAt: r.at },
            ctx,
          );
          store.memory.archive(failed.id, `fixed again: ${known.title}`, ctx);
        } else store.memory.edit(failed.id, outcome.gotcha, ctx);
      }
      report.closed++;
    }
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
      if (title.length >= 25 && refuted.some((r) => r.includes(title) || title.includes(r))) {
        store.memory.invalidate(o.id, 'the user corrected it', ctx);
        report.superseded++;
        continue;
      }
      // A memory that only repeats the refuted sentence in its account keeps the rest of it.
      const kept = withoutSentences(o.narrative, refuted, statementKey);
      if (kept !== o.narrative) store.memory.edit(o.id, { narrative: kept }, ctx);
    }
  };

  /**
   * Work that changed the project's code after a failure left open, in a later turn or session that did
   * not run it again: the failure is no longer known to hold (the failure's own turn judged its work).
   */
  const unconfirm = (m: KnowledgeMemory) => {
    if (!isWork(m.draft)) return;
    for (const f of store.observations.bySubjectPrefix(projectId, 'fail:')) {
      if (f.status !== 'active' || f.createdAt >= m.createdAt) continue;
      const patch = unconfirmedFailure(f, m.draft);
      if (patch) {
        store.memory.edit(f.id, patch, ctx);
        report.updated++;
      }
    }
  };

  /** A failure seen again: the session's earlier work that answered it was an attempt, not the fix. */
  const attempts = (m: KnowledgeMemory) => {
    if (m.draft.type !== 'failed_attempt' || !batch.sessionId) return;
    for (const o of store.observations.ofSession(batch.sessionId)) {
      // Work of the same turn was judged by the turn's own runs (see outcomes): only earlier turns here.
      if (o.status !== 'active' || o.createdAt >= m.createdAt) continue;
      const patch = refutedAttempt(o, m.draft);
      if (patch) {
        store.memory.edit(o.id, patch, ctx);
        report.updated++;
      }
    }
  };

  /**
   * Work that changed what an earlier memory of the session described (a symbol it names as code and
   * did not change itself): a finding is superseded by the work; earlier work's title is marked.
   */
  const staleFindings = (m: KnowledgeMemory) => {
    if (!batch.sessionId || !isWork(m.draft)) return;
    const made = report.ids[report.ids.length - 1];
    if (!made) return;
    for (const o of store.observations.ofSession(batch.sessionId)) {
      if (o.status !== 'active' || o.createdAt >= m.createdAt || o.id === made) continue;
      const stale = staleFinding(o, m.draft);
      if (!stale) continue;
      if (o.type === 'discovery') {
        if (store.memory.supersede(o.id, made, ctx)) report.superseded++;
        continue;
      }
      // Earlier work stays (it was done); what its title said of other code is told as what held
      // before the change, and the change named.
      const note = `later in the session: \`${stale.symbol}\` in ${stale.file} was changed`;
      const title = staleTitle(o.title, stale.symbol);
      if (!o.facts.includes(note) || title !== o.title) {
        store.memory.edit(o.id, { title, facts: o.facts.includes(note) ? o.facts : [...o.facts, note] }, ctx);
        report.updated++;
      }
    }
  };

  // In time order: a failure, the run that closed it, and a failure of the same purpose after that
  // (a backfill stores a whole transcript's turns at once).
  const steps = [
    ...batch.memories.map((m, i) => ({
      at: m.createdAt,
      order: i,
      run: () => {
        place(m);
        withdraw(m);
        attempts(m);
        unconfirm(m);
        staleFindings(m);
        const [session, made] = [batch.sessionId, report.ids[report.ids.length - 1]];
        if (session && made) linkGotchaToWork(store, { projectId, session, id: made, m }, ctx);
        if (session && closeWorkedItems(store, projectId, session, m.draft, m.createdAt, ctx))
          report.updated++;
      },
    })),
    ...(batch.resolutions ?? []).map((r, i) => ({
      at: r.at,
      order: batch.memories.length + i,
      run: () => close(r),
    })),
  ].sort((x, y) => x.at - y.at || x.order - y.order);
  for (const step of steps) {
    try {
      step.run();
    } catch (error) {
      onInvalid(error);
    }
  }
  for (const r of batch.removedFiles ?? []) {
    if (!batch.sessionId) break;
    for (const o of store.observations.ofSession(batch.sessionId)) {
      // Committed work stays history; knowledge (a gotcha, a fact) stays true of the past file.
      if (o.createdAt > r.at || !isUncommittedWork(o) || !o.filesModified.includes(r.path)) continue;
      if (r.to !== undefined) {
        store.memory.edit(o.id, withRenamedFile(o, r.path, r.to), ctx);
        continue;
      }
      const left = withoutRemovedFile(o, r.path);
      if (left === null) store.memory.archive(o.id, `${r.path} was removed later in the session`, ctx);
      else store.memory.edit(o.id, left, ctx);
    }
  }
  for (const d of batch.droppedText ?? []) {
    if (!batch.sessionId) break;
    const pairs = new Set(d.pairs);
    for (const o of store.observations.ofSession(batch.sessionId)) {
      // The user's words stay theirs; only what the session said of the document before is checked.
      if (o.status !== 'active' || o.createdAt >= d.at || USER_TYPES.has(o.type) || o.source === 'manual')
        continue;
      if (!o.filesModified.includes(d.path)) continue;
      const patch = withoutDroppedClaims(o, d.path, pairs);
      if (patch) {
        store.memory.edit(o.id, patch, ctx);
        report.updated++;
      }
    }
  }
  for (const n of batch.notFixed ?? []) {
    if (!batch.sessionId) break;
    const latest = store.observations
      .ofSession(batch.sessionId)
      .filter(
        (o) => o.status === 'active' && o.createdAt < n.at && isWork(o) && o.subject !== 'attach:commit',
      )
      .reduce<Observation | null>(
        (best, o) => (best === null || o.createdAt > best.createdAt ? o : best),
        null,
      );
    if (latest && !/^Tried: /.test(latest.title)) {
      store.memory.edit(latest.id, notFixedWork(latest, n.said), ctx);
      report.updated++;
    }
  }
  if (batch.sessionId) report.superseded += archiveHeldLinks(store, batch.sessionId, ctx);
  closeFinishedLists(store, projectId, batch.finishedTasks ?? [], ctx);
  return report;
}

/**
 * A memory that only says the user gave a link (`link:` subject), when another memory of the session
 * holds every one of its addresses — the request it came in, the work it was for, the deployed app —
 * says nothing of its own: archived. How many were.
 */
function archiveHeldLinks(store: Store, sessionId: string, ctx: MutationContext): number {
  const active = store.observations.ofSession(sessionId).filter((o) => o.status === 'active');
  let archived = 0;
  for (const o of active) {
    if (!o.subject?.startsWith('link:')) continue;
    const urls = o.facts.filter((f) => f.startsWith('link: ')).map((f) => f.slice('link: '.length));
    const holds = (x: Observation, url: string) =>
      x.title.includes(url) || x.narrative.includes(url) || x.facts.some((f) => f.includes(url));
    const held = (url: string) =>
      active.some(
        (x) => x.id !== o.id && !x.subject?.startsWith('link:') && x.status === 'active' && holds(x, url),
      );
    if (
      urls.length > 0 &&
      urls.every(held) &&
      store.memory.archive(o.id, 'another memory of the session holds the link', ctx)
    )
      archived++;
  }
  return archived;
}
