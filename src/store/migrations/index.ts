/**
 * The ordered list of migrations. Each SQL file is immutable once released: add a new numbered file
 * and a line here to change the schema.
 */
import m0001 from './0001_init.sql';
import m0002 from './0002_transcripts.sql';
import m0004 from './0004_vectors.sql';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  { version: 1, name: '0001_init', sql: m0001 },
  { version: 2, name: '0002_transcripts', sql: m0002 },
  // becomes 4 at merge (0003 is the lead's, added in parallel)
  { version: 3, name: '0004_vectors', sql: m0004 },
];

export const SCHEMA_VERSION = MIGRATIONS.length;
