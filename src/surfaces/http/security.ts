/**
 * The viewer's front door, in order: a Host other than the loopback names with the right port is
 * refused (403: a DNS-rebinding page cannot read it), every response carries a strict
 * Content-Security-Policy with a per-request script nonce, a request without a valid credential gets
 * 401, and a state-changing request from another origin gets 403.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { NONCE, secureHeaders, type SecureHeadersVariables } from 'hono/secure-headers';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { edgeError } from '../../app/edge-errors.ts';
import { EngramError } from '../../core/errors.ts';
import type { Credential, ViewerAuth } from './local-auth.ts';

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** `host:port` values the viewer answers to. */
export function allowedHosts(port: number): Set<string> {
  return new Set(LOOPBACK_NAMES.map((name) => `${name}:${port}`));
}

function hostOf(c: Context): string {
  return (c.req.header('host') ?? new URL(c.req.url).host).toLowerCase();
}

/** 403 unless the request names this viewer by a loopback name and its port. */
export function hostGuard(port: () => number): MiddlewareHandler {
  return async (c, next) => {
    if (!allowedHosts(port()).has(hostOf(c))) return c.text('Forbidden: unknown Host', 403);
    return next();
  };
}

/**
 * Strict headers: scripts only with this response's nonce, styles only from the viewer, no framing.
 * The team web view posts plain forms and checks their Origin, which browsers send as `null` under
 * `no-referrer`: it asks for `same-origin` instead (still nothing sent to another site).
 */
export function strictHeaders(
  referrerPolicy: 'no-referrer' | 'same-origin' = 'no-referrer',
): MiddlewareHandler {
  return secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'none'"],
      scriptSrc: [NONCE],
      styleSrc: ["'self'"],
      imgSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
      baseUri: ["'none'"],
      // DOM sinks (innerHTML and friends) refuse strings: text is only ever set as text.
      requireTrustedTypesFor: ["'script'"],
      trustedTypes: ["'none'"],
    },
    strictTransportSecurity: false,
    referrerPolicy,
    crossOriginResourcePolicy: 'same-origin',
    crossOriginOpenerPolicy: 'same-origin',
  });
}

/** The credential the auth middleware accepted, and the response's script nonce. */
export type ViewerEnv = { Variables: SecureHeadersVariables & { credential: Credential } };

/** A refusal at the front door, through the one error table (app/edge-errors.ts). */
function refuse(c: Context<ViewerEnv>, error: EngramError): Response {
  const e = edgeError(error);
  return c.json(
    { error: { code: e.code, message: e.message, hint: e.hint } },
    e.http as ContentfulStatusCode,
  );
}

/**
 * 401 without a credential (JSON under /api, a short page elsewhere); 403 for a state-changing request
 * whose Origin is not the viewer's own (a browser always sends one; a script with the bearer token may not).
 */
export function authGuard(auth: ViewerAuth, port: () => number): MiddlewareHandler<ViewerEnv> {
  return async (c, next) => {
    const credential = auth.identify(c);
    if (!credential) {
      if (c.req.path.startsWith('/api/'))
        return refuse(
          c,
          new EngramError('UNAUTHORIZED', 'no valid viewer session', {
            hint: 'Open the viewer with the link "engram ui" prints, or send its token as a bearer token.',
          }),
        );
      return c.html(
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>engram: sign-in needed</title></head>' +
          '<body><main><h1>Open the viewer with <code>engram ui</code></h1><p>This page needs the link ' +
          '<code>engram ui</code> prints (it signs this browser in). Run it again for a new link.</p></main></body></html>',
        401,
      );
    }
    if (!SAFE_METHODS.has(c.req.method)) {
      const origin = c.req.header('origin');
      const site = c.req.header('sec-fetch-site');
      const own = origin !== undefined && allowedHosts(port()).has(origin.replace(/^http:\/\//, ''));
      const foreign =
        (origin !== undefined && (!origin.startsWith('http://') || !own)) ||
        (site !== undefined && site !== 'same-origin' && site !== 'none') ||
        (origin === undefined && credential === 'cookie');
      if (foreign)
        return refuse(
          c,
          new EngramError('FORBIDDEN', 'cross-origin request refused', {
            hint: 'Change memories from the viewer’s own pages, or send no Origin with the bearer token.',
          }),
        );
    }
    c.set('credential', credential);
    return next();
  };
}
