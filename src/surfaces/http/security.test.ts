import { statSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { insertMemory } from '../../store/store.test-support.ts';
import { mintLaunchToken } from './local-auth.ts';
import { createTestViewer, ORIGIN, PORT, type TestViewer } from './viewer.test-support.ts';

describe('the viewer’s front door', () => {
  let v: TestViewer;
  beforeEach(async () => {
    v = await createTestViewer();
  });
  afterEach(() => v.close());

  it('keeps its secret in a file only its owner can read, and never sends it', async () => {
    expect(statSync(v.paths.viewerSecret).mode & 0o777).toBe(0o600);
    insertMemory(v.store, { projectId: v.project.id, title: 'a memory', sessionId: 'session-1' });
    for (const path of [
      '/',
      '/search',
      '/settings',
      '/health',
      '/metrics',
      '/api/health',
      '/api/config',
      '/api/memories',
    ]) {
      const body = await (await v.request(path)).text();
      expect(body, path).not.toContain(v.secret);
    }
  });

  it('answers 401 without a session cookie or bearer token, and takes the secret as a bearer token', async () => {
    const page = await v.app.request(`${ORIGIN}/search`);
    expect(page.status).toBe(401);
    expect(await page.text()).toContain('engram ui');
    const api = await v.app.request(`${ORIGIN}/api/memories`);
    expect(api.status).toBe(401);
    expect(await api.json()).toMatchObject({ error: { code: 'UNAUTHORIZED' } });
    const forged = await v.app.request(`${ORIGIN}/api/memories`, {
      headers: { cookie: `${v.cookie.split('=')[0]}=${Date.now()}.${'0'.repeat(64)}` },
    });
    expect(forged.status).toBe(401);
    const bearer = await v.app.request(`${ORIGIN}/api/memories`, {
      headers: { authorization: `Bearer ${v.secret}` },
    });
    expect(bearer.status).toBe(200);
    const wrongBearer = await v.app.request(`${ORIGIN}/api/memories`, {
      headers: { authorization: 'Bearer nope' },
    });
    expect(wrongBearer.status).toBe(401);
  });

  it('trades a launch token once for an HttpOnly, SameSite=Strict cookie named per install', async () => {
    const token = mintLaunchToken(v.secret, v.clock.now());
    const first = await v.app.request(`${ORIGIN}/auth/launch?token=${token}&next=/sessions`);
    expect(first.status).toBe(303);
    expect(first.headers.get('location')).toBe('/sessions');
    const cookie = first.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^engram_[0-9a-f]{12}=/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).not.toContain(v.secret);
    const again = await v.app.request(`${ORIGIN}/auth/launch?token=${token}`);
    expect(again.status).toBe(401);
    const other = await v.app.request(
      `${ORIGIN}/auth/launch?token=${mintLaunchToken('f'.repeat(64), v.clock.now())}`,
    );
    expect(other.status).toBe(401);
    const expired = mintLaunchToken(v.secret, v.clock.now() - 10 * 60_000);
    expect((await v.app.request(`${ORIGIN}/auth/launch?token=${expired}`)).status).toBe(401);
    const offsite = await v.app.request(
      `${ORIGIN}/auth/launch?token=${mintLaunchToken(v.secret, v.clock.now())}&next=//evil.example/`,
    );
    expect(offsite.headers.get('location')).toBe('/');
  });

  it('refuses a Host other than the loopback names with its port (DNS rebinding): 403', async () => {
    for (const host of [
      'evil.example',
      `evil.example:${PORT}`,
      '127.0.0.1:1',
      `localhost.evil.example:${PORT}`,
    ]) {
      const r = await v.app.request(`http://${host}/api/memories`, { headers: { cookie: v.cookie } });
      expect(r.status, host).toBe(403);
    }
    for (const host of [`localhost:${PORT}`, `[::1]:${PORT}`, `127.0.0.1:${PORT}`]) {
      const r = await v.app.request(`http://${host}/api/memories`, { headers: { cookie: v.cookie } });
      expect(r.status, host).toBe(200);
    }
  });

  it('refuses a state-changing request from another origin, or a browser one without an Origin: 403', async () => {
    const id = insertMemory(v.store, { projectId: v.project.id, title: 'keep me pinned' });
    const body = { pinned: true };
    const foreign = await v.request(`/api/memories/${id}/pin`, {
      body,
      headers: { origin: 'http://evil.example' },
    });
    expect(foreign.status).toBe(403);
    const crossSite = await v.request(`/api/memories/${id}/pin`, {
      body,
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    expect(crossSite.status).toBe(403);
    const noOrigin = await v.app.request(`${ORIGIN}/api/memories/${id}/pin`, {
      method: 'POST',
      headers: { cookie: v.cookie, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(noOrigin.status).toBe(403);
    expect(v.store.observations.get(id)?.pinned).toBe(false);
    const own = await v.request(`/api/memories/${id}/pin`, { body });
    expect(own.status).toBe(200);
    // A script with the bearer token sends no Origin at all.
    const script = await v.app.request(`${ORIGIN}/api/memories/${id}/pin`, {
      method: 'POST',
      headers: { authorization: `Bearer ${v.secret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ pinned: false }),
    });
    expect(script.status).toBe(200);
  });

  it('sends a strict, nonce-based Content-Security-Policy; the page’s one script carries the nonce', async () => {
    const r = await v.request('/');
    const csp = r.headers.get('content-security-policy') ?? '';
    const nonce = /script-src 'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('unsafe-eval');
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("require-trusted-types-for 'script'");
    const html = await r.text();
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
    expect(scripts).toHaveLength(1);
    expect(scripts[0]).toContain(`nonce="${nonce}"`);
    const next = await v.request('/');
    expect(next.headers.get('content-security-policy')).not.toContain(nonce);
  });
});
