/**
 * The server's side of keys wrapped per device (migration 0007): devices enrolled in a project, and
 * the wraps members made for them. The server checks who may enrol and wrap and hands each member only
 * the wraps addressed to their own devices; it never sees a project key or a private key, and cannot
 * open a wrap. Row-level security applies to every statement (the tenant's transaction).
 */
import { EngramError } from '../core/errors.ts';
import type { Tx } from './database.ts';
import { deviceIdOf } from './key-wrap.ts';
import type { Principal } from './principal.ts';
import type { ProjectKeysResponse, WrappedKey } from './protocol.ts';

const noAccess = (projectId: string) =>
  new EngramError('FORBIDDEN', `no access to project ${projectId}`, {
    hint: 'A project admin or server admin grants roles: engram team admin grant.',
  });

async function canRead(tx: Tx, projectId: string): Promise<boolean> {
  const r = await tx.query(`SELECT 1 FROM projects WHERE id = $1 AND engram_can(id, 'read')`, [projectId]);
  return r.rowCount === 1;
}

/** Enrol the caller's device (its public key) in a project it may read; its id is derived here. */
export async function enrolDevice(
  tx: Tx,
  who: Principal,
  projectId: string,
  publicKey: string,
  at: number,
): Promise<string> {
  if (!(await canRead(tx, projectId))) throw noAccess(projectId);
  const id = deviceIdOf(publicKey);
  const taken = await tx.query<{ user_id: string }>(
    'SELECT user_id FROM project_devices WHERE project_id = $1 AND device_id = $2',
    [projectId, id],
  );
  if (taken.rows[0] && taken.rows[0].user_id !== who.userId)
    throw new EngramError('CONFLICT', `device ${id} is enrolled in ${projectId} by another user`);
  await tx.query(
    `INSERT INTO project_devices (project_id, device_id, user_id, user_name, token_id, device, public_key, enrolled_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
     ON CONFLICT (project_id, device_id) DO UPDATE SET token_id = excluded.token_id, device = excluded.device,
       user_name = excluded.user_name`,
    [projectId, id, who.userId, who.userName, who.tokenId, who.device, publicKey, at],
  );
  return id;
}

/**
 * The project's enrolled devices with the key versions wrapped for each, and the wraps for `device`
 * when it is one of the caller's own (anyone else's are never handed out).
 */
export async function projectKeys(
  tx: Tx,
  who: Principal,
  projectId: string,
  device: string | null,
): Promise<ProjectKeysResponse> {
  if (!(await canRead(tx, projectId))) throw noAccess(projectId);
  const devices = await tx.query<{
    device_id: string;
    user_id: string;
    user_name: string;
    device: string;
    public_key: string;
    enrolled_at: string;
    versions: number[] | null;
  }>(
    `SELECT d.device_id, d.user_id, d.user_name, d.device, d.public_key, d.enrolled_at,
            (SELECT array_agg(w.key_version ORDER BY w.key_version) FROM key_wraps w
              WHERE w.project_id = d.project_id AND w.device_id = d.device_id) AS versions
       FROM project_devices d WHERE d.project_id = $1 ORDER BY d.user_name, d.device, d.device_id`,
    [projectId],
  );
  const mine = devices.rows.find((d) => d.device_id === device && d.user_id === who.userId);
  const wraps = mine
    ? (
        await tx.query<{ wrap: WrappedKey }>(
          `SELECT wrap FROM key_wraps WHERE project_id = $1 AND device_id = $2 AND recipient_id = $3
            ORDER BY key_version`,
          [projectId, mine.device_id, who.userId],
        )
      ).rows.map((r) => r.wrap)
    : [];
  return {
    devices: devices.rows.map((d) => ({
      id: d.device_id,
      user: d.user_name,
      device: d.device,
      publicKey: d.public_key,
      versions: d.versions ?? [],
      enrolledAt: Number(d.enrolled_at),
    })),
    wraps,
  };
}

/**
 * Keep wraps a member made: each for a device enrolled in the project, from a device of the caller's
 * enrolled there too (a wrap names its sender, and the recipient opens it only with that device's
 * public key). A wrap for the same device and version replaces the earlier one.
 */
export async function putWraps(
  tx: Tx,
  who: Principal,
  projectId: string,
  wraps: readonly WrappedKey[],
  at: number,
): Promise<number> {
  if (!(await canRead(tx, projectId))) throw noAccess(projectId);
  const enrolled = await tx.query<{ device_id: string; user_id: string }>(
    'SELECT device_id, user_id FROM project_devices WHERE project_id = $1',
    [projectId],
  );
  const owner = new Map(enrolled.rows.map((r) => [r.device_id, r.user_id]));
  for (const w of wraps) {
    if (w.project !== projectId)
      throw new EngramError('INPUT_INVALID', `a wrap for project ${w.project} was sent to ${projectId}`);
    if (owner.get(w.from) !== who.userId)
      throw new EngramError('FORBIDDEN', `device ${w.from} is not one of yours enrolled in ${projectId}`, {
        hint: 'Sync once ("engram team sync"): it enrols this machine\'s device in the project.',
      });
    const recipient = owner.get(w.to);
    if (!recipient)
      throw new EngramError('NOT_FOUND', `device ${w.to} is not enrolled in ${projectId}`, {
        hint: 'A member\'s machine enrols itself at its next "engram team sync" of the project.',
      });
    await tx.query(
      `INSERT INTO key_wraps (project_id, key_version, device_id, recipient_id, sender_device, wrapped_by, wrap, at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (project_id, key_version, device_id) DO UPDATE SET sender_device = excluded.sender_device,
         wrapped_by = excluded.wrapped_by, wrap = excluded.wrap, at = excluded.at`,
      [projectId, w.version, w.to, recipient, w.from, who.userId, JSON.stringify(w), at],
    );
  }
  return wraps.length;
}
