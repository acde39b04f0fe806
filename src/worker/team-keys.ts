/**
 * The keys of this machine's end-to-end encrypted team projects: one keyring per project (every key
 * version held, the highest sealing new records), kept in the store's team_meta beside the rest of the
 * team bookkeeping, each version wrapped for this machine's device key (keyring-at-rest.ts). Creating or rotating a key queues everything of the project again, so the server's
 * copy of each record is sealed under the newest key; importing one pulls the project again from the
 * start, so records that could not be read before are read now. A new or rotated key is wrapped for the
 * project's enrolled devices at the next sync (team-key-exchange.ts).
 */
import { EngramError, isEngramError } from '../core/errors.ts';
import type { Store } from '../store/store.ts';
import { currentVersion, newKey, type Keyring } from '../team/record-seal.ts';
import {
  deviceKeyToSeal,
  isClear,
  openVersions,
  RING_PREFIX,
  sealKeyringsAtRest,
  sealVersions,
  type StoredRing,
} from './keyring-at-rest.ts';
import { enqueueProject } from './team-round.ts';

const RING_KEY = (projectId: string) => `${RING_PREFIX}${projectId}`;
const DUE_KEY = (projectId: string) => `e2ee_wrap_due:${projectId}`;

/** Whom the next key exchange (team-key-exchange.ts) wraps the key for: every enrolled device, or those named. */
export interface WrapDue {
  all: boolean;
  /** Member names, device names or device ids. */
  who: string[];
}

export function readWrapDue(store: Store, projectId: string): WrapDue {
  const raw = store.team.meta(DUE_KEY(projectId));
  return raw ? (JSON.parse(raw) as WrapDue) : { all: false, who: [] };
}

export function setWrapDue(store: Store, projectId: string, due: WrapDue): void {
  store.team.setMeta(DUE_KEY(projectId), due.all || due.who.length > 0 ? JSON.stringify(due) : '');
}

/** Wrap the key at the next exchange for every enrolled device (create, rotate) or for one member or device. */
export function wrapDue(store: Store, projectId: string, who: 'all' | string): void {
  const due = readWrapDue(store, projectId);
  setWrapDue(
    store,
    projectId,
    who === 'all' ? { all: true, who: due.who } : { all: due.all, who: [...new Set([...due.who, who])] },
  );
}

/** Rings opened in this process, by store and project, while their stored text is unchanged. */
const opened = new WeakMap<Store, Map<string, { raw: string; ring: Keyring }>>();

const storedRing = (store: Store, projectId: string): { raw: string; stored: StoredRing } | null => {
  const raw = store.team.meta(RING_KEY(projectId));
  if (!raw) return null;
  const stored = JSON.parse(raw) as StoredRing;
  return stored.versions.length === 0 ? null : { raw, stored };
};

/**
 * The project's keyring, or null when the project is not end-to-end encrypted here. Opening it takes
 * this machine's device key (keyring-at-rest.ts): a keyring wrapped for another device, or with the
 * device key gone, throws KEY_MISSING — never null, so nothing is sent in the clear for want of it.
 */
export function keyringOf(store: Store, projectId: string): Keyring | null {
  const found = storedRing(store, projectId);
  if (!found) return null;
  const cache = opened.get(store) ?? new Map<string, { raw: string; ring: Keyring }>();
  opened.set(store, cache);
  const hit = cache.get(projectId);
  if (hit && hit.raw === found.raw) return hit.ring;
  const ring = openVersions(store, projectId, found.stored);
  if (isClear(found.stored)) sealKeyringsAtRest(store);
  cache.set(projectId, { raw: store.team.meta(RING_KEY(projectId)) ?? found.raw, ring });
  return ring;
}

/** The key versions held here, without opening them (null: the project is not encrypted here). */
export function keyVersionsOf(store: Store, projectId: string): number[] | null {
  return storedRing(store, projectId)?.stored.versions.map((v) => v.v) ?? null;
}

function saveKeyring(store: Store, ring: Keyring, at: number): void {
  const before = storedRing(store, ring.projectId)?.stored ?? { versions: [] };
  const sealed = sealVersions(deviceKeyToSeal(store), ring.projectId, ring, before, at);
  store.team.setMeta(RING_KEY(ring.projectId), JSON.stringify(sealed));
}

/** The held keyring, or null when there is none or it is wrapped for a device this machine no longer has. */
export function keyringIfOpens(store: Store, projectId: string): Keyring | null {
  try {
    return keyringOf(store, projectId);
  } catch (error) {
    if (isEngramError(error, 'KEY_MISSING')) return null;
    throw error;
  }
}

/** Start encrypting a project: a new random key (version 1); what is shared is sealed and sent again. */
export function createProjectKey(store: Store, projectId: string, at: number): Keyring {
  return store.transaction(() => {
    if (keyVersionsOf(store, projectId))
      throw new EngramError('CONFLICT', `project ${projectId} already has a key here`, {
        hint: 'Print it with "engram team key export", or make a new version with "engram team key rotate".',
      });
    const ring: Keyring = { projectId, versions: [{ version: 1, key: newKey() }] };
    saveKeyring(store, ring, at);
    wrapDue(store, projectId, 'all');
    if (store.team.project(projectId)) enqueueProject(store, projectId, at);
    return ring;
  });
}

/** A new key version: new pushes use it, and everything this machine holds is sealed again under it. */
export function rotateProjectKey(store: Store, projectId: string, at: number): Keyring {
  return store.transaction(() => {
    const ring = keyringOf(store, projectId);
    if (!ring)
      throw new EngramError('NOT_FOUND', `project ${projectId} has no key here to rotate`, {
        hint: 'Create one with "engram team key create", or import the team\'s with "engram team key import".',
      });
    const next: Keyring = {
      projectId,
      versions: [...ring.versions, { version: currentVersion(ring).version + 1, key: newKey() }],
    };
    saveKeyring(store, next, at);
    // Wrapped at the next sync for the devices enrolled then: a member removed before has none.
    wrapDue(store, projectId, 'all');
    if (store.team.project(projectId)) enqueueProject(store, projectId, at);
    return next;
  });
}

/**
 * Take a keyring a teammate exported: versions this machine lacks are added; a version held here with
 * other key bytes is refused (one of the two is the wrong key). The project is pulled again from its
 * start, so records skipped for want of the key are read now (those already here are recognised).
 */
export function importProjectKey(store: Store, ring: Keyring, at: number): { added: number[] } {
  return store.transaction(() => {
    // A keyring wrapped for a device this machine no longer has cannot be compared: the import replaces it.
    const held = keyringIfOpens(store, ring.projectId);
    const versions = [...(held?.versions ?? [])];
    const added: number[] = [];
    for (const v of ring.versions) {
      const same = versions.find((h) => h.version === v.version);
      if (same && !same.key.equals(v.key))
        throw new EngramError(
          'CONFLICT',
          `this machine holds a different key for version ${v.version} of project ${ring.projectId}: one of them is wrong`,
          {
            hint: 'Ask whoever shared the project for its key again ("engram team key export" on their machine).',
          },
        );
      if (!same) {
        versions.push(v);
        added.push(v.version);
      }
    }
    saveKeyring(store, { projectId: ring.projectId, versions }, at);
    if (added.length > 0 && store.team.project(ring.projectId)) store.team.setCursor(ring.projectId, 0, at);
    return { added };
  });
}
