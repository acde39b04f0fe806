/**
 * Running a request as its tenant: one transaction as `engram_app`, the bearer token looked up by
 * its hash inside it (so a revoked token or role stops working on the very next request), failed
 * attempts counted per client address and refused past the limit, failing closed.
 */
import type pg from 'pg';
import { EngramError } from '../core/errors.ts';
import type { Clock, Logger } from '../core/ports.ts';
import { appendAudit, SERVER_CHAIN } from './audit-log.ts';
import { appTransaction, type Pool, type Tx } from './database.ts';
import type { Principal } from './principal.ts';
import type { Scope } from './protocol.ts';
import {
  checkRateLimit,
  hitRateLimit,
  rateLimiterClosed,
  refuseWhenSpent,
  type RateLimit,
} from './rate-limit.ts';
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
      if (req.token === null || !isWellFormedToken(req.token)) {
        await checkRateLimit(tx, limitKey, deps.authFailures, now);
        throw new NotAuthenticated();
      }
      // The address's failure count and the token's tenant in one statement (one round trip, on every
      // request): the count is judged first, so an address past its limit is refused whatever its
      // token — the tenant the lookup set dies with the rolled-back transaction. A statement that
      // fails is refused as the limiter's failure is (fail closed).
      let r: pg.QueryResult<{
        limit_count: number | null;
        limit_start: string | null;
        user_id: string | null;
        user_name: string;
        is_admin: boolean;
        token_id: string;
        device: string;
        scopes: Scope[];
      }>;
      try {
        r = await tx.query({
          name: req.web ? 'auth-web' : 'auth',
          text: `SELECT l.count AS limit_count, l.window_start AS limit_start, a.*
                   FROM (SELECT 1) one
                   LEFT JOIN rate_limits l ON l.key = $2
                   LEFT JOIN LATERAL ${req.web ? 'engram_web_auth' : 'engram_auth'}($1) a ON true`,
          values: [tokenHash(req.token), limitKey],
        });
      } catch (error) {
        throw rateLimiterClosed(error);
      }
      const row = r.rows[0];
      refuseWhenSpent(
        row && { count: row.limit_count, window_start: row.limit_start },
        deps.authFailures,
        now,
      );
      if (!row || row.user_id === null) throw new NotAuthenticated();
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
