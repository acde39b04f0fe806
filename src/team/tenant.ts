/**
 * Running a request as its tenant: one transaction as `engram_app`, the bearer token looked up by
 * its hash inside it (so a revoked token or role stops working on the very next request), failed
 * attempts counted per client address and refused past the limit, failing closed.
 */
import { EngramError } from '../core/errors.ts';
import type { Clock, Logger } from '../core/ports.ts';
import { appendAudit, SERVER_CHAIN } from './audit-log.ts';
import { appTransaction, type Pool, type Tx } from './database.ts';
import type { Principal } from './principal.ts';
import type { Scope } from './protocol.ts';
import { checkRateLimit, hitRateLimit, type RateLimit } from './rate-limit.ts';
import { isWellFormedToken, tokenHash } from './token-format.ts';

export interface TenantDeps {
  pool: Pool;
  clock: Clock;
  logger: Logger;
  /** Failed token checks allowed per client address and window. */
  authFailures: RateLimit;
}

export interface RequestInfo {
  token: string | null;
  client: string;
  requestId: string;
  /** The token is a web view session's (its cookie), not an API bearer token: each is refused as the other. */
  web?: boolean;
}

class NotAuthenticated extends Error {}

/** Run `fn` as the token's user; 401 (after counting the failure) when the token is not valid. */
export async function asTenant<T>(
  deps: TenantDeps,
  req: RequestInfo,
  need: Scope | null,
  fn: (tx: Tx, who: Principal) => Promise<T>,
): Promise<T> {
  const now = deps.clock.now();
  const limitKey = `auth-fail:${req.client}`;
  try {
    return await appTransaction(deps.pool, async (tx) => {
      await checkRateLimit(tx, limitKey, deps.authFailures, now);
      if (req.token === null || !isWellFormedToken(req.token)) throw new NotAuthenticated();
      const r = await tx.query<{
        user_id: string;
        user_name: string;
        is_admin: boolean;
        token_id: string;
        device: string;
        scopes: Scope[];
      }>({
        name: req.web ? 'auth-web' : 'auth',
        text: req.web ? 'SELECT * FROM engram_web_auth($1)' : 'SELECT * FROM engram_auth($1)',
        values: [tokenHash(req.token)],
      });
      const row = r.rows[0];
      if (!row) throw new NotAuthenticated();
      const who: Principal = {
        userId: row.user_id,
        userName: row.user_name,
        serverAdmin: row.is_admin,
        tokenId: row.token_id,
        device: row.device,
        scopes: row.scopes,
      };
      if (need !== null && !who.scopes.includes(need)) {
        throw new EngramError('FORBIDDEN', `this token lacks the "${need}" scope`);
      }
      return fn(tx, who);
    });
  } catch (error) {
    if (!(error instanceof NotAuthenticated)) throw error;
    await hitRateLimit(deps.pool, limitKey, deps.authFailures, now);
    await appTransaction(deps.pool, (tx) =>
      appendAudit(tx, {
        chain: SERVER_CHAIN,
        at: now,
        principal: null,
        action: 'auth.failed',
        target: req.client,
        requestId: req.requestId,
      }),
    ).catch((auditError: unknown) => {
      deps.logger.warn('could not audit a failed sign-in', { error: String(auditError) });
    });
    throw new EngramError('UNAUTHORIZED', 'missing, unknown, expired or revoked token', {
      hint: 'Ask a team admin for a token: engram team admin token create.',
    });
  }
}
