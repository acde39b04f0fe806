/**
 * One round of team sync for every shared project: the change log feeds the outbox (origin `team`
 * changes are never sent back); the outbox is pushed in batches (each record re-scanned for secrets;
 * idempotent by entity id + base version + content hash, so a push repeated after a crash changes
 * nothing); then pages after the project's cursor are pulled and applied, each page in ONE local
 * transaction with the cursor, so an interrupted pull resumes where it stopped, without loss or
 * duplicates. A new server epoch (a reset or another server) starts the project over: cursor 0, and
 * everything shared is offered again. Errors are per project and never thrown to the worker.
 */
import { describeError, isEngramError } from '../core/errors.ts';
import type { ProjectId } from '../core/ids.ts';
import type { Change } from '../core/model.ts';
import type { Clock, Logger } from '../core/ports.ts';
import type { Store } from '../store/store.ts';
import type { OutboxEntry, SharedProject } from '../store/team-repo.ts';
import type { TeamApi } from '../team/api-client.ts';
import type { ProjectState, PushRecord, PushResult } from '../team/protocol.ts';
import {
  applyPulled,
  buildRecord,
  contentKey,
  forkConflict,
  onlyStatusChanged,
  type ApplyOutcome,
} from './team-records.ts';

export interface TeamSyncDeps {
  store: Store;
  api: TeamApi;
  logger: Logger;
  clock: Clock;
  /** This machine's user name on the server (attribution: "from alice" is never shown for oneself). */
  me: string;
  /** This machine's device name on the server (its own state is not shown back to it). */
  device?: string;
  /** The project's branch, commit and changed files (worker/git-state); absent: not shared. */
  readState?: (root: string, now: number) => Promise<ProjectState | null>;
  pushBatch?: number;
  pullPage?: number;
}

export interface PlannedRecord {
  project: string;
  kind: PushRecord['kind'];
  id: string;
  title: string;
  deleted: boolean;
  /** Why it stays on this machine (a secret, a private preference), when it does. */
  held: string | null;
  /** Exactly what would be sent (null when held). */
  record: PushRecord | null;
}

export interface SyncReport {
  projects: number;
  pushed: Record<PushResult['status'], number>;
  blocked: { id: string; reason: string }[];
  pulled: number;
  applied: Record<ApplyOutcome, number>;
  conflicts: number;
  epochReset: boolean;
  /** Shared projects this login may only read: nothing was pushed there. */
  readOnly: string[];
  errors: { project: string; error: string }[];
}

const CURSOR_KEY = 'changes_seq';
const EPOCH_KEY = 'epoch';
const STATE_EVERY_MS = 5 * 60_000;

const emptyReport = (): SyncReport => ({
  projects: 0,
  pushed: { accepted: 0, duplicate: 0, conflict: 0, gone: 0, rejected: 0 },
  blocked: [],
  pulled: 0,
  applied: { created: 0, updated: 0, merged: 0, forgotten: 0, unchanged: 0, skipped: 0 },
  conflicts: 0,
  epochReset: false,
  readOnly: [],
  errors: [],
});

/** Offer everything of a project to the team (share, and after a server reset). */
export function enqueueProject(store: Store, projectId: string, at: number): number {
  const all = store.team.entitiesOf(projectId);
  for (const e of all) store.team.enqueue(e.entity, e.entityId, projectId, at);
  return all.length;
}

/** Start sharing a project: the change-log cursor starts now, and its past is queued. */
export function shareProject(
  store: Store,
  p: { id: string; name: string; root: string },
  at: number,
): number {
  return store.transaction(() => {
    if (store.team.meta(CURSOR_KEY) === null) store.team.setMeta(CURSOR_KEY, String(store.changes.lastSeq()));
    if (!store.team.share(p, at)) return 0;
    return enqueueProject(store, p.id, at);
  });
}

/** A change that should reach the team: of a shared project, and not itself pulled from the team. */
const outgoing = (c: Change, shared: ReadonlySet<string>): c is Change & { projectId: string } =>
  c.origin !== 'team' && c.projectId !== null && shared.has(c.projectId);

/** Move changes of shared projects from the change log into the outbox (never the team's own). */
export function collectOutbox(store: Store, at: number): number {
  let moved = 0;
  for (;;) {
    const done = store.transaction(() => {
      const from = Number(store.team.meta(CURSOR_KEY) ?? store.changes.lastSeq());
      const changes = store.changes.since(from, 1000);
      if (changes.length === 0) return true;
      const shared = new Set(store.team.projects().map((p) => p.projectId));
      for (const c of changes) {
        if (!outgoing(c, shared)) continue;
        store.team.enqueue(c.entity, c.entityId, c.projectId, at);
        moved++;
      }
      store.team.setMeta(CURSOR_KEY, String(changes.at(-1)?.seq ?? from));
      return changes.length < 1000;
    });
    if (done) return moved;
  }
}

/** Exactly what the next push would send (and what stays here, and why). Reads only. */
export function planPush(store: Store, me: string): PlannedRecord[] {
  const out: PlannedRecord[] = [];
  const shared = new Set(store.team.projects().map((p) => p.projectId));
  const from = Number(store.team.meta(CURSOR_KEY) ?? store.changes.lastSeq());
  const pending = new Map<string, { entity: PushRecord['kind']; entityId: string; projectId: string }>();
  for (const p of shared) {
    for (const e of store.team.outbox(p, 100_000)) pending.set(`${e.entity} ${e.entityId}`, e);
  }
  for (let seq = from; ;) {
    const changes = store.changes.since(seq, 1000);
    if (changes.length === 0) break;
    for (const c of changes) {
      if (!outgoing(c, shared)) continue;
      pending.set(`${c.entity} ${c.entityId}`, {
        entity: c.entity,
        entityId: c.entityId,
        projectId: c.projectId,
      });
    }
    seq = changes.at(-1)?.seq ?? seq;
  }
  for (const e of pending.values()) {
    const built = buildRecord(store, { ...e, queuedAt: 0 }, me);
    const base = { project: e.projectId, kind: e.entity, id: e.entityId };
    if (built.kind === 'record')
      out.push({
        ...base,
        title: built.title,
        deleted: built.record.deleted,
        held: null,
        record: built.record,
      });
    else out.push({ ...base, title: '', deleted: false, held: built.reason, record: null });
  }
  return out;
}

class EpochChanged extends Error {}

/** Record the server's epoch; a different one than before starts every shared project over. */
function checkEpoch(store: Store, epoch: string, at: number, report: SyncReport): void {
  const known = store.team.meta(EPOCH_KEY);
  if (known === epoch) return;
  store.transaction(() => {
    store.team.setMeta(EPOCH_KEY, epoch);
    if (known === null) return;
    for (const p of store.team.projects()) restartProject(store, p.projectId, at);
  });
  if (known !== null) {
    report.epochReset = true;
    throw new EpochChanged();
  }
}

function restartProject(store: Store, projectId: string, at: number): void {
  store.team.setCursor(projectId, 0, at);
  store.team.forgetVersions(projectId);
  enqueueProject(store, projectId, at);
}

async function pushProject(deps: TeamSyncDeps, p: SharedProject, report: SyncReport): Promise<void> {
  const { store, api, clock } = deps;
  const batch = deps.pushBatch ?? 200;
  // Entries the server answered but that stay queued (a status change waiting for the pull) are not
  // sent twice in one round.
  const tried = new Set<string>();
  const keyOf = (e: OutboxEntry) => `${e.entity} ${e.entityId} ${e.queuedAt}`;
  for (let round = 0; round < 10_000; round++) {
    const entries = store.team
      .outbox(p.projectId, batch + tried.size)
      .filter((e) => !tried.has(keyOf(e)))
      .slice(0, batch);
    if (entries.length === 0) return;
    for (const e of entries) tried.add(keyOf(e));
    const records: PushRecord[] = [];
    const sent: OutboxEntry[] = [];
    store.transaction(() => {
      for (const entry of entries) {
        const built = buildRecord(store, entry, deps.me);
        if (built.kind === 'record') {
          records.push(built.record);
          sent.push(entry);
          continue;
        }
        if (built.kind === 'blocked') {
          store.team.block({
            entity: entry.entity,
            entityId: entry.entityId,
            projectId: p.projectId,
            reason: built.reason,
            at: clock.now(),
          });
          report.blocked.push({ id: entry.entityId, reason: built.reason });
          deps.logger.warn('team sync: a record stays on this machine', {
            id: entry.entityId,
            reason: built.reason,
          });
        }
        store.team.dequeue(entry);
      }
    });
    if (records.length === 0) continue;
    const response = await api.push(p.projectId, records);
    const now = clock.now();
    checkEpoch(store, response.epoch, now, report);
    store.transaction(() => {
      response.results.forEach((result, i) => {
        const entry = sent[i] as OutboxEntry;
        const rec = records[i] as PushRecord;
        report.pushed[result.status]++;
        handlePushResult(deps, p, entry, rec, result, now, report);
      });
      store.team.markPushed(p.projectId, now);
    });
  }
}

function handlePushResult(
  deps: TeamSyncDeps,
  p: SharedProject,
  entry: OutboxEntry,
  rec: PushRecord,
  result: PushResult,
  now: number,
  report: SyncReport,
): void {
  const { store } = deps;
  const ctx = { origin: 'team' as const, actor: result.by ?? 'team', at: now };
  switch (result.status) {
    case 'accepted':
    case 'duplicate': {
      const known = store.team.entity(entry.entity, entry.entityId);
      const body =
        entry.entity === 'memory' && !rec.deleted ? (rec.body as Parameters<typeof contentKey>[0]) : null;
      store.team.putEntity({
        entity: entry.entity,
        entityId: entry.entityId,
        projectId: p.projectId,
        version: result.version,
        hash: rec.hash,
        contentHash: body ? contentKey(body) : null,
        author: result.status === 'accepted' ? deps.me : (known?.author ?? deps.me),
        device: result.status === 'accepted' ? (deps.device ?? '') : (known?.device ?? deps.device ?? ''),
        at: now,
        localId: known?.localId ?? null,
      });
      store.team.unblock(entry.entity, entry.entityId);
      store.team.dequeue(entry);
      return;
    }
    case 'conflict': {
      const local = entry.entity === 'memory' ? store.observations.get(entry.entityId) : null;
      // Only its status changed here: stay queued; the pull takes their content and keeps our status.
      if (local && local.status !== 'forgotten' && onlyStatusChanged(store, local)) return;
      if (local && local.status !== 'forgotten') forkConflict(store, local, result.by ?? 'a teammate', now);
      report.conflicts++;
      store.team.dequeue(entry);
      return;
    }
    case 'gone':
      if (entry.entity === 'memory') store.memory.forget(entry.entityId, ctx);
      store.team.dequeue(entry);
      return;
    case 'rejected': {
      const reason = `the server refused it: ${result.reason ?? 'no reason given'}`;
      store.team.block({
        entity: entry.entity,
        entityId: entry.entityId,
        projectId: p.projectId,
        reason,
        at: now,
      });
      report.blocked.push({ id: entry.entityId, reason });
      store.team.dequeue(entry);
    }
  }
}

async function pullProject(deps: TeamSyncDeps, p: SharedProject, report: SyncReport): Promise<void> {
  const { store, api, clock } = deps;
  let cursor = store.team.project(p.projectId)?.cursor ?? 0;
  for (let round = 0; round < 100_000; round++) {
    const page = await api.pull(p.projectId, cursor, deps.pullPage);
    const now = clock.now();
    checkEpoch(store, page.epoch, now, report);
    if (page.head < cursor) {
      // The server went back (restored from a backup): start this project over.
      store.transaction(() => restartProject(store, p.projectId, now));
      throw new EpochChanged();
    }
    const last = page.records.at(-1)?.seq ?? cursor;
    store.transaction(() => {
      for (const rec of page.records) {
        const outcome = applyPulled(store, rec, {
          projectId: p.projectId as ProjectId,
          me: deps.me,
          at: now,
        });
        report.applied[outcome]++;
      }
      store.team.setCursor(p.projectId, last, now);
    });
    report.pulled += page.records.length;
    cursor = last;
    if (!page.more) return;
  }
}

async function exchangeState(deps: TeamSyncDeps, p: SharedProject): Promise<void> {
  const { store, api, clock } = deps;
  const key = `state_at:${p.projectId}`;
  const now = clock.now();
  if (now - Number(store.team.meta(key) ?? 0) < STATE_EVERY_MS) return;
  const state = deps.readState ? await deps.readState(p.root, now) : null;
  if (state) {
    try {
      await api.putState(p.projectId, state);
    } catch (error) {
      // A reader may not write state; everyone may still read the others'.
      if (!isEngramError(error, 'FORBIDDEN')) throw error;
    }
  }
  const states = await api.states(p.projectId);
  store.transaction(() => {
    store.team.replaceMemberStates(p.projectId, states);
    store.team.setMeta(key, String(now));
  });
}

/** Push, pull and exchange state for every shared project once. Never throws. */
export async function syncOnce(deps: TeamSyncDeps): Promise<SyncReport> {
  const report = emptyReport();
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await syncProjects(deps, report);
      return report;
    } catch (error) {
      if (!(error instanceof EpochChanged)) throw error;
      deps.logger.warn('team server epoch changed (reset or restored): starting shared projects over');
    }
  }
  return report;
}

async function syncProjects(deps: TeamSyncDeps, report: SyncReport): Promise<void> {
  const { store, clock } = deps;
  if (store.team.meta('user') !== deps.me) store.team.setMeta('user', deps.me);
  if (deps.device && store.team.meta('device') !== deps.device) store.team.setMeta('device', deps.device);
  collectOutbox(store, clock.now());
  const projects = store.team.projects();
  report.projects = projects.length;
  for (const p of projects) {
    try {
      try {
        await pushProject(deps, p, report);
      } catch (error) {
        // A reader (or a token without write) still pulls; what it changes stays queued here.
        if (!isEngramError(error, 'FORBIDDEN')) throw error;
        report.readOnly.push(p.projectId);
      }
      await pullProject(deps, p, report);
      await exchangeState(deps, p);
      store.team.setError(p.projectId, null, null);
    } catch (error) {
      if (error instanceof EpochChanged) throw error;
      const message = describeError(error);
      report.errors.push({ project: p.projectId, error: message });
      store.team.setError(p.projectId, message, clock.now());
      deps.logger.warn('team sync failed for a project; it is retried later', {
        project: p.projectId,
        error: message,
      });
      // An unreachable server fails every project alike: do not wait on it once per project.
      if (isEngramError(error, 'REMOTE_FAILED')) return;
    }
  }
}
