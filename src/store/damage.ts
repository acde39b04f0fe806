/**
 * A SQLite error that means the file is damaged, as engram's STORE_DAMAGED (shared by the full
 * connection, database.ts, and the context hooks' reading one, read-store.ts).
 */
import { EngramError } from '../core/errors.ts';

/** The error a SQLite read of a damaged file raised, as STORE_DAMAGED; null for any other error. */
export function damageOf(error: unknown, path: string): EngramError | null {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !/^SQLITE_(CORRUPT|NOTADB)/.test(code)) return null;
  return new EngramError(
    'STORE_DAMAGED',
    `the database at ${path} is damaged (${(error as Error).message})`,
    { cause: error },
  );
}
