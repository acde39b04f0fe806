/**
 * Project keys through the team server, wrapped per device (team/key-wrap.ts), during a sync of an
 * end-to-end encrypted project: this machine enrols its device public key in the project, opens the
 * wraps addressed to it (a key version it lacks is imported, and the project read again), and wraps
 * what is due: every version it holds for itself (so `team key status` shows what each device holds),
 * and for the devices a `create`, `rotate` or `grant` named. A rotation is wrapped for the devices
 * enrolled at that moment — a member removed from the project has none (the server drops their
 * enrolment with their role), so the new version never reaches them. Only devices trusted here are
 * wrapped for (device-pins.ts: a member's devices pinned when first seen; one that appears later waits
 * for a grant naming its id or fingerprint).
 */
import { describeError, EngramError, isEngramError } from '../core/errors.ts';
import type { Store } from '../store/store.ts';
import type { TeamApi } from '../team/api-client.ts';
import { unwrapProjectKey, wrapProjectKey, type DeviceKey } from '../team/key-wrap.ts';
import type { ProjectDevice, WrappedKey } from '../team/protocol.ts';
import type { KeyVersion } from '../team/record-seal.ts';
import { confirms, trustDevices, type HeldDevice } from './device-pins.ts';
import { importProjectKey, keyringIfOpens, keyVersionsOf, readWrapDue, setWrapDue } from './team-keys.ts';
import type { SyncReport, TeamSyncDeps } from './team-round.ts';

const ENROLLED = (projectId: string) => `e2ee_device:${projectId}`;
const SEEN = (projectId: string) => `e2ee_seen:${projectId}`;

export interface KeyExchange {
  /** Key versions received through the server and imported. */
  imported: number[];
  /** Wraps made for other devices than this one. */
  wrapped: { user: string; device: string; versions: number[] }[];
  /** Names a grant was asked for that match no enrolled device (not kept). */
  waiting: string[];
  /** Devices not wrapped for: new to this machine for a member it has pinned (device-pins.ts). */
  held: HeldDevice[];
  problems: string[];
}

/** The server said the project is end-to-end encrypted (a pull), so its key may come through it. */
export function markEncrypted(store: Store, projectId: string): void {
  if (store.team.meta(SEEN(projectId)) !== '1') store.team.setMeta(SEEN(projectId), '1');
}

/** Whether keys are exchanged for the project at a sync: it is encrypted here or on the server. */
export const exchangesKeys = (store: Store, projectId: string): boolean =>
  keyVersionsOf(store, projectId) !== null || store.team.meta(SEEN(projectId)) === '1';

const named = (d: ProjectDevice, who: string) => d.user === who || d.device === who || confirms(who, d);

/** One exchange for a project; needs this machine's device key and a login that may read it. */
export async function exchangeKeys(
  store: Store,
  api: TeamApi,
  me: DeviceKey,
  projectId: string,
  at: number,
): Promise<KeyExchange> {
  const out: KeyExchange = { imported: [], wrapped: [], waiting: [], held: [], problems: [] };
  if (!enrolledHere(store, me, projectId)) await enrol(store, api, me, projectId);
  let keys = await api.projectKeys(projectId, me.id);
  if (!keys.devices.some((d) => d.id === me.id)) {
    // Enrolled on another server, or dropped (a role taken and given back): enrol again.
    await enrol(store, api, me, projectId);
    keys = await api.projectKeys(projectId, me.id);
  }
  const devices = new Map(keys.devices.map((d) => [d.id, d]));
  const received: KeyVersion[] = [];
  for (const w of keys.wraps) {
    if (w.project !== projectId || w.to !== me.id) continue;
    const sender = devices.get(w.from);
    const key = sender ? unwrapProjectKey(me, sender, w) : null;
    if (key) received.push({ version: w.version, key });
    else
      out.problems.push(
        `the project key version ${w.version} wrapped for this machine by ${sender ? `${sender.user}'s ${sender.device}` : `device ${w.from}`} does not open (altered on the server, or not made for this device): refused`,
      );
  }
  // A keyring wrapped for a device this machine no longer has holds nothing usable: a wrap received replaces it.
  const held = new Set(keyringIfOpens(store, projectId)?.versions.map((v) => v.version) ?? []);
  const fresh = received.filter((v) => !held.has(v.version));
  const conflicting = received.filter((v) => held.has(v.version));
  try {
    // Versions held here are checked too: a wrap of other bytes for one of them is refused loudly.
    if (conflicting.length > 0) importProjectKey(store, { projectId, versions: conflicting }, at);
    if (fresh.length > 0) out.imported = importProjectKey(store, { projectId, versions: fresh }, at).added;
  } catch (error) {
    out.problems.push(describeError(error));
  }
  await wrapWhatIsDue(store, api, me, projectId, keys.devices, out, at);
  return out;
}

/** Enrolled in the project on this server (a new server epoch enrols again). */
const enrolledHere = (store: Store, me: DeviceKey, projectId: string) =>
  store.team.meta(ENROLLED(projectId)) === `${me.id}@${store.team.meta('epoch') ?? ''}`;

async function enrol(store: Store, api: TeamApi, me: DeviceKey, projectId: string): Promise<void> {
  const id = await api.enrolDevice(projectId, me.publicKey);
  if (id !== me.id)
    throw new EngramError('REMOTE_FAILED', `the team server named this device ${id}, not ${me.id}`);
  store.team.setMeta(ENROLLED(projectId), `${me.id}@${store.team.meta('epoch') ?? ''}`);
}

/**
 * Enrol this machine's device in a shared project once (any project, encrypted or not yet), so a
 * member who creates or rotates its key wraps it for this machine too. A failure is only logged: the
 * project syncs as before, and the enrolment is tried again at the next sync.
 */
export async function enrolOnce(deps: TeamSyncDeps, projectId: string): Promise<void> {
  if (!deps.deviceKey) return;
  try {
    const me = deps.deviceKey();
    if (!enrolledHere(deps.store, me, projectId)) await enrol(deps.store, deps.api, me, projectId);
  } catch (error) {
    if (isEngramError(error, 'NOT_FOUND') && /no route/.test(describeError(error))) return;
    deps.logger.warn('could not enrol this device in a shared project; tried again at the next sync', {
      project: projectId,
      error: describeError(error),
    });
  }
}

async function wrapWhatIsDue(
  store: Store,
  api: TeamApi,
  me: DeviceKey,
  projectId: string,
  devices: readonly ProjectDevice[],
  out: KeyExchange,
  at: number,
): Promise<void> {
  const ring = keyringIfOpens(store, projectId);
  if (!ring) return;
  const due = readWrapDue(store, projectId);
  const { trusted, held } = trustDevices(store, devices, me.id, due.who, at);
  const wraps: WrappedKey[] = [];
  for (const d of devices) {
    if (d.id !== me.id && !due.all && !due.who.some((w) => named(d, w))) continue;
    if (!trusted.has(d.id)) continue; // held: said below, wrapped once confirmed
    const missing = ring.versions.filter((v) => !d.versions.includes(v.version));
    for (const v of missing) wraps.push(wrapProjectKey(me, d, projectId, v.version, v.key));
    if (d.id !== me.id && missing.length > 0)
      out.wrapped.push({ user: d.user, device: d.device, versions: missing.map((v) => v.version) });
  }
  for (let i = 0; i < wraps.length; i += 500) await api.putWraps(projectId, wraps.slice(i, i + 500));
  out.waiting = due.who.filter((w) => !devices.some((d) => named(d, w)));
  out.held = held;
  // Done (a name that matched no device is not kept: a typo would wait forever; grant again later).
  setWrapDue(store, projectId, { all: false, who: [] });
}

/**
 * The exchange within a sync: what it received and wrapped goes in the report, and what went wrong is
 * returned as the project's problems (the push and pull still run). A server without these routes (an
 * older engram) exchanges nothing: keys go by hand, `team key export` / `import`.
 */
export async function runKeyExchange(
  deps: TeamSyncDeps,
  projectId: string,
  report: SyncReport,
): Promise<string[]> {
  if (!deps.deviceKey) return [];
  try {
    const x = await exchangeKeys(deps.store, deps.api, deps.deviceKey(), projectId, deps.clock.now());
    report.keys.push({
      project: projectId,
      imported: x.imported,
      wrapped: x.wrapped,
      ...(x.held.length > 0 ? { held: x.held } : {}),
    });
    return x.problems;
  } catch (error) {
    if (isEngramError(error, 'NOT_FOUND') && /no route/.test(describeError(error))) return [];
    return [`project key exchange: ${describeError(error)}`];
  }
}
