/**
 * `engram team key create | export | import | rotate | grant | status`: the key of an end-to-end
 * encrypted project on this machine (worker/team-keys.ts). It reaches members' devices wrapped for each
 * (team-key-devices.ts: the server keeps only wraps it cannot open), or as the line `export` prints,
 * handed over out of band; the team server never sees the key itself.
 */
import { readFileSync } from 'node:fs';
import { resolveProject } from '../../../capture/project-identity.ts';
import { EngramError } from '../../../core/errors.ts';
import type { Project } from '../../../core/model.ts';
import { exportKeyring, parseKeyring, type Keyring } from '../../../team/record-seal.ts';
import {
  createProjectKey,
  importProjectKey,
  keyringIfOpens,
  keyringOf,
  keyVersionsOf,
  rotateProjectKey,
} from '../../../worker/team-keys.ts';
import { printJson, withStore, type CliContext } from '../context.ts';
import { deviceStatus, grantKey, printDevices } from './team-key-devices.ts';
import { pinStateOf, readPins } from '../../../worker/device-pins.ts';
import type { ProjectDevice } from '../../../team/protocol.ts';

export interface TeamKeyFlags {
  json: boolean;
  cwd: string;
}

const USAGE = 'engram team key create | export | import [LINE] | rotate | grant <member|device> | status';

const versionsOf = (ring: Keyring) => ring.versions.map((v) => v.version).sort((a, b) => a - b);

export async function teamKeyCommand(ctx: CliContext, args: string[], flags: TeamKeyFlags): Promise<number> {
  const [action, line] = args;
  const project = resolveProject(flags.cwd, ctx.runtime.projectLinks);
  switch (action) {
    case 'create':
      return created(
        ctx,
        project,
        flags,
        withStore(ctx, (store) => createProjectKey(store, project.id, ctx.now())),
      );
    case 'export':
      return exported(ctx, project, flags);
    case 'import':
      return imported(ctx, project, line, flags);
    case 'rotate': {
      const ring = withStore(ctx, (store) => rotateProjectKey(store, project.id, ctx.now()));
      if (flags.json)
        printJson(ctx, { project: project.id, versions: versionsOf(ring), key: exportKeyring(ring) });
      else
        ctx.io.out(
          `${project.name}: key version ${Math.max(...versionsOf(ring))} made; new pushes use it, and everything ` +
            'this machine holds of the project is sealed again under it at the next sync.\n' +
            'That sync wraps it for every device enrolled in the project on the team server — a member removed ' +
            'from the project first has none, and never receives it.\n' +
            'Without the server (out of band), hand this line to every member who keeps reading (not to anyone removed):\n' +
            `${exportKeyring(ring)}\n`,
        );
      return 0;
    }
    case 'grant':
      return grantKey(ctx, project, line, flags);
    case 'status': {
      const [versions, opens, pins] = withStore(ctx, (store) => [
        keyVersionsOf(store, project.id),
        keyringIfOpens(store, project.id) !== null,
        readPins(store),
      ]);
      const devices = await deviceStatus(ctx, project);
      const pinOf = (d: ProjectDevice) => pinStateOf(pins, d);
      if (flags.json)
        printJson(ctx, {
          project: project.id,
          encrypted: versions !== null,
          versions: versions ?? [],
          opens,
          device: devices.me,
          devices:
            devices.devices?.map((d) => ({ ...d, pin: d.id === devices.me ? 'self' : pinOf(d) })) ?? null,
        });
      else {
        ctx.io.out(
          versions === null
            ? `${project.name}: no project key on this machine (shared in the clear, or its key not received yet)\n`
            : opens
              ? `${project.name}: end-to-end encrypted here, key versions ${versions.join(', ')}\n`
              : `${project.name}: key versions ${versions.join(', ')} are wrapped for another device, not this one's: ` +
                'take the key again ("engram team key import", or a member\'s "engram team key grant <you>" and "engram team sync")\n',
        );
        printDevices(ctx, devices, pinOf);
      }
      return 0;
    }
    default:
      throw new EngramError('INPUT_INVALID', action ? `unknown key action "${action}"` : `usage: ${USAGE}`, {
        hint: `Use: ${USAGE}`,
      });
  }
}

/** After `key create` (or `share --encrypt`): the line to hand over, and what to tell teammates. */
export function created(ctx: CliContext, project: Project, flags: { json: boolean }, ring: Keyring): number {
  const key = exportKeyring(ring);
  if (flags.json) printJson(ctx, { project: project.id, versions: versionsOf(ring), key });
  else
    ctx.io.out(
      `${project.name} is end-to-end encrypted from this machine on: the team server keeps only ciphertext of its ` +
        'memories, summaries, links and project state.\n' +
        "The next sync wraps the key for every device enrolled in the project on the team server (each member's " +
        'machine enrols at its first sync of it); a member who joins later gets it with "engram team key grant NAME".\n' +
        'Without the server (out of band: a password manager, in person), hand this line to a teammate:\n' +
        `${key}\n` +
        'They run "engram team key import" in their clone and paste it. Keep a copy: without the key nobody can ' +
        "read the project's records, and the server cannot recover it.\n",
    );
  return 0;
}

function exported(ctx: CliContext, project: Project, flags: TeamKeyFlags): number {
  const ring = withStore(ctx, (store) => keyringOf(store, project.id));
  if (!ring)
    throw new EngramError('NOT_FOUND', `no key for ${project.name} on this machine`, {
      hint: 'Create one with "engram team key create", or import the team\'s with "engram team key import".',
    });
  if (flags.json)
    printJson(ctx, { project: project.id, versions: versionsOf(ring), key: exportKeyring(ring) });
  else ctx.io.out(`${exportKeyring(ring)}\n`);
  return 0;
}

function imported(ctx: CliContext, project: Project, given: string | undefined, flags: TeamKeyFlags): number {
  // From stdin when not given (so the key stays out of the shell's history).
  const text = given ?? readFileSync(0, 'utf8');
  const ring = parseKeyring(text);
  if (ring.projectId !== project.id)
    throw new EngramError(
      'INPUT_INVALID',
      `this key is for project ${ring.projectId}, and ${flags.cwd} is project ${project.id} (${project.name})`,
      { hint: 'Run it in a clone of the project the key was exported from (or pass --cwd DIR).' },
    );
  const { added } = withStore(ctx, (store) => importProjectKey(store, ring, ctx.now()));
  if (flags.json) printJson(ctx, { project: project.id, added });
  else
    ctx.io.out(
      added.length === 0
        ? `${project.name}: this machine holds every version of that key already\n`
        : `${project.name}: key version${added.length > 1 ? 's' : ''} ${added.join(', ')} imported; the next sync ` +
            'reads the project again from its start and sends what waited here sealed\n',
    );
  return 0;
}
