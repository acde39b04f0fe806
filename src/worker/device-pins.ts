/**
 * Trust on first use for members' device keys. The team server vouches for which public key is whose,
 * so a server could enrol a device of its own under a member's name and be handed the project key. This
 * machine pins the devices it first sees for each member (all of a member's devices enrolled when a key
 * exchange first lists that member); a device that shows up later for a member with pins — a new
 * machine, or a new key under a device name already pinned — is held: no key is wrapped for it until
 * someone here confirms it by its id or fingerprint (`engram team key grant dk_…`), having compared the
 * fingerprint with the member out of band. Pins are this machine's, for every project and server.
 */
import type { Store } from '../store/store.ts';
import { fingerprintOf } from '../team/key-wrap.ts';
import type { ProjectDevice } from '../team/protocol.ts';

const PINS = 'e2ee_pins';

interface Pin {
  device: string;
  at: number;
}
/** Member name → device id → the device's name when pinned. */
type Pins = Record<string, Record<string, Pin>>;

/**
 * `pinned`: trusted here. `first`: a member not seen before (pinned at the next exchange). `new`: a
 * device of a member with pins, not confirmed. `changed`: a new key under a device name pinned with
 * another key.
 */
export type PinState = 'pinned' | 'first' | 'new' | 'changed';

export interface HeldDevice {
  user: string;
  device: string;
  id: string;
  fingerprint: string;
  state: 'new' | 'changed';
}

export function readPins(store: Store): Pins {
  const raw = store.team.meta(PINS);
  return raw ? (JSON.parse(raw) as Pins) : {};
}

export function pinStateOf(pins: Pins, d: ProjectDevice): PinState {
  const mine = pins[d.user];
  if (!mine) return 'first';
  if (mine[d.id]) return 'pinned';
  return Object.values(mine).some((p) => p.device === d.device) ? 'changed' : 'new';
}

/** Whether `who` (a grant's argument) names exactly this device: its id or its fingerprint. */
export const confirms = (who: string, d: ProjectDevice): boolean =>
  who === d.id || who === fingerprintOf(d.id);

/**
 * Pin what is trusted among `devices` — members seen for the first time, devices confirmed by `who` —
 * and return the ids that may be wrapped for, with the devices held.
 */
export function trustDevices(
  store: Store,
  devices: readonly ProjectDevice[],
  selfId: string,
  who: readonly string[],
  at: number,
): { trusted: Set<string>; held: HeldDevice[] } {
  const pins = readPins(store);
  const first = new Set(devices.filter((d) => pinStateOf(pins, d) === 'first').map((d) => d.user));
  const trusted = new Set<string>([selfId]);
  const held: HeldDevice[] = [];
  let changed = false;
  for (const d of devices) {
    if (d.id === selfId) continue;
    const state = pinStateOf(pins, d);
    if (state === 'pinned') {
      trusted.add(d.id);
      continue;
    }
    if (first.has(d.user) || who.some((w) => confirms(w, d))) {
      pins[d.user] = { ...pins[d.user], [d.id]: { device: d.device, at } };
      trusted.add(d.id);
      changed = true;
      continue;
    }
    if (state === 'new' || state === 'changed')
      held.push({ user: d.user, device: d.device, id: d.id, fingerprint: fingerprintOf(d.id), state });
  }
  if (changed) store.team.setMeta(PINS, JSON.stringify(pins));
  return { trusted, held };
}
