/**
 * Project keys wrapped per member device, through a real team server on a real PostgreSQL: each
 * machine its own ENGRAM_HOME with its own device key file; the key reaches members' devices with no
 * out-of-band step, the server's tables hold neither the key nor the plaintext, a tampered wrap is
 * refused, and a member removed before a rotation never receives the new key nor reads what follows.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startTestPostgres,
  startTestTeamServer,
  type TestPostgres,
  type TestTeamServer,
} from '../../test/support/team-postgres.ts';
import { isEngramError } from '../core/errors.ts';
import { projectIdFromKey, type ProjectId } from '../core/ids.ts';
import { createMemoryLogger, systemClock } from '../core/ports.ts';
import { openDatabase } from '../store/database.ts';
import { insertMemory } from '../store/store.test-support.ts';
import { createStore, type Store } from '../store/store.ts';
import { createTeamApi, type TeamApi } from '../team/api-client.ts';
import { deviceKeyFromPem, fingerprintOf, newDeviceKeyPem, type DeviceKey } from '../team/key-wrap.ts';
import { sealedBodySchema } from '../team/protocol.ts';
import { open, type Keyring } from '../team/record-seal.ts';
import { loadDeviceKey } from './device-key-file.ts';
import { exchangeKeys } from './team-key-exchange.ts';
import { createProjectKey, keyringOf, rotateProjectKey, wrapDue } from './team-keys.ts';
import { shareProject, syncOnce, type SyncReport } from './team-sync.ts';

const REMOTE = 'git@github.com:acme/orchard.git';
const PROJECT = projectIdFromKey('git:github.com/acme/orchard') as ProjectId;

let pg: TestPostgres;
let server: TestTeamServer;
const dirs: string[] = [];

interface Machine {
  name: string;
  home: string;
  store: Store;
  api: TeamApi;
  device: () => DeviceKey;
  sync(): Promise<SyncReport>;
}

const admin = () => createTeamApi({ server: server.url, token: server.adminToken });

async function member(name: string): Promise<Machine> {
  const { token } = await admin().addUser({ name, device: `${name}-laptop` });
  await admin().grant({ user: name, project: REMOTE, role: 'writer' });
  const home = mkdtempSync(join(tmpdir(), `engram-wraps-${name}-`));
  dirs.push(home);
  const store = createStore(openDatabase(join(home, 'engram.db')));
  const api = createTeamApi({ server: server.url, token });
  shareProject(store, { id: PROJECT, name: 'orchard', root: home }, Date.now());
  const device = () => loadDeviceKey(join(home, 'device-key.pem'));
  return {
    name,
    home,
    store,
    api,
    device,
    sync: () =>
      syncOnce({
        store,
        api,
        logger: createMemoryLogger(),
        clock: systemClock,
        me: name,
        device: `${name}-laptop`,
        deviceKey: device,
      }),
  };
}

const titles = (m: Machine) =>
  (
    m.store.db
      .prepare(`SELECT title FROM observations WHERE project_id = ? AND status = 'active' ORDER BY title`)
      .all(PROJECT) as { title: string }[]
  ).map((r) => r.title);

/** Every row of every table of the server's database, as text. */
async function serverRows(): Promise<string> {
  const tables = await pg.query<{ table_name: string }>(
    server.databaseUrl,
    `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`,
  );
  expect(tables.rows.map((t) => t.table_name)).toEqual(
    expect.arrayContaining(['key_wraps', 'project_devices']),
  );
  const out: string[] = [];
  for (const { table_name } of tables.rows) {
    const rows = await pg.query<{ row: string }>(
      server.databaseUrl,
      `SELECT t::text AS row FROM "${table_name}" t`,
    );
    for (const r of rows.rows) out.push(`${table_name}: ${r.row}`);
  }
  return out.join('\n');
}

/** Every encoding of a secret's bytes a server row could hold it in. */
const encodings = (b: Buffer) => [b.toString('hex'), b.toString('base64'), b.toString('base64url')];

const wrapsOf = async (deviceId: string) =>
  (
    await pg.query<{ key_version: number }>(
      server.databaseUrl,
      'SELECT key_version FROM key_wraps WHERE device_id = $1 ORDER BY key_version',
      [deviceId],
    )
  ).rows.map((r) => r.key_version);

beforeAll(async () => {
  pg = await startTestPostgres();
  server = await startTestTeamServer(pg);
}, 120_000);
afterAll(async () => {
  await server?.close();
  await pg?.stop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('project keys wrapped per member device', () => {
  let alice: Machine;
  let bob: Machine;
  let carol: Machine;
  let dave: Machine;

  it('members who synced the project receive the key created later through the server, and read it', async () => {
    alice = await member('alice');
    bob = await member('bob');
    carol = await member('carol');
    // Each machine's first sync enrols its device (a key pair made then, 0600, in its ENGRAM_HOME).
    for (const m of [alice, bob, carol]) expect((await m.sync()).errors).toEqual([]);
    expect(statSync(join(bob.home, 'device-key.pem')).mode & 0o777).toBe(0o600);
    const enrolled = await pg.query(server.databaseUrl, 'SELECT user_name FROM project_devices ORDER BY 1');
    expect(enrolled.rows.map((r) => r.user_name)).toEqual(['alice', 'bob', 'carol']);

    createProjectKey(alice.store, PROJECT, Date.now());
    insertMemory(alice.store, {
      projectId: PROJECT,
      title: 'Pollinate the Quincewhistle rows at dawn',
      draft: { type: 'decision', narrative: 'The Brambleforth hives wake before six' },
    });
    const pushed = await alice.sync();
    expect(pushed.errors).toEqual([]);
    expect(pushed.keys[0]?.wrapped.map((w) => w.user).sort()).toEqual(['bob', 'carol']);
    expect(await wrapsOf(alice.device().id)).toEqual([1]);

    // No line handed over: bob's next sync opens the wrap addressed to his device and reads.
    const got = await bob.sync();
    expect(got.errors).toEqual([]);
    expect(got.keys).toEqual([{ project: PROJECT, imported: [1], wrapped: [] }]);
    expect(titles(bob)).toEqual(['Pollinate the Quincewhistle rows at dawn']);
    expect((await carol.sync()).keys[0]?.imported).toEqual([1]);
    expect(titles(carol)).toEqual(['Pollinate the Quincewhistle rows at dawn']);
    expect(
      keyringOf(bob.store, PROJECT)?.versions[0]?.key.equals(
        keyringOf(alice.store, PROJECT)?.versions[0]?.key as Buffer,
      ),
    ).toBe(true);
  });

  it('a member who joins later is granted the key; a wrap altered on the server is refused', async () => {
    dave = await member('dave');
    const locked = await dave.sync();
    expect(locked.errors[0]?.error).toMatch(/holds no key/);
    expect(titles(dave)).toEqual([]);
    expect(await wrapsOf(dave.device().id)).toEqual([]);

    // alice grants dave (what `engram team key grant dave` does).
    wrapDue(alice.store, PROJECT, 'dave');
    const granted = await exchangeKeys(alice.store, alice.api, alice.device(), PROJECT, Date.now());
    expect(granted.wrapped).toEqual([{ user: 'dave', device: 'dave-laptop', versions: [1] }]);
    expect(granted.problems).toEqual([]);

    // The server (or anyone with its database) alters the wrap: dave's machine refuses it.
    const original = await pg.query<{ wrap: { ct: string } }>(
      server.databaseUrl,
      'SELECT wrap FROM key_wraps WHERE device_id = $1',
      [dave.device().id],
    );
    const ct = original.rows[0]?.wrap.ct as string;
    const altered = `${ct[0] === 'A' ? 'B' : 'A'}${ct.slice(1)}`;
    await pg.query(
      server.databaseUrl,
      `UPDATE key_wraps SET wrap = jsonb_set(wrap, '{ct}', to_jsonb($2::text)) WHERE device_id = $1`,
      [dave.device().id, altered],
    );
    const refused = await dave.sync();
    expect(refused.errors[0]?.error).toMatch(
      /wrapped for this machine by alice's alice-laptop does not open/,
    );
    expect(keyringOf(dave.store, PROJECT)).toBeNull();
    expect(titles(dave)).toEqual([]);

    // Put back as alice made it: read at the next sync.
    await pg.query(
      server.databaseUrl,
      `UPDATE key_wraps SET wrap = jsonb_set(wrap, '{ct}', to_jsonb($2::text)) WHERE device_id = $1`,
      [dave.device().id, ct],
    );
    const opened = await dave.sync();
    expect(opened.errors).toEqual([]);
    expect(titles(dave)).toEqual(['Pollinate the Quincewhistle rows at dawn']);
  });

  it('a member sees only the wraps addressed to their own devices', async () => {
    const mine = await bob.api.projectKeys(PROJECT, bob.device().id);
    expect(mine.wraps.map((w) => w.to)).toEqual([bob.device().id]);
    const others = await bob.api.projectKeys(PROJECT, alice.device().id);
    expect(others.wraps).toEqual([]);
    expect(others.devices.map((d) => [d.user, d.versions])).toEqual([
      ['alice', [1]],
      ['bob', [1]],
      ['carol', [1]],
      ['dave', [1]],
    ]);
  });

  it('after a removal and a rotation, the removed member gets no new key and cannot read what follows', async () => {
    const carolDevice = carol.device().id;
    await admin().revoke({ user: 'carol', project: REMOTE });
    // Leaving the project ends the device's enrolment and its wraps.
    expect(
      (
        await pg.query(server.databaseUrl, 'SELECT 1 FROM project_devices WHERE device_id = $1', [
          carolDevice,
        ])
      ).rows,
    ).toEqual([]);
    expect(await wrapsOf(carolDevice)).toEqual([]);

    rotateProjectKey(alice.store, PROJECT, Date.now());
    const after = insertMemory(alice.store, { projectId: PROJECT, title: 'Graft the Sorbusquill saplings' });
    const rotated = await alice.sync();
    expect(rotated.errors).toEqual([]);
    expect(rotated.keys[0]?.wrapped.map((w) => [w.user, w.versions])).toEqual([
      ['bob', [2]],
      ['dave', [2]],
    ]);
    expect(await wrapsOf(carolDevice)).toEqual([]);

    for (const m of [bob, dave]) {
      const r = await m.sync();
      expect(r.errors).toEqual([]);
      expect(r.keys[0]?.imported).toEqual([2]);
      expect(titles(m)).toContain('Graft the Sorbusquill saplings');
    }

    // carol keeps version 1 only; the server refuses her, and the new record's row does not open with it.
    const carolRing = keyringOf(carol.store, PROJECT) as Keyring;
    expect(carolRing.versions.map((v) => v.version)).toEqual([1]);
    await expect(carol.api.projectKeys(PROJECT, carolDevice)).rejects.toSatisfy((e) =>
      isEngramError(e, 'FORBIDDEN'),
    );
    const r = await carol.sync();
    expect(r.errors.length).toBeGreaterThan(0);
    const row = await pg.query<{ body: unknown }>(
      server.databaseUrl,
      `SELECT body FROM entities WHERE kind = 'memory' AND entity_id = $1`,
      [after],
    );
    const sealed = sealedBodySchema.parse(row.rows[0]?.body);
    expect(sealed.kv).toBe(2);
    expect(open(carolRing, { project: PROJECT, kind: 'memory', id: after }, sealed)).toMatchObject({
      ok: false,
      why: 'no-key',
    });
    expect(titles(carol)).not.toContain('Graft the Sorbusquill saplings');
  });

  it("the server's tables hold no project key, no private key and no plaintext", async () => {
    const rows = await serverRows();
    const ring = keyringOf(alice.store, PROJECT) as Keyring;
    expect(ring.versions.length).toBe(2);
    for (const v of ring.versions) for (const e of encodings(v.key)) expect(rows).not.toContain(e);
    for (const m of [alice, bob, carol, dave]) {
      const priv = m.device().privateKey.export({ format: 'jwk' }).d as string;
      expect(rows).not.toContain(priv);
      for (const e of encodings(Buffer.from(priv, 'base64url'))) expect(rows).not.toContain(e);
    }
    for (const word of ['quincewhistle', 'brambleforth', 'sorbusquill', 'pollinate', 'saplings'])
      expect(rows.toLowerCase()).not.toContain(word);
    // What the server does hold: the devices' public keys and the wraps.
    expect(rows).toContain(alice.device().publicKey);
    expect(rows).toMatch(/key_wraps: .*"ct"/);
  });

  it('a device enrolled later under a pinned member gets no key until it is confirmed by its id', async () => {
    // What a server vouching falsely could do: a second device under bob's name, with a key of its own.
    const { token } = await admin().createToken({ user: 'bob', device: 'bob-tablet' });
    const rogue = deviceKeyFromPem(newDeviceKeyPem());
    await createTeamApi({ server: server.url, token }).enrolDevice(PROJECT, rogue.publicKey);
    rotateProjectKey(alice.store, PROJECT, Date.now());
    const rotated = await alice.sync();
    expect(rotated.errors).toEqual([]);
    expect(rotated.keys[0]?.wrapped.map((w) => `${w.device} ${w.versions.join(',')}`).sort()).toEqual([
      'bob-laptop 3',
      'dave-laptop 3',
    ]);
    const held = { user: 'bob', device: 'bob-tablet', id: rogue.id, fingerprint: fingerprintOf(rogue.id) };
    expect(rotated.keys[0]?.held).toEqual([{ ...held, state: 'new' }]);
    expect(await wrapsOf(rogue.id)).toEqual([]);

    // A grant by the member's name does not confirm it; one by its id (or fingerprint) does.
    wrapDue(alice.store, PROJECT, 'bob');
    const byName = await exchangeKeys(alice.store, alice.api, alice.device(), PROJECT, Date.now());
    expect(byName.held.map((h) => h.id)).toEqual([rogue.id]);
    expect(await wrapsOf(rogue.id)).toEqual([]);
    wrapDue(alice.store, PROJECT, rogue.id);
    const byId = await exchangeKeys(alice.store, alice.api, alice.device(), PROJECT, Date.now());
    expect(byId.wrapped).toEqual([{ user: 'bob', device: 'bob-tablet', versions: [1, 2, 3] }]);
    expect(byId.held).toEqual([]);
    expect(await wrapsOf(rogue.id)).toEqual([1, 2, 3]);
  });
});
