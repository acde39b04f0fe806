/**
 * A project's keyring at rest: each key version is kept in the store wrapped for this machine's own
 * device key (team/key-wrap.ts, the same wrap a teammate's device gets, addressed from this device to
 * itself), never as the key itself. The device key lives in a file beside the database
 * (`$ENGRAM_HOME/device-key.pem`, 0600), never in it, so the database file and its backups alone
 * open nothing. A keyring stored in the clear by an earlier engram is wrapped the first time it is
 * read here (and at the worker's start, `sealKeyringsAtRest`).
 */
import { dirname } from 'node:path';
import { EngramError } from '../core/errors.ts';
import { pathsFor } from '../core/paths.ts';
import { checkpointWal } from '../store/database.ts';
import type { Store } from '../store/store.ts';
import { unwrapProjectKey, wrapProjectKey, type DeviceKey } from '../team/key-wrap.ts';
import type { Keyring } from '../team/record-seal.ts';
import { loadDeviceKey, readDeviceKey } from './device-key-file.ts';

export const RING_PREFIX = 'e2ee_keyring:';

/** One key version as stored: wrapped for device `to` (`eph`, `iv`, `ct`), or `k` in the clear (before). */
export interface StoredVersion {
  v: number;
  at: number;
  k?: string;
  to?: string;
  eph?: string;
  iv?: string;
  ct?: string;
}

export interface StoredRing {
  versions: StoredVersion[];
}

/** The device key file of the ENGRAM_HOME the store's database is in (a database in memory has none). */
function deviceKeyPath(store: Store): string {
  if (store.db.memory)
    throw new EngramError(
      'KEY_MISSING',
      'a database in memory has no device key beside it to keep a project key',
    );
  return pathsFor(dirname(store.db.name)).deviceKey;
}

/** This machine's device key, made when there is none yet (a key is about to be wrapped for it). */
export const deviceKeyToSeal = (store: Store): DeviceKey => loadDeviceKey(deviceKeyPath(store));

export const isClear = (stored: StoredRing): boolean => stored.versions.some((v) => v.k !== undefined);

/** The versions wrapped for `me` (one already wrapped for it is kept as it is; one new to `before` dated `at`). */
export function sealVersions(
  me: DeviceKey,
  projectId: string,
  ring: Keyring,
  before: StoredRing,
  at: number,
): StoredRing {
  const kept = new Map(before.versions.filter((v) => v.to === me.id).map((v) => [v.v, v]));
  const since = new Map(before.versions.map((v) => [v.v, v.at]));
  return {
    versions: ring.versions
      .map((kv): StoredVersion => {
        const old = kept.get(kv.version);
        if (old) return old;
        const w = wrapProjectKey(me, me, projectId, kv.version, kv.key);
        return { v: kv.version, at: since.get(kv.version) ?? at, to: me.id, eph: w.eph, iv: w.iv, ct: w.ct };
      })
      .sort((a, b) => a.v - b.v),
  };
}

const lockedError = (projectId: string, device: string, here: string | null): EngramError =>
  new EngramError(
    'KEY_MISSING',
    here === null
      ? `the key of project ${projectId} is wrapped for device ${device}, and this machine has no device key ($ENGRAM_HOME/device-key.pem is missing)`
      : `the key of project ${projectId} is wrapped for another device (${device}; this machine's is ${here})`,
    {
      hint: 'Take the key again: "engram team key import" with the line a teammate prints ("engram team key export"), or ask a member to run "engram team key grant <your name>" and then "engram team sync".',
    },
  );

/** Open a stored keyring; throws KEY_MISSING when it is wrapped for a device this machine does not have. */
export function openVersions(store: Store, projectId: string, stored: StoredRing): Keyring {
  let me: DeviceKey | null | undefined;
  const versions = stored.versions.map((v) => {
    if (v.k !== undefined) return { version: v.v, key: Buffer.from(v.k, 'base64url') };
    me ??= readDeviceKey(deviceKeyPath(store));
    const to = v.to ?? '';
    const key =
      me && me.id === to
        ? unwrapProjectKey(me, me, {
            project: projectId,
            version: v.v,
            to,
            from: to,
            eph: v.eph ?? '',
            iv: v.iv ?? '',
            ct: v.ct ?? '',
          })
        : null;
    if (!key) throw lockedError(projectId, to, me?.id ?? null);
    return { version: v.v, key };
  });
  return { projectId, versions };
}

/**
 * Wrap every keyring still stored in the clear (an earlier engram's), then (outside a transaction)
 * move the write-ahead log into the database, so the old rows' pages (zeroed on rewrite:
 * secure_delete) replace those holding the keys. Returns the projects whose keyrings were wrapped.
 */
export function sealKeyringsAtRest(store: Store): string[] {
  const clear = store.team
    .metaWithPrefix(RING_PREFIX)
    .filter((m) => isClear(JSON.parse(m.value) as StoredRing));
  if (clear.length === 0) return [];
  const me = deviceKeyToSeal(store);
  const sealed = store.transaction(() =>
    clear.map(({ key }) => {
      const raw = store.team.meta(key);
      const projectId = key.slice(RING_PREFIX.length);
      if (!raw) return projectId;
      const stored = JSON.parse(raw) as StoredRing;
      const ring = openVersions(store, projectId, stored);
      store.team.setMeta(key, JSON.stringify(sealVersions(me, projectId, ring, stored, 0)));
      return projectId;
    }),
  );
  if (!store.db.inTransaction) checkpointWal(store.db);
  return sealed;
}
