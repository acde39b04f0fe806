/**
 * The viewer's auth on one machine. `engram ui` prints a one-time launch link; opening it trades the
 * token for an HttpOnly, SameSite=Strict session cookie named per install (cookies are not isolated by
 * port, so two installs on one machine must not share a name). Scripts use the secret itself as a
 * bearer token. Tokens and cookies are HMACs under the install's secret, so another `engram ui` process
 * can mint a link for a running viewer; each launch token works once. The team server later plugs in
 * its own adapter with the same shape.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';

/** How a request proved itself: the browser's cookie or a script's bearer token. */
export type Credential = 'cookie' | 'bearer';

/** What the viewer needs from an auth scheme (local secret here; the team server's later). */
export interface ViewerAuth {
  identify(c: Context): Credential | null;
  /** GET /auth/launch?token=…: trade a launch token for a session; false when the token is not good. */
  exchange(c: Context, token: string): boolean;
}

/** How long a launch link works. */
export const LAUNCH_TTL_MS = 5 * 60_000;
const SESSION_TTL_MS = 30 * 86_400_000;

const sign = (secret: string, text: string) => createHmac('sha256', secret).update(text).digest('hex');

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The per-install cookie name (derived from the secret, revealing nothing of it). */
export function cookieNameOf(secret: string): string {
  return `engram_${createHash('sha256').update(`engram-viewer-cookie:${secret}`).digest('hex').slice(0, 12)}`;
}

/** A launch token valid for five minutes, once: `<expiry>.<nonce>.<hmac>`. */
export function mintLaunchToken(secret: string, now: number): string {
  const body = `${now + LAUNCH_TTL_MS}.${randomBytes(12).toString('hex')}`;
  return `${body}.${sign(secret, `launch:${body}`)}`;
}

export function createLocalAuth(options: { secret: string; now: () => number }): ViewerAuth & {
  cookieName: string;
} {
  const { secret, now } = options;
  const cookieName = cookieNameOf(secret);
  const used = new Map<string, number>(); // launch nonce → its expiry
  const sessionValue = (issuedAt: number) => `${issuedAt}.${sign(secret, `session:${issuedAt}`)}`;

  const validSession = (value: string): boolean => {
    const [issued, mac] = value.split('.');
    const issuedAt = Number(issued);
    if (!mac || !Number.isSafeInteger(issuedAt)) return false;
    if (issuedAt > now() + 60_000 || now() - issuedAt > SESSION_TTL_MS) return false;
    return sameText(mac, sign(secret, `session:${issuedAt}`));
  };

  return {
    cookieName,
    identify(c) {
      const header = c.req.header('authorization');
      if (header?.startsWith('Bearer ') && sameText(header.slice(7).trim(), secret)) return 'bearer';
      const cookie = getCookie(c, cookieName);
      return cookie !== undefined && validSession(cookie) ? 'cookie' : null;
    },
    exchange(c, token) {
      const [expiry, nonce, mac] = token.split('.');
      const expiresAt = Number(expiry);
      if (!nonce || !mac || !Number.isSafeInteger(expiresAt)) return false;
      if (!sameText(mac, sign(secret, `launch:${expiry}.${nonce}`))) return false;
      const at = now();
      for (const [n, e] of used) if (e < at) used.delete(n);
      if (expiresAt < at || expiresAt > at + LAUNCH_TTL_MS || used.has(nonce)) return false;
      used.set(nonce, expiresAt);
      setCookie(c, cookieName, sessionValue(at), {
        httpOnly: true,
        sameSite: 'Strict',
        path: '/',
        maxAge: SESSION_TTL_MS / 1000,
      });
      return true;
    },
  };
}
