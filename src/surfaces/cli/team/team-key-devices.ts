/**
 * `engram team key grant <member|device>` and the devices part of `engram team key status`: the
 * project key wrapped for members' devices through the team server (worker/team-key-exchange.ts).
 * The server lists each enrolled device's public key and the key versions wrapped for it; it never
 * sees a key. Fingerprints let members compare devices out of band.
 */
import { EngramError } from '../../../core/errors.ts';
import type { Project } from '../../../core/model.ts';
import { fingerprintOf } from '../../../team/key-wrap.ts';
import type { ProjectDevice } from '../../../team/protocol.ts';
import { loadDeviceKey, readDeviceKey } from '../../../worker/device-key-file.ts';
import type { HeldDevice, PinState } from '../../../worker/device-pins.ts';
import { exchangeKeys, type KeyExchange } from '../../../worker/team-key-exchange.ts';
import { keyringOf, wrapDue } from '../../../worker/team-keys.ts';
import { printJson, type CliContext } from '../context.ts';
import { teamApiFor } from './team-api.ts';
import { readTeamCredentials, requireTeamCredentials } from './team-credentials.ts';

async function withStoreAsync<T>(
  ctx: CliContext,
  fn: (store: ReturnType<CliContext['openStore']>) => Promise<T>,
): Promise<T> {
  const store = ctx.openStore();
  try {
    return await fn(store);
  } finally {
    store.close();
  }
}

/** Wrap every key version this machine holds for the devices of a member (or one device), now. */
export async function grantKey(
  ctx: CliContext,
  project: Project,
  who: string | undefined,
  flags: { json: boolean },
): Promise<number> {
  if (!who)
    throw new EngramError('INPUT_INVALID', 'usage: engram team key grant <member|device>', {
      hint: 'Name a member (their user name on the team server) or a device (its name or dk_ id from "engram team key status").',
    });
  const creds = requireTeamCredentials(ctx.runtime.paths.teamCredentials);
  const api = teamApiFor(creds, ctx.runtime.config['team.timeoutMs']);
  const me = loadDeviceKey(ctx.runtime.paths.deviceKey);
  const x: KeyExchange = await withStoreAsync(ctx, async (store) => {
    if (!keyringOf(store, project.id))
      throw new EngramError('NOT_FOUND', `no key for ${project.name} on this machine to grant`, {
        hint: 'Only a machine that holds the project key can wrap it: run this there.',
      });
    if (!store.team.project(project.id))
      throw new EngramError('NOT_FOUND', `${project.name} is not shared from this machine`, {
        hint: 'Share it first: engram team share --encrypt',
      });
    wrapDue(store, project.id, who);
    return exchangeKeys(store, api, me, project.id, ctx.now());
  });
  if (flags.json) printJson(ctx, { project: project.id, ...x });
  else {
    for (const w of x.wrapped)
      ctx.io.out(
        `${project.name}: key version ${w.versions.join(', ')} wrapped for ${w.user}'s ${w.device}; it reads the project at its next sync\n`,
      );
    for (const h of x.held) ctx.io.out(`${heldLine(h)}\n`);
    if (x.wrapped.length === 0 && x.waiting.length === 0 && x.held.length === 0)
      ctx.io.out(
        `${project.name}: every device of ${who} holds every key version this machine has already\n`,
      );
    for (const w of x.waiting)
      ctx.io.out(
        `${project.name}: no device of ${w} is enrolled in the project yet. They run "engram team sync" once in ` +
          'their clone (after "engram team share"); then grant again.\n',
      );
  }
  for (const p of x.problems) ctx.io.err(`  ${p}\n`);
  return x.problems.length > 0 || x.waiting.length > 0 || x.held.length > 0 ? 1 : 0;
}

/** A device held by trust on first use (worker/device-pins.ts), and how to confirm it. */
export const heldLine = (h: HeldDevice): string =>
  `${h.state === 'changed' ? `a new key for ${h.user}'s ${h.device}` : `a new device of ${h.user} (${h.device})`}, ` +
  `fingerprint ${h.fingerprint}: no key wrapped for it. Compare the fingerprint with ${h.user} out of band ` +
  `("engram team key status" on their machine); if it is theirs: engram team key grant ${h.id}`;

const pinNote = (state: PinState, d: ProjectDevice): string =>
  state === 'pinned'
    ? ' (pinned here)'
    : state === 'first'
      ? ` (first device seen of ${d.user}: pinned at the next exchange)`
      : ` (${state === 'changed' ? 'CHANGED key for this device name' : `NEW device of ${d.user}`}: not trusted here; after comparing fingerprints, engram team key grant ${d.id})`;

/** The project's enrolled devices and the versions each holds, when logged in (null otherwise). */
export async function deviceStatus(
  ctx: CliContext,
  project: Project,
): Promise<{ me: string | null; devices: ProjectDevice[] | null; error: string | null }> {
  const me = readDeviceKey(ctx.runtime.paths.deviceKey)?.id ?? null;
  const creds = readTeamCredentials(ctx.runtime.paths.teamCredentials);
  if (!creds) return { me, devices: null, error: null };
  try {
    const keys = await teamApiFor(creds, ctx.runtime.config['team.timeoutMs']).projectKeys(project.id);
    return { me, devices: keys.devices, error: null };
  } catch (error) {
    return { me, devices: null, error: (error as Error).message };
  }
}

export function printDevices(
  ctx: CliContext,
  s: { me: string | null; devices: ProjectDevice[] | null; error: string | null },
  pins: (d: ProjectDevice) => PinState,
): void {
  if (s.me) ctx.io.out(`this machine's device: ${s.me} (fingerprint ${fingerprintOf(s.me)})\n`);
  if (s.error) ctx.io.out(`devices: the team server did not answer (${s.error})\n`);
  if (!s.devices) return;
  if (s.devices.length === 0) {
    ctx.io.out(
      'no device is enrolled in the project on the team server yet (each enrols at its first sync)\n',
    );
    return;
  }
  ctx.io.out('devices enrolled on the team server (compare fingerprints with each member out of band):\n');
  for (const d of s.devices)
    ctx.io.out(
      `  ${d.user} ${d.device} ${fingerprintOf(d.id)}: ` +
        `${d.versions.length > 0 ? `holds key version ${d.versions.join(', ')}` : `no key yet (engram team key grant ${d.user})`}` +
        `${d.id === s.me ? ' (this machine)' : pinNote(pins(d), d)}\n`,
    );
}
