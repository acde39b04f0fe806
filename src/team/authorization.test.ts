/**
 * The authorisation matrix: every endpoint × role × own/other project, crafted ids, just-revoked
 * users and tokens, rate limits failing closed; and row-level security checked by querying as the
 * application role directly.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startTestPostgres,
  startTestTeamServer,
  type TestPostgres,
  type TestTeamServer,
} from '../../test/support/team-postgres.ts';
import { createTeamApi } from './api-client.ts';
import { parseProjectSpec } from './project-key.ts';
import { memoryRecord as memory } from './records.test-support.ts';

let pg: TestPostgres;
let server: TestTeamServer;
const A = 'git@github.com:acme/alpha.git';
const B = 'git@github.com:acme/beta.git';
const idA = parseProjectSpec(A).id;
const idB = parseProjectSpec(B).id;
const tokens: Record<string, string> = {};
const userIds: Record<string, string> = {};
let client = 0;

/** One request as `who` (a name in `tokens`, or a raw Authorization value), from its own address. */
async function call(who: string | null, method: string, path: string, body?: unknown): Promise<number> {
  const auth = who === null ? undefined : (tokens[who] ?? who);
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      ...(auth ? { authorization: `Bearer ${auth}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      'x-forwarded-for': `10.9.${Math.floor(++client / 200)}.${client % 200}`,
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  await res.text();
  return res.status;
}

const state = { branch: 'main', commit: 'abc1234', files: [], fileCount: 0, at: 1 };

/** Every project endpoint as `who`, against project `p` (sync) or as an admin action on it. */
const ENDPOINTS: Record<string, (who: string, p: string, remote: string) => Promise<number>> = {
  push: (who, p) =>
    call(who, 'POST', `/v1/projects/${p}/push`, { records: [memory(`obs_${p}_${++client}`)] }),
  pull: (who, p) => call(who, 'GET', `/v1/projects/${p}/pull?after=0`),
  'state.put': (who, p) => call(who, 'PUT', `/v1/projects/${p}/state`, state),
  'state.get': (who, p) => call(who, 'GET', `/v1/projects/${p}/state`),
  // Into the other project: nobody here may write both (pam manages A but has no role in B).
  move: (who, p) => call(who, 'POST', `/v1/projects/${p}/move`, { to: p === idA ? idB : idA }),
  grant: (who, _p, remote) =>
    call(who, 'POST', '/v1/admin/grants', { user: 'zoe', project: remote, role: 'reader' }),
  revoke: (who, _p, remote) => call(who, 'POST', '/v1/admin/grants/revoke', { user: 'zoe', project: remote }),
};

async function as(who: string | null, method: string, path: string, body?: unknown) {
  return call(who, method, path, body);
}

beforeAll(async () => {
  pg = await startTestPostgres();
  server = await startTestTeamServer(pg);
  tokens['root'] = server.adminToken;
  const admin = createTeamApi({ server: server.url, token: server.adminToken });
  const roles: [string, string, 'reader' | 'writer' | 'admin'][] = [
    ['alice', A, 'writer'],
    ['rita', A, 'reader'],
    ['pam', A, 'admin'],
    ['bob', B, 'writer'],
    ['carl', A, 'writer'],
    ['zoe', A, 'reader'],
  ];
  for (const [name, project, role] of roles) {
    const u = await admin.addUser({ name, device: `${name}-pc` });
    userIds[name] = u.user.id;
    tokens[name] = u.token;
    await admin.grant({ user: name, project, role });
  }
  await admin.grant({ user: 'zoe', project: B, role: 'reader' });
  tokens['pam'] = (await admin.createToken({ user: 'pam', scopes: ['read', 'write', 'admin'] })).token;
  tokens['alice-ro'] = (await admin.createToken({ user: 'alice', scopes: ['read'] })).token;
  // Project B holds a memory whose id alice will try to reach from A.
  await createTeamApi({ server: server.url, token: tokens['bob'] as string }).push(idB, [
    memory('obs_secretB', 'B only'),
  ]);
}, 120_000);
afterAll(async () => {
  await server?.close();
  await pg?.stop();
});

describe('authorisation matrix', () => {
  // expected status per endpoint, for [own project, other project]
  const MATRIX: Record<string, Record<string, [number, number]>> = {
    alice: {
      push: [200, 403],
      pull: [200, 403],
      'state.put': [200, 403],
      'state.get': [200, 403],
      move: [403, 403],
      grant: [403, 403],
      revoke: [403, 403],
    },
    'alice-ro': {
      push: [403, 403],
      pull: [200, 403],
      'state.put': [403, 403],
      'state.get': [200, 403],
      move: [403, 403],
      grant: [403, 403],
      revoke: [403, 403],
    },
    rita: {
      push: [403, 403],
      pull: [200, 403],
      'state.put': [403, 403],
      'state.get': [200, 403],
      move: [403, 403],
      grant: [403, 403],
      revoke: [403, 403],
    },
    pam: {
      push: [200, 403],
      pull: [200, 403],
      'state.put': [200, 403],
      'state.get': [200, 403],
      move: [403, 403],
      grant: [200, 404],
      revoke: [200, 404],
    },
    root: {
      push: [403, 403],
      pull: [403, 403],
      'state.put': [403, 403],
      'state.get': [403, 403],
      move: [403, 403],
      grant: [200, 200],
      revoke: [200, 200],
    },
  };

  for (const [who, row] of Object.entries(MATRIX)) {
    it(`${who}: every sync and grant endpoint on its own and another project`, async () => {
      const got: Record<string, [number, number]> = {};
      for (const name of Object.keys(row)) {
        const endpoint = ENDPOINTS[name] as (typeof ENDPOINTS)[string];
        got[name] = [await endpoint(who, idA, A), await endpoint(who, idB, B)];
      }
      expect(got).toEqual(row);
    });
  }

  it('users, tokens and the audit log are for server admins (project admins: their own audit chain only)', async () => {
    const admin = ['root', 'pam', 'alice', 'rita'];
    const paths: [string, string, unknown?][] = [
      ['GET', '/v1/admin/users'],
      ['POST', '/v1/admin/users', { name: `u${Date.now()}` }],
      ['DELETE', '/v1/admin/users/zoe-nobody'],
      ['GET', '/v1/admin/tokens'],
      ['POST', '/v1/admin/tokens', { user: 'rita' }],
      ['DELETE', '/v1/admin/tokens/tok_nope'],
    ];
    const got: Record<string, number[]> = {};
    for (const who of admin) {
      got[who] = [];
      for (const [method, path, body] of paths) got[who].push(await as(who, method, path, body));
    }
    expect(got).toEqual({
      root: [200, 201, 404, 200, 201, 404],
      pam: [403, 403, 403, 403, 403, 403],
      alice: [403, 403, 403, 403, 403, 403],
      rita: [403, 403, 403, 403, 403, 403],
    });
    const pamApi = createTeamApi({ server: server.url, token: tokens['pam'] as string });
    const own = await pamApi.audit({ project: A, limit: 1000 });
    expect(own.length).toBeGreaterThan(0);
    expect(new Set(own.map((e) => e.chain))).toEqual(new Set([idA]));
    expect(await pamApi.audit({ project: B })).toEqual([]);
    expect(new Set((await pamApi.audit({ limit: 1000 })).map((e) => e.chain))).toEqual(new Set([idA]));
    const verify = await pamApi.verifyAudit();
    expect(verify.chains.map((c) => c.chain)).toEqual([idA]);
  });

  it('no cross-project read or write by crafted ids', async () => {
    const alice = createTeamApi({ server: server.url, token: tokens['alice'] as string });
    // The same entity id pushed into A creates A's own row; B's is untouched.
    const pushed = await alice.push(idA, [memory('obs_secretB', 'overwrite attempt')]);
    expect(pushed.results[0]?.status).toBe('accepted');
    const rows = await pg.query(
      server.databaseUrl,
      `SELECT project_id, body->>'title' AS title FROM entities WHERE entity_id = 'obs_secretB' ORDER BY project_id`,
    );
    expect(rows.rows).toEqual(
      [
        { project_id: idA, title: 'overwrite attempt' },
        { project_id: idB, title: 'B only' },
      ].sort((x, y) => (x.project_id < y.project_id ? -1 : 1)),
    );
    const page = await alice.pull(idA, 0);
    expect(page.records.some((r) => r.body && (r.body as { title: string }).title === 'B only')).toBe(false);
    // Ids that are not projects, or are made up, answer like a project without access.
    for (const crafted of ['prj_0000000000000000', `${idB}%27%20OR%201=1--`, 'x'.repeat(300)]) {
      expect(await as('alice', 'GET', `/v1/projects/${crafted}/pull?after=0`), crafted).toBe(403);
      expect(
        await as('alice', 'POST', `/v1/projects/${crafted}/push`, { records: [memory('obs_x')] }),
        crafted,
      ).toBe(403);
    }
    expect(await as('alice', 'GET', `/v1/projects/${idA}/pull?after=-1`)).toBe(400);
    expect(
      await as('alice', 'POST', `/v1/projects/${idA}/push`, {
        records: [{ ...memory('obs_y'), hash: '0'.repeat(64) }],
      }),
    ).toBe(200);
  });

  it('a token names its own device, and no other token\u2019s', async () => {
    expect(await as('rita', 'PUT', '/v1/me/device', { device: 'rita-laptop.local' })).toBe(200);
    const rita = createTeamApi({ server: server.url, token: tokens['rita'] as string });
    expect((await rita.me()).token.device).toBe('rita-laptop.local');
    for (const device of ['', 'has space', 'x'.repeat(64), '-dash-first'])
      expect(await as('rita', 'PUT', '/v1/me/device', { device }), device).toBe(400);
    expect(await as(null, 'PUT', '/v1/me/device', { device: 'nobody' })).toBe(401);
    const admin = createTeamApi({ server: server.url, token: server.adminToken });
    const devices = new Map((await admin.listTokens()).map((t) => [t.id, `${t.user} ${t.device}`]));
    expect([...devices.values()].filter((d) => d.endsWith('rita-laptop.local'))).toEqual([
      'rita rita-laptop.local',
    ]);
    expect([...devices.values()]).toContain('alice alice-pc');
  });

  it('a user whose role was just revoked, a revoked token and a removed user are refused at once', async () => {
    const admin = createTeamApi({ server: server.url, token: server.adminToken });
    expect(await as('carl', 'GET', `/v1/projects/${idA}/pull?after=0`)).toBe(200);
    await admin.revoke({ user: 'carl', project: A });
    expect(await as('carl', 'GET', `/v1/projects/${idA}/pull?after=0`)).toBe(403);
    expect(await as('carl', 'POST', `/v1/projects/${idA}/push`, { records: [memory('obs_carl')] })).toBe(403);
    const t = await admin.createToken({ user: 'rita', device: 'spare' });
    expect(await as(t.token, 'GET', '/v1/me')).toBe(200);
    await admin.revokeToken(t.id);
    expect(await as(t.token, 'GET', '/v1/me')).toBe(401);
    expect(await as('zoe', 'GET', '/v1/me')).toBe(200);
    await admin.removeUser('zoe');
    expect(await as('zoe', 'GET', '/v1/me')).toBe(401);
    for (const bad of ['', 'egr_nope', `egr_${'A'.repeat(36)}`, 'Basic abc']) {
      expect(await as(bad, 'GET', '/v1/me'), bad).toBe(401);
    }
    expect(await as(null, 'GET', '/v1/me')).toBe(401);
  });

  it('rate-limits failed sign-ins per address, and fails closed when the limiter cannot count', async () => {
    const from = (ip: string, token: string) =>
      fetch(`${server.url}/v1/me`, {
        headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': ip },
      }).then((r) => r.status);
    const statuses: number[] = [];
    for (let i = 0; i < 32; i++) statuses.push(await from('10.66.0.1', `egr_${String(i).padStart(36, 'x')}`));
    expect(statuses.slice(0, 30).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(30)).toEqual([429, 429]);
    // Even a good token from that address waits out the window.
    expect(await from('10.66.0.1', tokens['alice'] as string)).toBe(429);
    expect(await from('10.66.0.2', tokens['alice'] as string)).toBe(200);
    // The limiter's table unreachable: nobody gets in, instead of everybody.
    await pg.query(server.databaseUrl, 'REVOKE ALL ON rate_limits FROM engram_app');
    try {
      expect(await from('10.66.0.3', tokens['alice'] as string)).toBe(429);
      const login = await fetch(`${server.url}/v1/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'alice', password: 'whatever-long-enough' }),
      });
      expect(login.status).toBe(429);
    } finally {
      await pg.query(server.databaseUrl, 'GRANT SELECT, INSERT, UPDATE, DELETE ON rate_limits TO engram_app');
    }
  });

  it('password sign-in (Argon2id) gives a read-only token; wrong passwords count towards the limit', async () => {
    const admin = createTeamApi({ server: server.url, token: server.adminToken });
    await admin.addUser({ name: 'vera', password: 'correct horse battery staple' });
    const stored = await pg.query<{ password_hash: string }>(
      server.databaseUrl,
      `SELECT password_hash FROM users WHERE name = 'vera'`,
    );
    expect(stored.rows[0]?.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    const login = (password: string) =>
      fetch(`${server.url}/v1/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': '10.77.0.1' },
        body: JSON.stringify({ name: 'vera', password }),
      });
    const ok = await login('correct horse battery staple');
    expect(ok.status).toBe(200);
    const { token } = (await ok.json()) as { token: string };
    expect((await createTeamApi({ server: server.url, token }).me()).token.scopes).toEqual(['read']);
    const statuses = [];
    for (let i = 0; i < 10; i++) statuses.push((await login('wrong password')).status);
    expect(statuses.slice(0, 9).every((s) => s === 401)).toBe(true);
    expect(statuses[9]).toBe(429);
  });
});

describe('row-level security, as the application role directly', () => {
  const asApp = async (settings: Record<string, string>, sql: string, params: unknown[] = []) => {
    const sets = Object.entries(settings)
      .map(([k, v]) => `SELECT set_config('engram.${k}', '${v}', true);`)
      .join(' ');
    const client = await import('pg').then(
      (m) => new m.default.Client({ connectionString: server.databaseUrl }),
    );
    await client.connect();
    try {
      await client.query(`BEGIN; SET LOCAL ROLE engram_app; ${sets}`);
      const r = await client.query(sql, params);
      await client.query('ROLLBACK');
      return r;
    } catch (error) {
      await client.query('ROLLBACK');
      throw error;
    } finally {
      await client.end();
    }
  };

  it('is forced on every table', async () => {
    const r = await pg.query<{ relname: string; relrowsecurity: boolean; relforcerowsecurity: boolean }>(
      server.databaseUrl,
      `SELECT relname, relrowsecurity, relforcerowsecurity FROM pg_class
        WHERE relnamespace = 'public'::regnamespace AND relkind = 'r' AND relname <> 'engram_migrations'`,
    );
    expect(r.rows.length).toBeGreaterThanOrEqual(11);
    for (const row of r.rows)
      expect(row, row.relname).toMatchObject({ relrowsecurity: true, relforcerowsecurity: true });
  });

  it('shows nothing without a tenant, and only the tenant’s projects with one', async () => {
    for (const table of ['entities', 'users', 'tokens', 'members', 'projects', 'states', 'audit_log']) {
      expect((await asApp({}, `SELECT count(*)::int AS n FROM ${table}`)).rows[0]?.n, table).toBe(0);
    }
    const alice = { uid: userIds['alice'] as string, read: idA, write: idA };
    const visible = await asApp(alice, 'SELECT DISTINCT project_id FROM entities');
    expect(visible.rows).toEqual([{ project_id: idA }]);
    expect((await asApp(alice, `SELECT count(*)::int AS n FROM users`)).rows[0]?.n).toBe(1);
    expect(
      (await asApp(alice, `SELECT count(*)::int AS n FROM members WHERE project_id = $1`, [idB])).rows[0]?.n,
    ).toBe(0);
  });

  it('refuses writes outside the tenant’s projects, and the audit log is append-only', async () => {
    const alice = { uid: userIds['alice'] as string, read: idA, write: idA };
    await expect(
      asApp(
        alice,
        `INSERT INTO entities (project_id, kind, entity_id, seq, version, hash, body, author_id, author_name, device)
                     VALUES ($1, 'memory', 'obs_evil', 999, 1, 'h', '{}', $2, 'alice', 'x')`,
        [idB, userIds['alice']],
      ),
    ).rejects.toMatchObject({ code: '42501' });
    expect(
      (await asApp(alice, `UPDATE entities SET body = '{}' WHERE project_id = $1`, [idB])).rowCount,
    ).toBe(0);
    expect(
      (await asApp(alice, `UPDATE heads SET project_id = project_id WHERE project_id = $1`, [idB])).rowCount,
    ).toBe(0);
    await expect(
      asApp(alice, `INSERT INTO members (project_id, user_id, role) VALUES ($1, $2, 'admin')`, [
        idB,
        userIds['alice'],
      ]),
    ).rejects.toMatchObject({ code: '42501' });
    await expect(asApp({ admin: 'on' }, `UPDATE audit_log SET action = 'x'`)).rejects.toMatchObject({
      code: '42501',
    });
    await expect(asApp({ admin: 'on' }, `DELETE FROM audit_log`)).rejects.toMatchObject({ code: '42501' });
    await expect(asApp({ admin: 'on' }, `DELETE FROM entities`)).rejects.toMatchObject({ code: '42501' });
  });
});
