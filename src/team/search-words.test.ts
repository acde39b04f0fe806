/**
 * Team migration 0008 on a server that ran 0007: the search words generated inside `entities` go, the
 * memories already shared are indexed by the migration and found by the web view's search, a sealed
 * memory's ciphertext and a tombstone are never indexed, and pushes after the upgrade are found too;
 * the index kept right against a push racing a search, and after a restore into a new cluster.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startTestPostgres,
  startTestTeamServer,
  type TestPostgres,
} from '../../test/support/team-postgres.ts';
import { createTeamApi } from './api-client.ts';
import { appTransaction, createPool } from './database.ts';
import { PG_MIGRATIONS } from './migrations/index.ts';
import { parseProjectSpec } from './project-key.ts';
import { memoryRecord } from './records.test-support.ts';
import { newToken, tokenHash } from './token-format.ts';
import { ensureSeqBase } from './sync-store.ts';
import { webMemories } from './web-store.ts';

let postgres: TestPostgres;

beforeAll(async () => {
  postgres = await startTestPostgres();
}, 120_000);
afterAll(async () => {
  await postgres?.stop();
});

const HASH = 'a'.repeat(64);

/** The database as a server of the previous schema (migrations 0001–0007) left it, with shared rows. */
async function previousServer(db: string, projectId: string, token: string): Promise<void> {
  const client = new pg.Client({ connectionString: db });
  await client.connect();
  try {
    await client.query(`CREATE TABLE engram_migrations (
      version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
    for (const m of PG_MIGRATIONS.filter((x) => x.version <= 7)) {
      await client.query(m.sql);
      await client.query('INSERT INTO engram_migrations (version, name) VALUES ($1, $2)', [
        m.version,
        m.name,
      ]);
    }
    await client.query(`INSERT INTO users (id, name) VALUES ('u_alice', 'alice')`);
    await client.query(
      `INSERT INTO tokens (id, user_id, token_hash, scopes, device) VALUES ('t_alice', 'u_alice', $1, '{read,write}', 'pc')`,
      [tokenHash(token)],
    );
    await client.query(`INSERT INTO projects (id, key, name) VALUES ($1, $1, 'app')`, [projectId]);
    await client.query(`INSERT INTO heads (project_id) VALUES ($1)`, [projectId]);
    await client.query(`INSERT INTO members (project_id, user_id, role) VALUES ($1, 'u_alice', 'writer')`, [
      projectId,
    ]);
    const rows: [string, number, boolean, unknown][] = [
      ['obs_old', 1, false, memoryRecord('obs_old', 'Quince parser keeps comments').body],
      ['obs_sealed', 2, false, { e2ee: 1, kv: 1, iv: 'AAAAAAAAAAAAAAAA', ct: 'cXVpbmNlIGNpcGhlcnRleHQ=' }],
      ['obs_forgotten', 3, true, null],
    ];
    for (const [id, seq, deleted, body] of rows)
      await client.query(
        `INSERT INTO entities (project_id, kind, entity_id, seq, version, hash, deleted, body, author_id,
                               author_name, device)
         VALUES ($1, 'memory', $2, $3, 1, $4, $5, $6, 'u_alice', 'alice', 'pc')`,
        [projectId, id, seq, HASH, deleted, body === null ? null : JSON.stringify(body)],
      );
    // The previous schema generated the words inside the row.
    const words = await client.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM entities WHERE words @@ to_tsquery('english', 'quince')`,
    );
    expect(words.rows[0]?.n).toBe(1);
  } finally {
    await client.end();
  }
}

describe('team migration 0008 (search words apart from the pushed rows)', () => {
  it('upgrades a database of the previous schema: old and new memories found, ciphertext never indexed', async () => {
    const db = await postgres.createDatabase();
    const projectId = parseProjectSpec('https://git.example.com/team/app.git').id;
    const token = newToken();
    await previousServer(db, projectId, token);
    const server = await startTestTeamServer(postgres, { db });
    const pool = createPool(db, 2);
    try {
      const columns = await postgres.query(
        db,
        `SELECT column_name FROM information_schema.columns WHERE table_name = 'entities' AND column_name = 'words'`,
      );
      expect(columns.rows).toEqual([]);
      // The migration indexed what was already shared (no search has run yet).
      const migrated = await postgres.query<{ entity_id: string; indexed: boolean }>(
        db,
        `SELECT entity_id, words IS NOT NULL AS indexed FROM memory_words ORDER BY entity_id`,
      );
      expect(migrated.rows).toEqual([
        { entity_id: 'obs_old', indexed: true },
        { entity_id: 'obs_sealed', indexed: false },
      ]);
      const alice = createTeamApi({ server: server.url, token });
      const pushed = await alice.push(projectId, [memoryRecord('obs_new', 'Quince lexer after the upgrade')]);
      expect(pushed.results[0]?.status).toBe('accepted');

      const search = (words: string) =>
        appTransaction(pool, async (tx) => {
          await tx.query('SELECT * FROM engram_auth($1)', [tokenHash(token)]);
          const r = await webMemories(tx, { project: null, words, type: null, before: null, limit: 50 });
          return r.items.map((m) => m.id).sort();
        });
      expect(await search('quince')).toEqual(['obs_new', 'obs_old']);
      expect(await search('ciphertext')).toEqual([]);
      const indexed = await postgres.query<{ entity_id: string; indexed: boolean }>(
        db,
        `SELECT entity_id, words IS NOT NULL AS indexed FROM memory_words ORDER BY entity_id`,
      );
      // The sealed memory's row holds no words; the tombstone has none at all.
      expect(indexed.rows).toEqual([
        { entity_id: 'obs_new', indexed: true },
        { entity_id: 'obs_old', indexed: true },
        { entity_id: 'obs_sealed', indexed: false },
      ]);
      // Without a tenant nothing is indexed, nor found.
      const none = await appTransaction(pool, (tx) =>
        webMemories(tx, { project: null, words: 'quince', type: null, before: null, limit: 50 }),
      );
      expect(none.items).toEqual([]);
      const pulled = await alice.pull(projectId, 0, 100);
      expect(pulled.records.map((r) => r.id)).toEqual(['obs_old', 'obs_sealed', 'obs_forgotten', 'obs_new']);
    } finally {
      await pool.end();
      await server.close();
    }
  }, 60_000);

  it('numbers new rows above every search mark after a restore into a new cluster', async () => {
    const server = await startTestTeamServer(postgres);
    const pool = createPool(server.databaseUrl, 2);
    try {
      const admin = createTeamApi({ server: server.url, token: server.adminToken });
      const { token } = await admin.addUser({ name: 'alice' });
      const { project } = await admin.grant({
        user: 'alice',
        project: 'https://git.example.com/team/restored.git',
        role: 'writer',
      });
      const alice = createTeamApi({ server: server.url, token });
      await alice.push(project, [memoryRecord('obs_before', 'Persimmon cache before the restore')]);
      const search = (words: string) =>
        appTransaction(pool, async (tx) => {
          await tx.query('SELECT * FROM engram_auth($1)', [tokenHash(token)]);
          const r = await webMemories(tx, { project, words, type: null, before: null, limit: 50 });
          return r.items.map((m) => m.id).sort();
        });
      expect(await search('persimmon')).toEqual(['obs_before']);
      // What a restore into a new cluster looks like: the mark (a horizon of the old cluster's
      // transaction ids) far above where this cluster's transaction ids number new rows.
      const far = 1_000_000_000_000;
      await postgres.query(server.databaseUrl, 'UPDATE memory_word_marks SET seq = $1', [far]);
      expect(await ensureSeqBase(pool)).not.toBeNull();
      await alice.push(project, [memoryRecord('obs_after', 'Persimmon cache after the restore')]);
      const seq = await postgres.query<{ seq: string }>(
        server.databaseUrl,
        `SELECT seq FROM entities WHERE entity_id = 'obs_after'`,
      );
      expect(Number(seq.rows[0]?.seq)).toBeGreaterThan(far);
      expect(await search('persimmon')).toEqual(['obs_after', 'obs_before']);
    } finally {
      await pool.end();
      await server.close();
    }
  }, 60_000);

  it('a search indexing a memory while a push replaces it never leaves the older words behind', async () => {
    const server = await startTestTeamServer(postgres);
    const pool = createPool(server.databaseUrl, 2);
    const indexer = await pool.connect();
    try {
      const admin = createTeamApi({ server: server.url, token: server.adminToken });
      const { token } = await admin.addUser({ name: 'alice' });
      const { project } = await admin.grant({
        user: 'alice',
        project: 'https://git.example.com/team/race.git',
        role: 'writer',
      });
      const alice = createTeamApi({ server: server.url, token });
      await alice.push(project, [memoryRecord('obs_race', 'Tamarind rollout notes')]);
      // A search's index run has written version 1's words and not committed yet…
      await indexer.query('BEGIN; SET LOCAL ROLE engram_app');
      await indexer.query('SELECT * FROM engram_auth($1)', [tokenHash(token)]);
      await indexer.query('SELECT engram_index_words($1)', [project]);
      // …when a forget --match pushes version 2 without the word: its push waits for the run's row.
      const redacted = { ...memoryRecord('obs_race', '[erased] rollout notes'), baseVersion: 1 };
      const pushing = alice.push(project, [redacted]);
      await new Promise((r) => setTimeout(r, 300));
      await indexer.query('COMMIT');
      expect((await pushing).results[0]).toMatchObject({ status: 'accepted', version: 2 });
      const row = await postgres.query(
        server.databaseUrl,
        `SELECT version, words FROM memory_words WHERE entity_id = 'obs_race'`,
      );
      expect(row.rows).toEqual([{ version: 2, words: null }]);
      const search = (words: string) =>
        appTransaction(pool, async (tx) => {
          await tx.query('SELECT * FROM engram_auth($1)', [tokenHash(token)]);
          const r = await webMemories(tx, { project, words, type: null, before: null, limit: 50 });
          return r.items.map((m) => m.title);
        });
      expect(await search('tamarind')).toEqual([]);
      expect(await search('rollout')).toEqual(['[erased] rollout notes']);
    } finally {
      indexer.release();
      await pool.end();
      await server.close();
    }
  }, 60_000);
});
