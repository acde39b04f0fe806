/**
 * One round of team sync for every shared project: the change log feeds the outbox (origin `team`
 * changes are never sent back); the outbox is pushed in batches (`team-push.ts`: each record
 * re-scanned for secrets; idempotent by entity id + base version + content hash, so a push repeated
 * after a crash changes nothing; a record the server refuses is set aside); then pages after the
 * project's cursor are pulled and applied, each page in ONE local transaction with the cursor, so an interrupted pull resumes where it stopped, without loss or
 * duplicates. A new server epoch (a reset or another server) starts the project over: cursor 0, and
 * everything shared is offered again. Errors are per project and never thrown to the worker.
 */
import { describeError, isEngramError } from '../core/errors.ts';
import type { ProjectId } from '../core/ids.ts';
import type { Change } from '../core/model.ts';
import { compactStore } from '../store/erase-text.ts';
import { isSameProcess, type ProcessStamp } from '../store/process-identity.ts';
import type { Store } from '../store/store.ts';
import type { SharedProject } from '../store/team-repo.ts';
import type { PushRecord } from '../team/protocol.ts';
import { enrolOnce, exchangesKeys, markEncrypted, runKeyExchange } from './team-key-exchange.ts';
import { keyringOf } from './team-keys.ts';
import { followMove, sendPendingMoves } from './team-move.ts';
import { pushProject } from './team-push.ts';
import { pushReviews } from './team-reviews.ts';
import { buildRecord, applyPulled } from './team-records.ts';
import { openRecord, openState, sealRecord, sealState, type OpenedRecord } from './team-seal.ts';
import {
  checkEpoch,
  emptyReport,
  enqueueProject,
  EpochChanged,
  restartProject,
  type SyncReport,
  type TeamSyncDeps,
} from './team-round.ts';

export { enqueueProject, type SyncReport, type TeamSyncDeps } from './team-round.ts';

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

const CURSOR_KEY = 'changes_seq';
/** How often background sync sends this machine's project state (a sync asked for sends it always). */
const STATE_EVERY_MS = 5 * 60_000;
const LEASE_KEY = 'sync_lease';
/** Longest a background sync may hold the lease without ending (a process killed mid-sync). */
const LEASE_MS = 10 * 60_000;

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
    let built = buildRecord(store, { ...e, queuedAt: 0 }, me);
    const ring = built.kind === 'record' ? keyringOf(store, e.projectId) : null;
    if (ring && built.kind === 'record') {
      const sealed = sealRecord(store, ring, built.record, false);
      built = sealed.ok ? { ...built, record: sealed.rec } : { kind: 'blocked', reason: sealed.reason };
    }
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

/** Records of an encrypted project this pull could not open, and the last reason why. */
interface Unreadable {
  count: number;
  reason: string;
}

/** Pull a project's new records; the project it moved into when the server says it moved. */
async function pullProject(
  deps: TeamSyncDeps,
  p: SharedProject,
  report: SyncReport,
  unreadable: Unreadable,
): Promise<SharedProject | null> {
  const { store, api, clock } = deps;
  const ring = keyringOf(store, p.projectId);
  let cursor = store.team.project(p.projectId)?.cursor ?? 0;
  for (let round = 0; round < 100_000; round++) {
    const page = await api.pull(p.projectId, cursor, deps.pullPage);
    const now = clock.now();
    checkEpoch(store, page.epoch, now, report);
    if (page.encrypted) markEncrypted(store, p.projectId);
    if (page.movedTo) return followMove(deps, p, page.movedTo, report);
    if (page.head < cursor) {
      // The server went back (restored from a backup): start this project over.
      store.transaction(() => restartProject(store, p.projectId, now));
      throw new EpochChanged();
    }
    const last = page.records.at(-1)?.seq ?? cursor;
    const erased = store.transaction(() => {
      let n = 0;
      for (const pulled of page.records) {
        // An encrypted project's record is opened first; one that does not open is left out (the
        // rest of the page is still applied) and reported.
        const opened: OpenedRecord = openRecord(store, ring, p.projectId, pulled);
        if (!opened.ok) {
          if (opened.skip) report.applied.skipped++;
          else {
            unreadable.count++;
            unreadable.reason = opened.message;
          }
          continue;
        }
        const rec = opened.rec;
        const outcome = applyPulled(store, rec, {
          projectId: p.projectId as ProjectId,
          me: deps.me,
          at: now,
        });
        // Shared in the clear before the project was encrypted: sent again, sealed (a link's plain
        // copy stays on the server under its plain id).
        if (opened.reseal && rec.kind !== 'link' && outcome !== 'skipped')
          store.team.enqueue(rec.kind, rec.id, p.projectId, now);
        report.applied[outcome]++;
        if (outcome === 'erased') n++;
      }
      store.team.setCursor(p.projectId, last, now);
      return n;
    });
    // Text erased by a teammate: no byte of it may stay in old index segments, free pages or the WAL.
    if (erased > 0 && !compactStore(store.db))
      deps.logger.warn('erased text pulled from the team; the WAL could not be truncated yet (a reader)');
    report.pulled += page.records.length;
    cursor = last;
    if (!page.more) return null;
  }
  return null;
}

async function exchangeState(deps: TeamSyncDeps, p: SharedProject): Promise<void> {
  const { store, api, clock } = deps;
  const key = `state_at:${p.projectId}`;
  const now = clock.now();
  if (now - Number(store.team.meta(key) ?? 0) < (deps.stateEveryMs ?? STATE_EVERY_MS)) return;
  const state = deps.readState ? await deps.readState(p.root, now) : null;
  const ring = keyringOf(store, p.projectId);
  if (state) {
    try {
      await api.putState(p.projectId, ring ? sealState(ring, deps.me, state) : state);
    } catch (error) {
      // A reader may not write state; everyone may still read the others'.
      // (A machine without an encrypted project's key may not send it plain: said by the push.)
      if (!isEngramError(error, 'FORBIDDEN') && !isEngramError(error, 'KEY_MISSING')) throw error;
    }
  }
  const states = (await api.states(p.projectId)).map((s) => openState(ring, p.projectId, s));
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

/** Push a project's outbox, then pull what is new; a move followed, or what could not go or be read. */
async function pushAndPull(
  deps: TeamSyncDeps,
  p: SharedProject,
  report: SyncReport,
): Promise<{ refused: string | null; unreadable: Unreadable; movedTo: SharedProject | null }> {
  let refused: string | null = null;
  try {
    await pushProject(deps, p, report);
  } catch (error) {
    // A reader (or a token without write) still pulls; what it changes stays queued here.
    // A project that moved refuses pushes: the pull below follows it, and pushes there.
    // An encrypted project refuses plain records from a machine without its key: they stay
    // queued, and go sealed once the key is imported.
    if (
      !isEngramError(error, 'FORBIDDEN') &&
      !isEngramError(error, 'CONFLICT') &&
      !isEngramError(error, 'KEY_MISSING')
    )
      throw error;
    if (isEngramError(error, 'FORBIDDEN')) report.readOnly.push(p.projectId);
    if (isEngramError(error, 'KEY_MISSING')) refused = describeError(error);
  }
  // Every member's review decisions go to the audit chain, a reader's too.
  await pushReviews(deps, p, report);
  const unreadable: Unreadable = { count: 0, reason: '' };
  const movedTo = await pullProject(deps, p, report, unreadable);
  return { refused, unreadable, movedTo };
}

async function syncProjects(deps: TeamSyncDeps, report: SyncReport): Promise<void> {
  const { store, clock } = deps;
  if (store.team.meta('user') !== deps.me) store.team.setMeta('user', deps.me);
  if (deps.device && store.team.meta('device') !== deps.device) store.team.setMeta('device', deps.device);
  collectOutbox(store, clock.now());
  await sendPendingMoves(deps, report);
  const projects = store.team.projects();
  report.projects = projects.length;
  for (const p of projects) {
    try {
      // An encrypted project's key may come through the server (wrapped for this device): exchanged
      // first, and again after the pull when that pull is what said the project is encrypted.
      const known = exchangesKeys(store, p.projectId);
      const problems: string[] = known ? await runKeyExchange(deps, p.projectId, report) : [];
      const first = await pushAndPull(deps, p, report);
      if (first.movedTo) {
        projects.push(first.movedTo);
        continue;
      }
      let { refused, unreadable } = first;
      if (!known && exchangesKeys(store, p.projectId)) {
        const before = report.keys.length;
        problems.push(...(await runKeyExchange(deps, p.projectId, report)));
        if ((report.keys[before]?.imported.length ?? 0) > 0)
          ({ refused, unreadable } = await pushAndPull(deps, p, report));
      } else if (!known) {
        // A project shared in the clear (so far): this device is enrolled once, so a key created
        // later is wrapped for it too.
        await enrolOnce(deps, p.projectId);
      }
      await exchangeState(deps, p);
      report.unreadable += unreadable.count;
      const problem = [
        ...problems,
        refused,
        unreadable.count > 0
          ? `${unreadable.count} pulled record(s) could not be read (the rest were): ${unreadable.reason}`
          : null,
      ].filter((x): x is string => x !== null);
      if (problem.length > 0) {
        const message = problem.join('; ');
        report.errors.push({ project: p.projectId, error: message });
        store.team.setError(p.projectId, message, clock.now());
        continue;
      }
      store.team.setError(p.projectId, null, null);
      store.team.setSyncedAt(p.projectId, clock.now());
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

/**
 * One background sync, by whichever engram process holds the lease (the worker, a viewer): two
 * processes alive at once do not both sync. A holder that died frees it at once (its stamp no longer
 * names a live process), one that hangs after LEASE_MS. Skipped: an empty report.
 */
export async function syncInBackground(deps: TeamSyncDeps, holder: ProcessStamp): Promise<SyncReport> {
  const { store, clock } = deps;
  const taken = store.transaction(() => {
    const now = clock.now();
    const raw = store.team.meta(LEASE_KEY);
    const lease = raw ? (JSON.parse(raw) as ProcessStamp & { until: number }) : null;
    const mine = lease !== null && lease.pid === holder.pid && lease.start === holder.start;
    if (lease && !mine && lease.until > now && isSameProcess(lease)) return false;
    store.team.setMeta(LEASE_KEY, JSON.stringify({ ...holder, until: now + LEASE_MS }));
    return true;
  });
  if (!taken) return emptyReport();
  try {
    return await syncOnce(deps);
  } finally {
    store.transaction(() => store.team.setMeta(LEASE_KEY, ''));
  }
}
