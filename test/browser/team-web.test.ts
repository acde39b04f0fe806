/**
 * The team server's web view in real headless Chromium, against the real `engram server start` on a
 * real PostgreSQL: sign-in with a password, every page (and axe-core on each), another project's
 * memory absent from every page, a hostile memory rendering inert, the session cookie out of the
 * page's reach, a form posted from another origin refused, and sign-out.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTeamApi } from '../../src/team/api-client.ts';
import { parseProjectSpec } from '../../src/team/project-key.ts';
import type { PushRecord } from '../../src/team/protocol.ts';
import { recordHash } from '../../src/team/record-hash.ts';
import { newKey, seal } from '../../src/team/record-seal.ts';
import { linkRecord, memoryRecord, summaryRecord } from '../../src/team/records.test-support.ts';
import { launchChromium, seriousA11yViolations, type Browser } from '../support/browser.ts';
import { startCliTeamServer, type CliTeamServer } from '../support/team-cli.ts';
import { startTestPostgres, type TestPostgres } from '../support/team-postgres.ts';

// Browser globals used inside page.evaluate (this file is type-checked without the DOM library).
declare const window: { __pwned?: number };
declare const document: {
  cookie: string;
  querySelectorAll(selector: string): ArrayLike<unknown>;
  links: ArrayLike<{ href: string }>;
};

const A = 'git@github.com:acme/alpha.git';
const B = 'git@github.com:acme/beta.git';
const idA = parseProjectSpec(A).id;
const idB = parseProjectSpec(B).id;
/** An end-to-end encrypted project: the server holds only sealed records of it. */
const C = 'git@github.com:acme/gamma.git';
const idC = parseProjectSpec(C).id;
const ringC = { projectId: idC, versions: [{ version: 1, key: newKey() }] };
const sealedC = (rec: PushRecord): PushRecord => {
  const body = seal(ringC, { project: idC, kind: rec.kind, id: rec.id }, rec.body);
  return { ...rec, body, hash: recordHash(rec.kind, rec.id, false, body) };
};
const PASSWORD = 'correct horse battery';
const HOSTILE_TITLE = '<img src=x onerror="window.__pwned=1"> <script>window.__pwned=2</script> hostile';
const B_TEXT = ['Zebra launch plan', 'zebra codename'];

describe('the team web view in Chromium', () => {
  let pg: TestPostgres;
  let server: CliTeamServer;
  let browser: Browser;
  let page: Page;
  let evil: Server;
  const errors: string[] = [];

  const signIn = async (name: string) => {
    await page.goto(`${server.url}/login`);
    await page.getByLabel('User name').fill(name);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.locator('h1', { hasText: 'Projects' }).waitFor();
  };

  beforeAll(async () => {
    pg = await startTestPostgres();
    server = await startCliTeamServer(pg);
    const admin = createTeamApi({ server: server.url, token: server.adminToken });
    const tokens: Record<string, string> = {};
    for (const [name, project, role] of [
      ['alice', A, 'writer'],
      ['pam', A, 'admin'],
      ['bob', B, 'writer'],
      ['alice', C, 'writer'],
    ] as const) {
      tokens[name] ??= (await admin.addUser({ name, device: `${name}-pc`, password: PASSWORD })).token;
      await admin.grant({ user: name, project, role });
    }
    await createTeamApi({ server: server.url, token: tokens['alice'] as string }).push(idA, [
      memoryRecord('obs_alpha1', 'Payment retries back off on 503', {
        narrative: 'The gateway answers 503 under load; retry with jitter.',
        sessionId: 'sess-a1',
      }),
      memoryRecord('obs_hostile', HOSTILE_TITLE, {
        subtitle: '[click me](javascript:window.__pwned=3)',
        narrative:
          '<a href="javascript:window.__pwned=4">a link</a><iframe src="javascript:alert(1)"></iframe>',
        facts: ['"><svg onload="window.__pwned=6">'],
      }),
      summaryRecord('sess-a1', 'Make payments survive gateway outages', { nextSteps: 'ship it' }),
      linkRecord('obs_alpha1', 'related', 'obs_hostile'),
    ]);
    await createTeamApi({ server: server.url, token: tokens['alice'] as string }).push(idC, [
      sealedC(memoryRecord('obs_gamma1', 'Gamma pricing model', { sessionId: 'sess-c1' })),
      sealedC(summaryRecord('sess-c1', 'Gamma pricing review')),
    ]);
    await createTeamApi({ server: server.url, token: tokens['bob'] as string }).push(idB, [
      memoryRecord('obs_beta1', 'Zebra launch plan stays secret', { narrative: 'zebra codename' }),
    ]);
    // A page on another origin (same site: another port of 127.0.0.1) that posts a sign-out form.
    evil = createServer((_req, res) => {
      res.setHeader('content-type', 'text/html');
      res.end(
        `<!doctype html><html lang="en"><title>evil</title><body><form id="f" method="post" action="${server.url}/logout">` +
          `<input name="csrf" value="guess"></form><script>document.getElementById('f').submit()</script></body></html>`,
      );
    });
    await new Promise<void>((done) => evil.listen(0, '127.0.0.1', done));
    browser = await launchChromium();
    page = await browser.context.newPage();
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(`${page.url()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => errors.push(`${page.url()}: ${e.message}`));
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((done) => (evil ? evil.close(() => done()) : done()));
    await server?.stop();
    await pg?.stop();
  });

  it('sends a visitor to the sign-in page, turns a wrong password away, and signs a member in', async () => {
    await page.goto(`${server.url}/search`);
    expect(new URL(page.url()).pathname).toBe('/login');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.getByLabel('User name').fill('alice');
    await page.getByLabel('Password', { exact: true }).fill('not the password');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toContain('Wrong user name or password');
    await signIn('alice');
    const cookies = await browser.context.cookies(server.url);
    const session = cookies.find((c) => c.name === 'engram_team_session');
    expect(session?.httpOnly).toBe(true);
    expect(session?.sameSite).toBe('Strict');
    expect(await page.evaluate(() => document.cookie)).toBe('');
    errors.length = 0; // the wrong password's 401 was meant
  });

  it('renders every page with no script error and no serious accessibility violation, and nothing of project B', async () => {
    const pages: [string, string][] = [
      ['/', 'Projects'],
      ['/search', 'Search'],
      ['/search?q=jitter', 'Search'],
      ['/search?q=zebra', 'Search'],
      ['/memories/obs_alpha1', 'Payment retries back off on 503'],
      ['/sessions', 'Sessions'],
      ['/sessions/sess-a1', 'Make payments survive gateway outages'],
      [`/graph?project=${idA}`, 'Graph'],
      ['/graph?id=obs_alpha1', 'Graph'],
      ['/audit', 'Audit log'],
      // An end-to-end encrypted project's pages say they cannot show its content.
      [`/search?project=${idC}`, 'Search'],
      ['/memories/obs_gamma1', 'Encrypted memory'],
      ['/sessions/sess-c1', 'Session sess-c1'],
    ];
    for (const [path, heading] of pages) {
      const response = await page.goto(`${server.url}${path}`);
      expect(response?.status(), path).toBe(200);
      await expect(page.locator('h1').first().textContent()).resolves.toContain(heading);
      expect(await seriousA11yViolations(page), path).toEqual([]);
      const text = (await page.locator('body').textContent()) ?? '';
      for (const secret of B_TEXT) expect(text, path).not.toContain(secret);
    }
    await page.goto(`${server.url}/memories/obs_gamma1`);
    await expect(page.getByRole('note').first().textContent()).resolves.toContain(
      'end-to-end encrypted project',
    );
    await expect(page.locator('body').textContent()).resolves.not.toContain('pricing');
    await page.goto(`${server.url}/graph?id=obs_alpha1`);
    await expect(page.locator('svg.graph a').count()).resolves.toBe(2);
    await page.goto(`${server.url}/search?q=jitter`);
    await expect(page.locator('ol.hits li').first().textContent()).resolves.toContain('shared by alice');
    const response = await page.goto(`${server.url}/memories/obs_beta1`);
    expect(response?.status()).toBe(404);
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(errors.filter((e) => !e.includes('404'))).toEqual([]);
    errors.length = 0;
  });

  it('renders a hostile memory as inert text', async () => {
    await page.goto(`${server.url}/memories/obs_hostile`);
    await expect(page.locator('h1').textContent()).resolves.toBe(HOSTILE_TITLE);
    const state = await page.evaluate(() => ({
      pwned: window.__pwned ?? null,
      active: document.querySelectorAll('main img, main iframe, main svg[onload], main script').length,
      scriptLinks: Array.from(document.links).filter((a) => a.href.startsWith('javascript:')).length,
    }));
    expect(state).toEqual({ pwned: null, active: 0, scriptLinks: 0 });
    expect(errors).toEqual([]);
  });

  it('refuses a sign-out posted from a page of another origin, and signs out from its own button', async () => {
    const { port } = evil.address() as AddressInfo;
    const refused = page.waitForResponse((r) => r.url() === `${server.url}/logout`);
    await page.goto(`http://127.0.0.1:${port}/`);
    expect((await refused).status()).toBe(403);
    await page.goto(`${server.url}/`);
    await expect(page.locator('h1').textContent()).resolves.toBe('Projects');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.locator('h1', { hasText: 'Sign in' }).waitFor();
    await page.goto(`${server.url}/search`);
    expect(new URL(page.url()).pathname).toBe('/login');
  });

  it('shows a project admin the audit log of their project, members’ page views included', async () => {
    await signIn('pam');
    await page.goto(`${server.url}/audit`);
    await expect(page.locator('tbody tr').count()).resolves.toBeGreaterThan(3);
    const text = (await page.locator('main').textContent()) ?? '';
    expect(text).toContain('web.read');
    expect(text).toContain('obs_hostile');
    for (const secret of [...B_TEXT, 'obs_beta1']) expect(text).not.toContain(secret);
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(errors.filter((e) => !e.includes('403'))).toEqual([]);
  });
});
