/**
 * The team server's ordered PostgreSQL migrations. Each SQL file is immutable once released: add a
 * new numbered file and a line here to change the schema.
 */
import m0001 from './0001_init.sql';

export interface PgMigration {
  version: number;
  name: string;
  sql: string;
}

export const PG_MIGRATIONS: readonly PgMigration[] = [{ version: 1, name: '0001_init', sql: m0001 }];

export const PG_SCHEMA_VERSION = PG_MIGRATIONS.length;
