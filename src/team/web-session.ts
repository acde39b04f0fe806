/**
 * The web view's sign-in: a password, or one of the user's own API tokens, exchanged for a web
 * session — a `tokens` row marked `web` (migration 0005) whose secret only the browser's cookie holds.
 * A session reads (scope `read`, plus `admin` where the credential has it, for the audit log) and
 * never writes; `asTenant` with `web: true` sets the same tenant from it as the API does from a bearer
 * token. Every attempt counts against the client address (and a password's against the user name).
 */
import { EngramError } from '../core/errors.ts';
import { appendAudit, SERVER_CHAIN } from './audit-log.ts';
import { insertToken, userByName } from './admin-store.ts';
import { appTransaction, type Tx } from './database.ts';
import { verifyPassword } from './password.ts';
import type { Principal } from './principal.ts';
import { USER_NAME_RE, type Scope } from './protocol.ts';
import { hitRateLimit } from './rate-limit.ts';
import { asTenant, type RequestInfo, type TenantDeps } from './tenant.ts';

/** How long a web session lasts (hours); signing in again makes a new one. */
export const WEB_SESSION_HOURS = 12;
export const WEB_DEVICE = 'web';

export interface WebSessionDeps extends TenantDeps {
  /** Password sign-ins allowed per client address and per user name, per window. */
  logins: { limit: number; windowMs: number };
}

export interface WebSession {
  /** The secret for the cookie (shown nowhere else; the server keeps its hash). */
  secret: string;
  user: string;
}

const WEB_SCOPES = new Set<Scope>(['read', 'admin']);

async function newSession(tx: Tx, userId: string, scopes: Scope[], now: number) {
  // Nobody acts as the tenant yet for this insert (tokens_insert asks for admin): the server issues the
  // session itself, for this one statement's transaction, as /v1/login does.
  await tx.query(`SELECT set_config('engram.admin', 'on', true)`);
  return insertToken(
    tx,
    { userId, device: WEB_DEVICE, scopes, expiresInDays: WEB_SESSION_HOURS / 24, web: true },
    now,
  );
}

const audit = (
  req: RequestInfo,
  now: number,
  action: string,
  target: string,
  principal: Principal | null = null,
) => ({
  chain: SERVER_CHAIN,
  at: now,
  principal,
  action,
  target,
  requestId: req.requestId,
});

/** A password sign-in: a session, or null for a wrong name or password (recorded either way). */
export async function signInWithPassword(
  deps: WebSessionDeps,
  req: RequestInfo,
  name: string,
  password: string,
): Promise<WebSession | null> {
  const now = deps.clock.now();
  const userName = name.trim().toLowerCase();
  await hitRateLimit(deps.pool, `login:${req.client}`, deps.logins, now);
  await hitRateLimit(deps.pool, `login-user:${userName}`, deps.logins, now);
  const user = USER_NAME_RE.test(userName)
    ? await appTransaction(deps.pool, async (tx) => {
        await tx.query(`SELECT set_config('engram.admin', 'on', true)`);
        return userByName(tx, userName);
      })
    : null;
  // As /v1/login: a password longer than any the server accepts is wrong without hashing it.
  const ok =
    user?.passwordHash && password.length <= 1000 ? await verifyPassword(password, user.passwordHash) : false;
  return appTransaction(deps.pool, async (tx) => {
    if (!ok || !user) {
      await appendAudit(tx, audit(req, now, 'web.login.failed', userName.slice(0, 100)));
      return null;
    }
    const token = await newSession(tx, user.id, ['read', 'admin'], now);
    await appendAudit(tx, audit(req, now, 'web.login', userName));
    return { secret: token.token, user: userName };
  });
}

/**
 * A sign-in with one of the user's API tokens (it must have the `read` scope): the session gets the
 * token's read and admin scopes, never write. An unknown token counts as a failed sign-in.
 */
export async function signInWithToken(
  deps: WebSessionDeps,
  req: RequestInfo,
  apiToken: string,
): Promise<WebSession> {
  const now = deps.clock.now();
  await hitRateLimit(deps.pool, `login:${req.client}`, deps.logins, now);
  return asTenant(deps, { ...req, token: apiToken.trim(), web: false }, 'read', async (tx, who) => {
    const token = await newSession(
      tx,
      who.userId,
      who.scopes.filter((s) => WEB_SCOPES.has(s)),
      now,
    );
    await appendAudit(tx, audit(req, now, 'web.login', who.userName, who));
    return { secret: token.token, user: who.userName };
  });
}

/** Sign out: the session's row revoked (its cookie is then worth nothing anywhere). */
export async function signOut(deps: TenantDeps, req: RequestInfo): Promise<void> {
  await asTenant(deps, { ...req, web: true }, 'read', async (tx, who) => {
    const r = await tx.query('UPDATE tokens SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL', [
      who.tokenId,
    ]);
    if (r.rowCount !== 1) throw new EngramError('NOT_FOUND', 'this session has ended already');
    await appendAudit(tx, audit(req, deps.clock.now(), 'web.logout', who.userName, who));
  });
}
