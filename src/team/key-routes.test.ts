/**
 * The server's rules for device keys and wraps, against a real PostgreSQL: who may enrol, who may
 * wrap for whom, what a member is handed, and enrolments ended by a revoked token.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startTestPostgres,
  startTestTeamServer,
  type TestPostgres,
  type TestTeamServer,
} from '../../test/support/team-postgres.ts';
import { isEngramError } from '../core/errors.ts';
import { projectIdFromKey } from '../core/ids.ts';
import { createTeamApi, type TeamApi } from './api-client.ts';
import { deviceKeyFromPem, newDeviceKeyPem, wrapProjectKey, type DeviceKey } from './key-wrap.ts';
import { newKey } from './record-seal.ts';

const REMOTE = 'git@github.com:acme/mill.git';
const PROJECT = projectIdFromKey('git:github.com/acme/mill');
let pg: TestPostgres;
let server: TestTeamServer;

const admin = () => createTeamApi({ server: server.url, token: server.adminToken });
async function user(
  name: string,
  member: boolean,
): Promise<{ api: TeamApi; key: DeviceKey; tokenId: string }> {
  const { token, tokenId } = await admin().addUser({ name, device: `${name}-pc` });
  if (member) await admin().grant({ user: name, project: REMOTE, role: 'reader' });
  return {
    api: createTeamApi({ server: server.url, token }),
    key: deviceKeyFromPem(newDeviceKeyPem()),
    tokenId,
  };
}
const code = (c: string) => (e: unknown) => isEngramError(e, c as never);

beforeAll(async () => {
  pg = await startTestPostgres();
  server = await startTestTeamServer(pg);
}, 120_000);
afterAll(async () => {
  await server?.close();
  await pg?.stop();
});

describe('device keys and wraps on the team server', () => {
  it('enrols members only, wraps only from their own devices, hands out only their own wraps', async () => {
    const ann = await user('ann', true);
    const ben = await user('ben', true);
    const eve = await user('eve', false);
    expect(await ann.api.enrolDevice(PROJECT, ann.key.publicKey)).toBe(ann.key.id);
    expect(await ben.api.enrolDevice(PROJECT, ben.key.publicKey)).toBe(ben.key.id);
    // Not a member: no enrolment, no list, no wraps.
    await expect(eve.api.enrolDevice(PROJECT, eve.key.publicKey)).rejects.toSatisfy(code('FORBIDDEN'));
    await expect(eve.api.projectKeys(PROJECT)).rejects.toSatisfy(code('FORBIDDEN'));
    // Nobody enrols someone else's device key.
    await expect(ben.api.enrolDevice(PROJECT, ann.key.publicKey)).rejects.toSatisfy(code('CONFLICT'));

    const key = newKey();
    // ben may not send a wrap that names ann's device as its sender, nor wrap for a device not enrolled.
    const forged = wrapProjectKey(ann.key, ben.key, PROJECT, 1, key);
    await expect(ben.api.putWraps(PROJECT, [forged])).rejects.toSatisfy(code('FORBIDDEN'));
    const stray = wrapProjectKey(ann.key, eve.key, PROJECT, 1, key);
    await expect(ann.api.putWraps(PROJECT, [stray])).rejects.toSatisfy(code('NOT_FOUND'));
    const misplaced = wrapProjectKey(ann.key, ben.key, 'prj_0000000000000001', 1, key);
    await expect(ann.api.putWraps(PROJECT, [misplaced])).rejects.toSatisfy(code('INPUT_INVALID'));

    expect(
      (await ann.api.putWraps(PROJECT, [wrapProjectKey(ann.key, ben.key, PROJECT, 1, key)])).stored,
    ).toBe(1);
    expect((await ben.api.projectKeys(PROJECT, ben.key.id)).wraps.map((w) => w.to)).toEqual([ben.key.id]);
    // ann lists the devices and versions, but is never handed ben's wrap, even asking for his device.
    const seen = await ann.api.projectKeys(PROJECT, ben.key.id);
    expect(seen.wraps).toEqual([]);
    expect(seen.devices.map((d) => [d.user, d.versions])).toEqual([
      ['ann', []],
      ['ben', [1]],
    ]);
  });

  it('a revoked token ends its device enrolment and the wraps for it', async () => {
    const cal = await user('cal', true);
    const ann = admin();
    await cal.api.enrolDevice(PROJECT, cal.key.publicKey);
    await cal.api.putWraps(PROJECT, [wrapProjectKey(cal.key, cal.key, PROJECT, 1, newKey())]);
    const before = await pg.query(server.databaseUrl, 'SELECT 1 FROM project_devices WHERE device_id = $1', [
      cal.key.id,
    ]);
    expect(before.rows.length).toBe(1);
    await ann.revokeToken(cal.tokenId);
    const after = await pg.query(server.databaseUrl, 'SELECT 1 FROM project_devices WHERE device_id = $1', [
      cal.key.id,
    ]);
    expect(after.rows).toEqual([]);
    const wraps = await pg.query(server.databaseUrl, 'SELECT 1 FROM key_wraps WHERE device_id = $1', [
      cal.key.id,
    ]);
    expect(wraps.rows).toEqual([]);
  });
});
