/**
 * The project key reaching members through the team server, by the real CLI: three machines (each its
 * own HOME and ENGRAM_HOME) on a team server over a real PostgreSQL. A member who synced the project
 * before `share --encrypt` receives the key at their next sync; one who joins later gets it from
 * `team key grant`; nobody pastes a line. `team key status` lists the devices and what each holds.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTeamApi } from '../../src/team/api-client.ts';
import { createSandbox, type Sandbox } from '../support/sandbox.ts';
import {
  startTestPostgres,
  startTestTeamServer,
  type TestPostgres,
  type TestTeamServer,
} from '../support/team-postgres.ts';

const REMOTE = 'git@github.com:acme/granary.git';
const TITLE = 'Thistledown silos are turned every Tuesday';
let pg: TestPostgres;
let server: TestTeamServer;
const machines: Record<string, Sandbox> = {};

const projectOf = (who: string) => join((machines[who] as Sandbox).root, 'projects', 'granary');
const engram = (who: string, args: string[]) =>
  (machines[who] as Sandbox).engramAsync(args, { cwd: projectOf(who) });

function titles(who: string): string[] {
  const sqlite = new Database(join((machines[who] as Sandbox).engramHome, 'engram.db'), { readonly: true });
  try {
    return (sqlite.prepare('SELECT title FROM observations ORDER BY title').all() as { title: string }[]).map(
      (r) => r.title,
    );
  } finally {
    sqlite.close();
  }
}

async function join_(who: string): Promise<void> {
  const admin = createTeamApi({ server: server.url, token: server.adminToken });
  const sb = createSandbox();
  machines[who] = sb;
  sb.project('granary', REMOTE);
  const { token } = await admin.addUser({ name: who, device: `${who}-box` });
  await admin.grant({ user: who, project: REMOTE, role: 'writer' });
  const login = await engram(who, ['team', 'login', '--server', server.url, '--token', token]);
  expect(login.status, login.stderr).toBe(0);
}

beforeAll(async () => {
  pg = await startTestPostgres();
  server = await startTestTeamServer(pg);
  for (const who of ['alice', 'bob']) await join_(who);
}, 120_000);

afterAll(async () => {
  for (const sb of Object.values(machines)) sb.cleanup();
  await server?.close();
  await pg?.stop();
});

describe('project keys through the team server, by the CLI', () => {
  it('a member whose machine synced the project receives the key at the next sync, no line pasted', async () => {
    expect((await engram('bob', ['team', 'share'])).status).toBe(0);
    const first = await engram('bob', ['team', 'sync']);
    expect(first.status, first.stderr).toBe(0);
    const key = join((machines.bob as Sandbox).engramHome, 'device-key.pem');
    expect(statSync(key).mode & 0o777).toBe(0o600);

    expect(
      (await engram('alice', ['remember', TITLE, '--narrative', 'Turned by hand, never by auger'])).status,
    ).toBe(0);
    const share = await engram('alice', ['team', 'share', '--encrypt']);
    expect(share.status, share.stderr).toBe(0);
    expect(share.stdout).toMatch(/next sync wraps the key for every device enrolled/);
    const sync = await engram('alice', ['team', 'sync']);
    expect(sync.status, sync.stderr).toBe(0);
    expect(sync.stdout).toMatch(/key version 1 wrapped for bob's bob-box/);

    const received = await engram('bob', ['team', 'sync']);
    expect(received.status, received.stderr).toBe(0);
    expect(received.stdout).toMatch(/key version 1 received through the team server/);
    expect(titles('bob')).toEqual([TITLE]);
  });

  it('a member who joins later is granted the key by name', async () => {
    await join_('carol');
    expect((await engram('carol', ['team', 'share'])).status).toBe(0);
    const locked = await engram('carol', ['team', 'sync']);
    expect(locked.status).toBe(1);
    expect(locked.stderr).toMatch(/holds no key/);

    const nobody = await engram('alice', ['team', 'key', 'grant', 'zed']);
    expect(nobody.status, nobody.stderr).toBe(1);
    expect(nobody.stdout).toMatch(/no device of zed is enrolled in the project yet.*then grant again/);
    const grant = await engram('alice', ['team', 'key', 'grant', 'carol']);
    expect(grant.status, grant.stderr).toBe(0);
    expect(grant.stdout).toMatch(/key version 1 wrapped for carol's carol-box/);
    expect(grant.stdout).not.toMatch(/zed/);

    const sync = await engram('carol', ['team', 'sync']);
    expect(sync.status, sync.stderr).toBe(0);
    expect(titles('carol')).toEqual([TITLE]);
  });

  it('key status lists every enrolled device, its fingerprint and the versions it holds', async () => {
    const status = await engram('alice', ['team', 'key', 'status']);
    expect(status.status, status.stderr).toBe(0);
    expect(status.stdout).toMatch(/end-to-end encrypted here, key versions 1/);
    expect(status.stdout).toMatch(
      /this machine's device: dk_[0-9a-f]{32} \(fingerprint [0-9a-f]{4}(-[0-9a-f]{4}){3}\)/,
    );
    for (const who of ['alice', 'bob', 'carol'])
      expect(status.stdout).toMatch(new RegExp(`  ${who} ${who}-box [0-9a-f-]{19}: holds key version 1`));
    expect(status.stdout).toMatch(/alice-box .*\(this machine\)/);
    const json = JSON.parse((await engram('bob', ['team', 'key', 'status', '--json'])).stdout) as {
      devices: { user: string; versions: number[] }[];
    };
    expect(json.devices.map((d) => [d.user, d.versions])).toEqual([
      ['alice', [1]],
      ['bob', [1]],
      ['carol', [1]],
    ]);
  });
});
