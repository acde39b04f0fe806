/**
 * The store the real opencode 1.18.33 wrote (test/fixtures/hosts/opencode/store.json: the `session`,
 * `message` and `part` tables and rows of one session) loaded into a real SQLite file.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';

const FIXTURES = new URL('../../../../test/fixtures/hosts/opencode/', import.meta.url);
export const opencodeFixture = (name: string): string => readFileSync(new URL(name, FIXTURES), 'utf8');

interface StoreFixture {
  schema: string[];
  rows: Record<string, Record<string, unknown>[]>;
}

/** `dir/opencode.db` with the recorded rows (`{{project}}` replaced by `project` when given). */
export function recordedDatabase(dir: string, project?: string): string {
  const file = join(dir, 'opencode.db');
  const text = opencodeFixture('store.json');
  const { schema, rows } = JSON.parse(
    project === undefined ? text : text.replaceAll('{{project}}', project),
  ) as StoreFixture;
  const db = new Database(file);
  try {
    // opencode's session table refers to its project table, not recorded: foreign keys off.
    db.pragma('foreign_keys = OFF');
    for (const sql of schema) db.exec(sql);
    for (const [table, list] of Object.entries(rows))
      for (const row of list) {
        const keys = Object.keys(row);
        db.prepare(
          `INSERT INTO ${table} (${keys.join(', ')}) VALUES (${keys.map(() => '?').join(', ')})`,
        ).run(...keys.map((k) => row[k]));
      }
  } finally {
    db.close();
  }
  return file;
}
