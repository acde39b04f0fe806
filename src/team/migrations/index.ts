/**
 * The team server's ordered PostgreSQL migrations. Each SQL file is immutable once released: add a
 * new numbered file and a line here to change the schema.
 */
import m0001 from './0001_init.sql';
import m0002 from './0002_entity_origin.sql';
import m0003 from './0003_concurrent_push.sql';
import m0004 from './0004_project_moves.sql';
import m0005 from './0005_web_sessions.sql';
import m0006 from './0006_encrypted_projects.sql';
import m0007 from './0007_device_keys.sql';
import m0008 from './0008_search_words_apart.sql';
import m0009 from './0009_push_begin.sql';
import m0010 from './0010_push_begin_custom_plans.sql';

export interface PgMigration {
  version: number;
  name: string;
  sql: string;
}

export const PG_MIGRATIONS: readonly PgMigration[] = [
  { version: 1, name: '0001_init', sql: m0001 },
  { version: 2, name: '0002_entity_origin', sql: m0002 },
  { version: 3, name: '0003_concurrent_push', sql: m0003 },
  { version: 4, name: '0004_project_moves', sql: m0004 },
  { version: 5, name: '0005_web_sessions', sql: m0005 },
  { version: 6, name: '0006_encrypted_projects', sql: m0006 },
  { version: 7, name: '0007_device_keys', sql: m0007 },
  { version: 8, name: '0008_search_words_apart', sql: m0008 },
  { version: 9, name: '0009_push_begin', sql: m0009 },
  { version: 10, name: '0010_push_begin_custom_plans', sql: m0010 },
];

export const PG_SCHEMA_VERSION = PG_MIGRATIONS.length;
