/**
 * Whose database a file is. engram's carries SQLite's application_id 0x456e6772 ("Engr"); one made by
 * an earlier engram (before the id) is known by the tables its first migration made and its schema
 * version; an empty file is a new database. Anything else belongs to another program — such as the Go
 * memory tool also named engram, which keeps its own `~/.engram/engram.db` — and is never migrated or
 * written.
 */
import { EngramError } from '../core/errors.ts';
import type Database from 'better-sqlite3';

type Db = Database.Database;

export const ENGRAM_APPLICATION_ID = 0x456e6772;

/** Tables every engram database has had since its first migration (with user_version ≥ 1). */
const OWN_TABLES = ['capture_stats', 'events', 'observations', 'summaries', 'worker_lock'];

export type Identity =
  | { kind: 'engram' }
  | { kind: 'new' }
  /** Made by an earlier engram: migrating it sets the id. */
  | { kind: 'earlier'; version: number }
  | { kind: 'foreign'; found: string };

/** Read whose database `db` is; reads only (the header and the schema table). */
export function identify(db: Db): Identity {
  const id = db.pragma('application_id', { simple: true }) as number;
  if (id === ENGRAM_APPLICATION_ID) return { kind: 'engram' };
  if (id !== 0)
    return {
      kind: 'foreign',
      found: `a database marked for another program (application_id 0x${(id >>> 0).toString(16)})`,
    };
  const tables = db
    .prepare(`SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`)
    .pluck()
    .all() as string[];
  if (tables.length === 0) return { kind: 'new' };
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version >= 1 && OWN_TABLES.every((t) => tables.includes(t))) return { kind: 'earlier', version };
  const shown = tables.slice(0, 6).join(', ') + (tables.length > 6 ? `, … (${tables.length} tables)` : '');
  return { kind: 'foreign', found: `another program's database (tables ${shown})` };
}

/** Throw STORE_FOREIGN unless `db` is engram's, an earlier engram's, or new. */
export function requireOwnDatabase(db: Db, path: string): Identity {
  const identity = identify(db);
  if (identity.kind !== 'foreign') return identity;
  const goTool = /[/\\]\.engram[/\\]engram\.db$/.test(path)
    ? '; the Go memory tool also named engram keeps its data in ~/.engram/engram.db'
    : '';
  throw new EngramError(
    'STORE_FOREIGN',
    `${path} is not engram's database: it is ${identity.found}${goTool}. engram leaves it untouched.`,
  );
}
