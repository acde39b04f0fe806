/**
 * The push half of a team sync round: the outbox in batches, each record built as it is now (the last
 * secret check included), each answer applied in one local transaction. A batch the server refuses
 * is split in halves until the records it refuses stand alone; those are set aside (team_blocked,
 * with the server's reason, shown by `engram team status`) and every other record still goes.
 */
import { describeError, isEngramError } from '../core/errors.ts';
import type { OutboxEntry, SharedProject } from '../store/team-repo.ts';
import type { PushRecord, PushResponse, PushResult } from '../team/protocol.ts';
import { checkEpoch, type SyncReport, type TeamSyncDeps } from './team-round.ts';
import { keyringOf } from './team-keys.ts';
import { buildRecord, contentKey, forkConflict, onlyStatusChanged } from './team-records.ts';
import { forgetSealing, sealRecord } from './team-seal.ts';

/** A record on its way to the server (sealed in an encrypted project), and the outbox entry it stands for. */
interface Outgoing {
  entry: OutboxEntry;
  rec: PushRecord;
  /** The record before sealing (the same as `rec` in a plain project). */
  plain: PushRecord;
}

/** A record the server refused as a batch of one; `certain` when the refusal was about the request. */
interface Refusal {
  item: Outgoing;
  reason: string;
  certain: boolean;
  error: unknown;
}

/**
 * Whether the server refused a batch for what it holds rather than for being away or busy: a 400,
 * 413 or 422 is about the request (certain); a 500 may be one record the server fails on, or the
 * server failing on everything (told apart by whether other records of the round get through).
 */
function batchRefusal(error: unknown): { certain: boolean } | null {
  if (!isEngramError(error) || error.status === undefined) return null;
  if ([400, 413, 422].includes(error.status)) return { certain: true };
  return error.status === 500 ? { certain: false } : null;
}

/**
 * Push `items`; a batch the server refuses is split in halves until the records it refuses stand
 * alone (collected in `refusals`), so every other record still goes. Returns how many were answered.
 */
async function pushOrSplit(
  deps: TeamSyncDeps,
  p: SharedProject,
  items: Outgoing[],
  report: SyncReport,
  refusals: Refusal[],
): Promise<number> {
  const { store, clock } = deps;
  let response: PushResponse;
  try {
    response = await deps.api.push(
      p.projectId,
      items.map((i) => i.rec),
    );
  } catch (error) {
    const refused = batchRefusal(error);
    if (refused === null) throw error;
    if (items.length === 1) {
      const reason = `the server refused it: ${isEngramError(error) ? error.message : describeError(error)}`;
      refusals.push({ item: items[0] as Outgoing, reason, certain: refused.certain, error });
      return 0;
    }
    const half = Math.ceil(items.length / 2);
    const first = await pushOrSplit(deps, p, items.slice(0, half), report, refusals);
    return first + (await pushOrSplit(deps, p, items.slice(half), report, refusals));
  }
  const now = clock.now();
  checkEpoch(store, response.epoch, now, report);
  store.transaction(() => {
    response.results.forEach((result, i) => {
      const item = items[i] as Outgoing;
      report.pushed[result.status]++;
      handlePushResult(deps, p, item, result, now, report);
      if (item.rec !== item.plain) forgetSealing(store, item.entry.entity, item.entry.entityId);
    });
    store.team.markPushed(p.projectId, now);
  });
  return items.length;
}

/** Set a refused record aside (team_blocked, shown by `engram team status`); the rest goes on. */
function setAside(deps: TeamSyncDeps, p: SharedProject, r: Refusal, report: SyncReport): void {
  const { entry } = r.item;
  deps.store.team.block({
    entity: entry.entity,
    entityId: entry.entityId,
    projectId: p.projectId,
    reason: r.reason,
    at: deps.clock.now(),
  });
  report.blocked.push({ id: entry.entityId, reason: r.reason });
  deps.store.team.dequeue(entry);
  deps.logger.warn('team sync: the server refused a record; it stays on this machine', {
    id: entry.entityId,
    reason: r.reason,
  });
}

export async function pushProject(deps: TeamSyncDeps, p: SharedProject, report: SyncReport): Promise<void> {
  const { store, clock } = deps;
  const batch = deps.pushBatch ?? 200;
  // Entries the server answered but that stay queued (a status change waiting for the pull) are not
  // sent twice in one round.
  const tried = new Set<string>();
  const ring = keyringOf(store, p.projectId);
  const keyOf = (e: OutboxEntry) => `${e.entity} ${e.entityId} ${e.queuedAt}`;
  for (let round = 0; round < 10_000; round++) {
    const entries = store.team
      .outbox(p.projectId, batch + tried.size)
      .filter((e) => !tried.has(keyOf(e)))
      .slice(0, batch);
    if (entries.length === 0) return;
    for (const e of entries) tried.add(keyOf(e));
    const items: Outgoing[] = [];
    store.transaction(() => {
      for (const entry of entries) {
        let built = buildRecord(store, entry, deps.me);
        if (built.kind === 'record' && ring) {
          // Sealed only after buildRecord's secret check: the server never sees the plain text.
          const sealed = sealRecord(store, ring, built.record);
          if (sealed.ok) {
            items.push({ entry, rec: sealed.rec, plain: built.record });
            continue;
          }
          built = { kind: 'blocked', reason: sealed.reason };
        }
        if (built.kind === 'record') {
          items.push({ entry, rec: built.record, plain: built.record });
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
    if (items.length === 0) continue;
    const refusals: Refusal[] = [];
    const answered = await pushOrSplit(deps, p, items, report, refusals);
    // A 500 on a lone record counts against it only when the server took others meanwhile; when it
    // fails on everything, the fault is the server's: nothing is set aside, the push is retried.
    const unproven = answered === 0 ? refusals.filter((r) => !r.certain) : [];
    store.transaction(() => {
      for (const r of refusals) if (!unproven.includes(r)) setAside(deps, p, r, report);
    });
    if (unproven.length > 0) throw unproven[0]?.error;
  }
}

function handlePushResult(
  deps: TeamSyncDeps,
  p: SharedProject,
  { entry, rec, plain }: Outgoing,
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
        entry.entity === 'memory' && !plain.deleted ? (plain.body as Parameters<typeof contentKey>[0]) : null;
      store.team.putEntity({
        entity: entry.entity,
        entityId: entry.entityId,
        projectId: p.projectId,
        version: result.version,
        hash: rec.hash,
        contentHash: body ? contentKey(body) : null,
        // Attribution stays with whoever first shared it: an edit or pin pushed from here keeps it theirs.
        author: known?.author ?? deps.me,
        device: known?.device ?? deps.device ?? '',
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
