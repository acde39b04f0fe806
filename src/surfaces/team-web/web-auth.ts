/**
 * The web view's session cookie and its two guards against cross-site requests. The cookie holds the
 * web session's secret (team/web-session.ts): HttpOnly, SameSite=Strict, Path=/, Secure when the page
 * came over HTTPS (directly, or through a proxy the server trusts). A state-changing request (sign-in,
 * sign-out) must come from a page of this origin (Origin, and Sec-Fetch-Site when sent), and sign-out
 * also carries the session's CSRF token, derived from its secret, in the form.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { WEB_SESSION_HOURS } from '../../team/web-session.ts';

export const SESSION_COOKIE = 'engram_team_session';

function isHttps(c: Context, trustProxy: boolean): boolean {
  if (new URL(c.req.url).protocol === 'https:') return true;
  return trustProxy && c.req.header('x-forwarded-proto')?.split(',')[0]?.trim() === 'https';
}

export function sessionSecret(c: Context): string | null {
  return getCookie(c, SESSION_COOKIE) ?? null;
}

export function setSessionCookie(c: Context, secret: string, trustProxy: boolean): void {
  setCookie(c, SESSION_COOKIE, secret, {
    httpOnly: true,
    sameSite: 'Strict',
    path: '/',
    secure: isHttps(c, trustProxy),
    maxAge: WEB_SESSION_HOURS * 3600,
  });
}

export function clearSessionCookie(c: Context, trustProxy: boolean): void {
  deleteCookie(c, SESSION_COOKIE, { path: '/', secure: isHttps(c, trustProxy) });
}

/** The session's CSRF token: a hash of its secret (another site can neither read nor make it). */
export function csrfTokenOf(secret: string): string {
  return createHash('sha256').update(`engram-web-csrf\0${secret}`).digest('base64url');
}

export function csrfMatches(secret: string, sent: unknown): boolean {
  if (typeof sent !== 'string') return false;
  const want = Buffer.from(csrfTokenOf(secret));
  const got = Buffer.from(sent);
  return want.length === got.length && timingSafeEqual(want, got);
}

/**
 * Whether a state-changing request came from this server's own pages: an Origin naming the host the
 * request was sent to (a browser always sends one with a POST), and no Sec-Fetch-Site saying otherwise.
 */
export function fromOwnPage(c: Context): boolean {
  const origin = c.req.header('origin');
  const site = c.req.header('sec-fetch-site');
  if (site !== undefined && site !== 'same-origin') return false;
  if (origin === undefined) return false;
  const host = (c.req.header('host') ?? new URL(c.req.url).host).toLowerCase();
  // Either scheme: a proxy may end TLS in front of the server without saying so.
  const o = origin.toLowerCase();
  return o === `http://${host}` || o === `https://${host}`;
}
