/**
 * The server's PostgreSQL: a pool, the migrator, and the one way a request touches data — a
 * transaction that first drops to the non-owner role `engram_app` (SET LOCAL ROLE), so row-level
 * security holds even when the connection string names the owner or a superuser.
 */
import pg from 'pg';
import { EngramError } from '../core/errors.ts';
import { PG_MIGRATIONS, PG_SCHEMA_VERSION } from './migrations/index.ts';

export type Pool = pg.Pool;
export type Tx = pg.PoolClient;

/** Any 64-bit number unique to engram: held while migrating, so concurrent starts migrate once. */
const MIGRATION_LOCK = 0x656e6772616d; // "engram"

export function createPool(connectionString: string, max = 10): Pool {
  const pool = new pg.Pool({ connectionString, max, idleTimeoutMillis: 30_000 });
  // An idle client losing its connection (database restart) must not crash the server.
  pool.on('error', () => undefined);
  return pool;
}

/** The statement each open transaction runs last, sent with its COMMIT (finishWith). */
const finals = new WeakMap<Tx, string>();

/**
 * Run `sql` (no parameters: build it with `sqlLiteral`) as the transaction's last statement, sent in
 * one message with its COMMIT once the transaction's function has returned: whatever lock it takes is
 * held only until PostgreSQL commits, never across a round trip to this process (which may be busy
 * with other requests). Nothing runs after it; an error in it, or in the function after this call,
 * rolls the whole transaction back. One per transaction.
 */
export function finishWith(tx: Tx, sql: string): void {
  if (finals.has(tx)) throw new Error('a transaction has one final statement');
  finals.set(tx, sql);
}

async function commit(tx: Tx): Promise<void> {
  const last = finals.get(tx);
  // The simple query protocol runs both in order and stops at the first error (then the ROLLBACK
  // below ends the transaction).
  await tx.query(last === undefined ? 'COMMIT' : `${last}; COMMIT`);
}

/** A value as an SQL literal, for `finishWith`'s statement (text with a NUL is refused, as a parameter's is). */
export function sqlLiteral(value: string | number | null): string {
  if (value === null) return 'NULL';
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw new EngramError('INPUT_INVALID', `not a whole number: ${value}`);
    return String(value);
  }
  if (value.includes('\u0000')) throw new EngramError('INPUT_INVALID', 'text with a NUL character');
  return pg.escapeLiteral(value);
}

/** Run `fn` in a transaction as the owner (migrations, bootstrap). */
export async function ownerTransaction<T>(pool: Pool, fn: (tx: Tx) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await fn(client);
    await commit(client);
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    finals.delete(client);
    client.release();
  }
}

/** Run `fn` in a transaction as `engram_app`: every statement under row-level security. */
export async function appTransaction<T>(pool: Pool, fn: (tx: Tx) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken = false;
  try {
    await client.query('BEGIN; SET LOCAL ROLE engram_app');
    const result = await fn(client);
    await commit(client);
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {
      broken = true; // the connection is gone: do not hand it out again
    });
    throw error;
  } finally {
    finals.delete(client);
    client.release(broken);
  }
}

/** Bring the schema up to date (once, even with several servers starting together). */
export async function migrateTeamDatabase(pool: Pool): Promise<{ from: number; to: number }> {
  const client = await pool.connect().catch((error: unknown) => {
    throw new EngramError('REMOTE_FAILED', `cannot connect to PostgreSQL: ${(error as Error).message}`, {
      hint: 'Check the connection string (--db or ENGRAM_TEAM_DB) and that the database is up.',
      cause: error,
    });
  });
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await client.query(`CREATE TABLE IF NOT EXISTS engram_migrations (
      version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
    const row = await client.query<{ v: number | null }>('SELECT max(version) AS v FROM engram_migrations');
    const from = row.rows[0]?.v ?? 0;
    if (from > PG_SCHEMA_VERSION) {
      throw new EngramError(
        'STORE_FAILED',
        `the team database schema (version ${from}) is newer than this engram (version ${PG_SCHEMA_VERSION})`,
        { hint: 'Upgrade engram on this server.' },
      );
    }
    for (const m of PG_MIGRATIONS) {
      if (m.version <= from) continue;
      await client.query('BEGIN');
      try {
        await client.query(m.sql);
        await client.query('INSERT INTO engram_migrations (version, name) VALUES ($1, $2)', [
          m.version,
          m.name,
        ]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw new EngramError(
          'STORE_FAILED',
          `team migration ${m.name} failed: ${(error as Error).message}`,
          {
            cause: error,
          },
        );
      }
    }
    return { from, to: PG_SCHEMA_VERSION };
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    client.release();
  }
}

export async function readEpoch(pool: Pool): Promise<string> {
  const r = await pool.query<{ value: string }>(`SELECT value FROM meta WHERE key = 'epoch'`);
  const epoch = r.rows[0]?.value;
  if (!epoch) throw new EngramError('STORE_FAILED', 'the team database has no epoch (was it migrated?)');
  return epoch;
}

/** pg returns bigint columns as strings; the values engram stores fit a double exactly. */
export const num = (v: string | number | null): number => (v === null ? 0 : Number(v));
