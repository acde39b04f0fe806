/**
 * Fixed-window rate limits kept in PostgreSQL (so every server instance shares them), failing
 * closed: when the counter cannot be read or written, the request is refused, never let through.
 */
import { EngramError } from '../core/errors.ts';
import { appTransaction, num, type Pool, type Tx } from './database.ts';

export interface RateLimit {
  /** Requests (or failures) allowed per window. */
  limit: number;
  windowMs: number;
}

const closed = (cause: unknown) =>
  new EngramError('RATE_LIMITED', 'the rate limiter is unavailable, so the request is refused', {
    hint: 'Try again shortly.',
    cause,
  });

/** Count one hit against `key` and refuse when the window is full. */
export async function hitRateLimit(pool: Pool, key: string, rule: RateLimit, now: number): Promise<void> {
  let count: number;
  try {
    count = await appTransaction(pool, async (tx) => {
      const r = await tx.query<{ count: number }>(
        `INSERT INTO rate_limits (key, window_start, count) VALUES ($1, $2, 1)
         ON CONFLICT (key) DO UPDATE SET
           count = CASE WHEN rate_limits.window_start <= $2 - $3 THEN 1 ELSE rate_limits.count + 1 END,
           window_start = CASE WHEN rate_limits.window_start <= $2 - $3 THEN $2 ELSE rate_limits.window_start END
         RETURNING count`,
        [key, now, rule.windowMs],
      );
      return r.rows[0]?.count ?? Number.POSITIVE_INFINITY;
    });
  } catch (error) {
    throw closed(error);
  }
  if (count > rule.limit) tooMany(rule);
}

/** Refuse when `key` has used up its window (reads only; failures are counted with `hitRateLimit`). */
export async function checkRateLimit(tx: Tx, key: string, rule: RateLimit, now: number): Promise<void> {
  let count: number;
  try {
    const r = await tx.query<{ count: number; window_start: string }>({
      name: 'rate-limit-check',
      text: 'SELECT count, window_start FROM rate_limits WHERE key = $1',
      values: [key],
    });
    const row = r.rows[0];
    count = row && num(row.window_start) > now - rule.windowMs ? row.count : 0;
  } catch (error) {
    throw closed(error);
  }
  if (count >= rule.limit) tooMany(rule);
}

function tooMany(rule: RateLimit): never {
  throw new EngramError('RATE_LIMITED', 'too many attempts', {
    hint: `Wait ${Math.ceil(rule.windowMs / 1000)} seconds and try again.`,
  });
}
