/**
 * What every route shares: the server's dependencies, the per-request variables, reading the bearer
 * token and client address, validating a JSON body, and the audit row a route appends.
 */
import type { Context } from 'hono';
import type { z } from 'zod';
import { EngramError } from '../core/errors.ts';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../core/json-depth.ts';
import type { appendAudit } from './audit-log.ts';
import type { Pool } from './database.ts';
import type { Principal } from './principal.ts';
import type { RequestInfo, TenantDeps } from './tenant.ts';

export interface TeamAppDeps extends TenantDeps {
  pool: Pool;
  epoch: string;
  /** Password sign-ins allowed per client address and per user name, per window. */
  logins: { limit: number; windowMs: number };
  /** Take the client address from X-Forwarded-For (only behind a reverse proxy you run). */
  trustProxy: boolean;
  /** The socket's remote address (from the Node adapter); absent in `app.request()` tests. */
  remoteAddress?: (c: Context) => string | undefined;
  /** Whether the database answers and the schema is current (for /health). */
  ready: () => Promise<boolean>;
}

export type Env = { Variables: { requestId: string } };

export function requestInfo(deps: TeamAppDeps, c: Context<Env>): RequestInfo {
  const auth = c.req.header('authorization') ?? '';
  const m = /^Bearer\s+(\S+)$/i.exec(auth);
  const forwarded = deps.trustProxy ? c.req.header('x-forwarded-for')?.split(',')[0]?.trim() : undefined;
  return {
    token: m?.[1] ?? null,
    client: forwarded || deps.remoteAddress?.(c) || 'unknown',
    requestId: c.get('requestId'),
  };
}

/**
 * Parse a JSON body with a schema: 400 with the first problem otherwise. `quick` (shape-check.ts) may
 * vouch for the parsed value first: it says yes only where the schema would (which then is not walked
 * again; the value is used as parsed, unknown members left in it), and on no the schema decides.
 */
export async function bodyOf<S extends z.ZodType>(
  c: Context,
  schema: S,
  quick?: (raw: unknown) => boolean,
): Promise<z.infer<S>> {
  let raw: unknown;
  const text = await c.req.text();
  if (nestsDeeperThan(text))
    throw new EngramError('INPUT_INVALID', `the request body is nested deeper than ${MAX_JSON_DEPTH} levels`);
  try {
    raw = JSON.parse(text);
  } catch {
    throw new EngramError('INPUT_INVALID', 'the request body is not JSON');
  }
  if (quick?.(raw)) return raw as z.infer<S>;
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new EngramError(
      'INPUT_INVALID',
      `${issue?.path.join('.') || 'body'}: ${issue?.message ?? 'invalid'}`,
    );
  }
  return parsed.data;
}

export type AuditFor = (
  c: Context<Env>,
  who: Principal | null,
  chain: string,
  action: string,
  target?: string,
  detail?: Record<string, unknown>,
) => Parameters<typeof appendAudit>[1];
