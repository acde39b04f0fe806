/**
 * The team web view over real HTTP against a real team server on a real PostgreSQL: sign-in (password
 * and token) and its failures, the session cookie's flags, cross-site sign-in and sign-out refused,
 * and row-level security on every page — a member of one project reads nothing of another's through
 * any page, and a web session is no API token (nor the reverse).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startTestPostgres,
  startTestTeamServer,
  type TestPostgres,
  type TestTeamServer,
} from '../../../test/support/team-postgres.ts';
import { createTeamApi } from '../../team/api-client.ts';
import { parseProjectSpec } from '../../team/project-key.ts';
import {
  linkRecord,
  memoryRecord,
  summaryRecord,
  tombstoneRecord as tombstone,
} from '../../team/records.test-support.ts';
import { mountTeamWeb } from './routes.ts';
import { csrfTokenOf } from './web-auth.ts';

let pg: TestPostgres;
let server: TestTeamServer;
const A = 'git@github.com:acme/alpha.git';
const B = 'git@github.com:acme/beta.git';
const idA = parseProjectSpec(A).id;
const idB = parseProjectSpec(B).id;
const PASSWORD = 'correct horse battery';
const tokens: Record<string, string> = {};
let client = 0;

interface Reply {
  status: number;
  location: string | null;
  setCookie: string;
  body: string;
}

/** One request to the web view from its own client address; `origin: null` sends none. */
async function web(
  path: string,
  options: {
    cookie?: string;
    form?: Record<string, string>;
    origin?: string | null;
    site?: string;
    bearer?: string;
  } = {},
): Promise<Reply> {
  const headers: Record<string, string> = {
    'x-forwarded-for': `10.7.${Math.floor(++client / 200)}.${client % 200}`,
  };
  if (options.cookie) headers['cookie'] = `engram_team_session=${options.cookie}`;
  if (options.bearer) headers['authorization'] = `Bearer ${options.bearer}`;
  if (options.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    const origin = options.origin === undefined ? server.url : options.origin;
    if (origin !== null) headers['origin'] = origin;
  }
  if (options.site) headers['sec-fetch-site'] = options.site;
  const res = await fetch(`${server.url}${path}`, {
    method: options.form ? 'POST' : 'GET',
    headers,
    redirect: 'manual',
    ...(options.form ? { body: new URLSearchParams(options.form).toString() } : {}),
  });
  return {
    status: res.status,
    location: res.headers.get('location'),
    setCookie: res.headers.get('set-cookie') ?? '',
    body: await res.text(),
  };
}

const secretOf = (r: Reply) => /engram_team_session=([^;]+)/.exec(r.setCookie)?.[1] ?? '';

async function signIn(name: string): Promise<string> {
  const r = await web('/login', { form: { name, password: PASSWORD } });
  expect(r.status, r.body).toBe(303);
  return secretOf(r);
}

beforeAll(async () => {
  pg = await startTestPostgres();
  server = await startTestTeamServer(pg, {
    mount: mountTeamWeb({ assets: { js: '/* viewer */', css: '/* viewer */', version: 'test' } }),
  });
  const admin = createTeamApi({ server: server.url, token: server.adminToken });
  const roles: [string, string, 'reader' | 'writer' | 'admin'][] = [
    ['alice', A, 'writer'],
    ['pam', A, 'admin'],
    ['bob', B, 'writer'],
    ['carl', A, 'reader'],
  ];
  for (const [name, project, role] of roles) {
    const u = await admin.addUser({ name, device: `${name}-pc`, password: PASSWORD });
    tokens[name] = u.token;
    await admin.grant({ user: name, project, role });
  }
  tokens['pam'] = (await admin.createToken({ user: 'pam', scopes: ['read', 'write', 'admin'] })).token;
  const alice = createTeamApi({ server: server.url, token: tokens['alice'] as string });
  await alice.push(idA, [
    memoryRecord('obs_alpha1', 'Payment retries back off on 503', {
      narrative: 'The gateway answers 503 under load; retry with jitter.',
      sessionId: 'sess-a1',
    }),
    memoryRecord('obs_alpha2', 'Gateway timeout is 30 seconds', { sessionId: 'sess-a1' }),
    summaryRecord('sess-a1', 'Make payments survive gateway outages', {
      learned: 'retries need jitter',
      nextSteps: 'ship it',
      filesEdited: ['src/pay.ts'],
    }),
    linkRecord('obs_alpha1', 'related', 'obs_alpha2'),
  ]);
  const bob = createTeamApi({ server: server.url, token: tokens['bob'] as string });
  await bob.push(idB, [
    memoryRecord('obs_beta1', 'Zebra launch plan stays secret', {
      narrative: 'zebra codename',
      sessionId: 'sess-b1',
    }),
    memoryRecord('obs_beta2', 'Zebra pricing', { sessionId: 'sess-b1' }),
    summaryRecord('sess-b1', 'Zebra launch checklist'),
    linkRecord('obs_beta1', 'related', 'obs_beta2'),
  ]);
}, 120_000);

afterAll(async () => {
  await server?.close();
  await pg?.stop();
});

/** Project B's text, as pushed (a page may echo the words searched for, never these). */
const B_TEXT = ['Zebra launch plan', 'Zebra pricing', 'zebra codename', 'Zebra launch checklist'];

/** Every page a member can open, with project B named wherever a page takes a project. */
const PAGES = [
  '/',
  '/search',
  '/search?q=zebra',
  `/search?q=zebra&project=${idB}`,
  `/search?project=${idB}`,
  '/memories/obs_beta1',
  '/sessions',
  `/sessions?project=${idB}`,
  '/sessions/sess-b1',
  `/graph?project=${idB}`,
  '/graph?id=obs_beta1',
  '/graph?id=obs_beta2',
  '/audit',
  `/audit?project=${idB}`,
];

describe('the team web view', () => {
  it('sends a visitor without a session to the sign-in page, and serves it with strict headers', async () => {
    for (const path of PAGES) {
      const r = await web(path);
      expect(r.status, path).toBe(303);
      expect(r.location).toBe('/login');
    }
    const page = await fetch(`${server.url}/login`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'nonce-");
    expect(await page.text()).toContain('Sign in to the team');
  });

  it('refuses a wrong password, an unknown user and an unknown token, and records the failures', async () => {
    for (const form of [
      { name: 'alice', password: 'wrong password!' },
      { name: 'nobody', password: PASSWORD },
      { name: 'Not A Name!', password: PASSWORD },
    ]) {
      const r = await web('/login', { form });
      expect(r.status).toBe(401);
      expect(r.setCookie).toBe('');
      expect(r.body).toContain('Wrong user name or password');
    }
    const huge = await web('/login', { form: { name: 'alice', password: 'x'.repeat(100_000) } });
    expect(huge.status).toBe(413);
    const bad = await web('/login', { form: { token: 'egr_notarealtoken' } });
    expect(bad.status).toBe(401);
    expect(bad.setCookie).toBe('');
    const failed = await pg.query<{ n: string }>(
      server.databaseUrl,
      `SELECT count(*) AS n FROM audit_log WHERE action IN ('web.login.failed', 'auth.failed')`,
    );
    expect(Number(failed.rows[0]?.n)).toBeGreaterThanOrEqual(4);
  });

  it('refuses a sign-in posted from another site (no Origin, a foreign Origin, Sec-Fetch-Site cross-site)', async () => {
    const form = { name: 'alice', password: PASSWORD };
    for (const r of [
      await web('/login', { form, origin: null }),
      await web('/login', { form, origin: 'http://evil.example' }),
      await web('/login', { form, site: 'cross-site' }),
    ]) {
      expect(r.status).toBe(403);
      expect(r.setCookie).toBe('');
    }
  });

  it('signs in with a password: an HttpOnly, SameSite=Strict cookie; only the member’s projects', async () => {
    const r = await web('/login', { form: { name: 'alice', password: PASSWORD } });
    expect(r.status).toBe(303);
    expect(r.setCookie).toMatch(/HttpOnly/i);
    expect(r.setCookie).toMatch(/SameSite=Strict/i);
    expect(r.setCookie).toMatch(/Path=\//);
    const home = await web('/', { cookie: secretOf(r) });
    expect(home.status).toBe(200);
    expect(home.body).toContain('alpha');
    expect(home.body).not.toContain(idB);
    expect(home.body).toContain('Signed in as');
  });

  it('shows a member their project through every page, and nothing of another project (RLS)', async () => {
    const alice = await signIn('alice');
    const bob = await signIn('bob');
    const search = await web('/search?q=jitter', { cookie: alice });
    expect(search.body).toContain('Payment retries back off on 503');
    // Words match by their stem ("retrying" finds "retries"), phrases and exclusions as typed.
    expect((await web('/search?q=retrying', { cookie: alice })).body).toContain('Payment retries back off');
    expect((await web('/search?q=retrying+-gateway', { cookie: alice })).body).not.toContain(
      'Payment retries',
    );
    const memory = await web('/memories/obs_alpha1', { cookie: alice });
    expect(memory.body).toContain('retry with jitter');
    expect(memory.body).toContain('Gateway timeout is 30 seconds'); // its link
    const session = await web('/sessions/sess-a1', { cookie: alice });
    expect(session.body).toContain('Make payments survive gateway outages');
    expect(session.body).toContain('ship it');
    // Bob reads project B: the pages that must stay empty for alice do show it to its member.
    const bobSearch = await web('/search?q=zebra', { cookie: bob });
    expect(bobSearch.body).toContain('Zebra launch plan stays secret');
    expect((await web('/memories/obs_beta1', { cookie: bob })).status).toBe(200);
    expect((await web('/sessions/sess-b1', { cookie: bob })).body).toContain('Zebra launch checklist');
    expect((await web(`/graph?project=${idB}`, { cookie: bob })).body).toContain('Zebra pricing');
    expect((await web('/graph?id=obs_beta1', { cookie: bob })).body).toContain('Zebra pricing');
    const around = await web('/graph?id=obs_alpha1', { cookie: alice });
    expect(around.body).toContain('Gateway timeout is 30 seconds');
    expect(around.body).toContain('<svg');
    for (const path of PAGES) {
      const r = await web(path, { cookie: alice });
      expect([200, 404], path).toContain(r.status);
      for (const secret of B_TEXT) expect(r.body, path).not.toContain(secret);
    }
    expect((await web('/memories/obs_beta1', { cookie: alice })).status).toBe(404);
    expect((await web('/search?project=not-a-project', { cookie: alice })).status).toBe(400);
    const typed = await web('/search?type=decision', { cookie: alice });
    expect(typed.body).toContain('No memories shared here yet');
    expect((await web('/search?type=fact', { cookie: alice })).body).toContain(
      'Gateway timeout is 30 seconds',
    );
    expect((await web('/sessions/sess-b1', { cookie: alice })).status).toBe(404);
  });

  it('finds a memory pushed a moment before; a redacted one no longer by its erased words, a forgotten one not at all', async () => {
    // The words live apart from the pushed rows (team migration 0008), made at search time: here by a
    // reader's search, after earlier searches of the project have set its mark.
    const carl = await signIn('carl');
    const alice = createTeamApi({ server: server.url, token: tokens['alice'] as string });
    const first = memoryRecord('obs_alpha3', 'Kumquat cache warms at boot', {
      narrative: 'The kumquat cache is filled before the first request.',
    });
    expect((await alice.push(idA, [first])).results[0]?.status).toBe('accepted');
    const found = await web('/search?q=kumquat', { cookie: carl });
    expect(found.body).toContain('Kumquat cache warms at boot');
    const lexemes = `SELECT count(*)::int AS n FROM memory_words WHERE words @@ to_tsquery('english', 'kumquat')`;
    expect((await pg.query<{ n: number }>(server.databaseUrl, lexemes)).rows[0]?.n).toBe(1);

    // A teammate's forget --match: the same memory, its text erased, pushed over the indexed version.
    const redacted = memoryRecord('obs_alpha3', '[erased] cache warms at boot', {
      narrative: 'The [erased] cache is filled before the first request.',
    });
    expect((await alice.push(idA, [{ ...redacted, baseVersion: 1 }])).results[0]?.status).toBe('accepted');
    // The push itself took the erased words out of the index.
    expect((await pg.query<{ n: number }>(server.databaseUrl, lexemes)).rows[0]?.n).toBe(0);
    const gone = await web('/search?q=kumquat', { cookie: carl });
    expect(gone.body).toContain('No shared memory holds those words');
    expect((await web(`/search?q=warms&project=${idA}`, { cookie: carl })).body).toContain(
      '[erased] cache warms at boot',
    );

    expect((await alice.push(idA, [tombstone('obs_alpha3')])).results[0]?.status).toBe('accepted');
    expect((await web('/search?q=warms', { cookie: carl })).body).toContain(
      'No shared memory holds those words',
    );
    const left = await pg.query<{ version: number; words: string | null }>(
      server.databaseUrl,
      `SELECT version, words::text AS words FROM memory_words WHERE entity_id = 'obs_alpha3'`,
    );
    expect(left.rows).toEqual([{ version: 3, words: null }]);
  });

  it('shows the audit log to a project admin for their project only, with members’ page views in it', async () => {
    const pam = await signIn('pam');
    await web('/memories/obs_alpha1', { cookie: await signIn('carl') });
    const audit = await web('/audit', { cookie: pam });
    expect(audit.status).toBe(200);
    expect(audit.body).toContain('web.read');
    expect(audit.body).toContain('obs_alpha1');
    expect(audit.body).toContain('records.push');
    for (const secret of [...B_TEXT, 'obs_beta1']) expect(audit.body).not.toContain(secret);
    expect(audit.body).not.toContain(idB);
    const alice = await web('/audit', { cookie: await signIn('alice') });
    expect(alice.body).toContain('No audit entries you may read');
  });

  it("shows a member's review decision in the project's audit log; a non-member cannot record one there", async () => {
    const review = {
      memory: 'obs_alpha2',
      verdict: 'approve' as const,
      version: 1,
      screen: 3,
      at: 1_700_000_000_000,
      via: 'viewer' as const,
      actor: null,
    };
    const carl = createTeamApi({ server: server.url, token: tokens['carl'] as string });
    expect(await carl.reviews(idA, [review])).toBe(1);
    const bob = createTeamApi({ server: server.url, token: tokens['bob'] as string });
    await expect(bob.reviews(idA, [review])).rejects.toMatchObject({ code: 'FORBIDDEN' });
    const audit = await web(`/audit?project=${idA}`, { cookie: await signIn('pam') });
    expect(audit.body).toMatch(
      /<td>carl \(carl-pc\)<\/td>\s*<td>memory\.approve<\/td>\s*<td>obs_alpha2<\/td>\s*<td><code>\{&quot;version&quot;:1,&quot;screen&quot;:3,/,
    );
  });

  it('signs in with a team token into a read-only session; a session is no API token, nor the reverse', async () => {
    const r = await web('/login', { form: { token: tokens['pam'] as string } });
    expect(r.status).toBe(303);
    const secret = secretOf(r);
    // pam administers project A: the session reads its audit chain (the admin scope came along).
    expect((await web('/audit', { cookie: secret })).body).toContain('records.push');
    const scopes = await pg.query<{ scopes: string[] }>(
      server.databaseUrl,
      `SELECT scopes FROM tokens WHERE web ORDER BY created_at DESC LIMIT 1`,
    );
    expect(scopes.rows[0]?.scopes).toEqual(['read', 'admin']);
    const asBearer = await fetch(`${server.url}/v1/me`, { headers: { authorization: `Bearer ${secret}` } });
    expect(asBearer.status).toBe(401);
    const tokenAsCookie = await web('/', { cookie: tokens['alice'] as string });
    expect(tokenAsCookie.status).toBe(303);
    expect(tokenAsCookie.location).toBe('/login');
  });

  it('limits password sign-ins per user name, failing the eleventh in a minute', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++)
      statuses.push((await web('/login', { form: { name: 'mallory', password: `guess ${i}` } })).status);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses[10]).toBe(429);
  });

  it('stops showing a project at the next page once the member’s role is revoked', async () => {
    const carl = await signIn('carl');
    expect((await web('/memories/obs_alpha1', { cookie: carl })).status).toBe(200);
    const admin = createTeamApi({ server: server.url, token: server.adminToken });
    await admin.revoke({ user: 'carl', project: A });
    expect((await web('/memories/obs_alpha1', { cookie: carl })).status).toBe(404);
    const search = await web('/search?q=jitter', { cookie: carl });
    expect(search.body).not.toContain('Payment retries back off on 503');
    expect(search.body).toContain('No shared memory holds those words');
  });

  it('signs out only with the session’s CSRF token from its own origin; the cookie is then worth nothing', async () => {
    const secret = await signIn('alice');
    for (const r of [
      await web('/logout', { cookie: secret, form: {} }),
      await web('/logout', { cookie: secret, form: { csrf: 'forged' } }),
      await web('/logout', {
        cookie: secret,
        form: { csrf: csrfTokenOf(secret) },
        origin: 'http://evil.example',
      }),
    ]) {
      expect(r.status).toBe(403);
    }
    expect((await web('/', { cookie: secret })).status).toBe(200);
    const out = await web('/logout', { cookie: secret, form: { csrf: csrfTokenOf(secret) } });
    expect(out.status).toBe(303);
    expect(out.setCookie).toMatch(/engram_team_session=;/);
    const after = await web('/', { cookie: secret });
    expect(after.status).toBe(303);
    expect(after.location).toBe('/login');
  });
});
