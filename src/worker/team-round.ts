/**
 * What one round of team sync shares between its push and pull halves: its dependencies, its report,
 * and the server's epoch (a new one — a reset or another server — starts every shared project over).
 */
import type { Clock, Logger } from '../core/ports.ts';
import type { Store } from '../store/store.ts';
import type { TeamApi } from '../team/api-client.ts';
import type { DeviceKey } from '../team/key-wrap.ts';
import type { ProjectState, PushResult } from '../team/protocol.ts';
import type { HeldDevice } from './device-pins.ts';
import type { ApplyOutcome } from './team-records.ts';
import { forgetSealedSince } from './team-seal-since.ts';

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
  /** Send the project state only when the last was sent this long ago (default 5 min; 0: now). */
  stateEveryMs?: number;
  pushBatch?: number;
  pullPage?: number;
  /** This machine's device key, made on first need (worker/device-key-file.ts); absent: keys are not exchanged. */
  deviceKey?: () => DeviceKey;
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
  /** Pulled records of encrypted projects this machine could not open (no key, a wrong key). */
  unreadable: number;
  /** Projects moved into others: by this machine (`here`), or by a teammate and followed here. */
  moved: { from: string; to: string; name: string; key: string; here: boolean }[];
  /** Encrypted projects' keys through the server: versions received here, and wraps made for members' devices. */
  keys: {
    project: string;
    imported: number[];
    wrapped: { user: string; device: string; versions: number[] }[];
    /** Devices new to this machine for a member it pinned: not wrapped for until confirmed. */
    held?: HeldDevice[];
  }[];
  /** A person's approvals and rejections of quarantined memories recorded in the team's audit log. */
  reviews: number;
}

export const emptyReport = (): SyncReport => ({
  projects: 0,
  pushed: { accepted: 0, duplicate: 0, conflict: 0, gone: 0, rejected: 0 },
  blocked: [],
  pulled: 0,
  applied: { created: 0, updated: 0, merged: 0, forgotten: 0, erased: 0, unchanged: 0, skipped: 0 },
  conflicts: 0,
  epochReset: false,
  readOnly: [],
  errors: [],
  moved: [],
  unreadable: 0,
  keys: [],
  reviews: 0,
});

/** Offer everything of a project to the team (share, and after a server reset). */
export function enqueueProject(store: Store, projectId: string, at: number): number {
  const all = store.team.entitiesOf(projectId);
  for (const e of all) store.team.enqueue(e.entity, e.entityId, projectId, at);
  return all.length;
}

const EPOCH_KEY = 'epoch';

export class EpochChanged extends Error {}

/** Record the server's epoch; a different one than before starts every shared project over. */
export function checkEpoch(store: Store, epoch: string, at: number, report: SyncReport): void {
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

/** team_meta's key (+ the project id) of the last change whose review decision the server recorded. */
export const REVIEW_CURSOR = 'review_seq:';

/**
 * Start a project over against the server: cursor 0, versions unknown, everything queued again, and
 * every review decision sent again (a new server's audit chain has none of them).
 */
export function restartProject(store: Store, projectId: string, at: number): void {
  store.team.setCursor(projectId, 0, at);
  store.team.setMeta(`${REVIEW_CURSOR}${projectId}`, '0');
  forgetSealedSince(store, projectId);
  store.team.forgetVersions(projectId);
  enqueueProject(store, projectId, at);
}
