/**
 * A push's batch is written with one statement from one JSON parameter (sync-store): the rows it
 * stores are the ones the per-column arrays stored before — each body exactly its JSON text read as
 * jsonb (so the web view's search words made from it are the same too; team migration 0008 makes them
 * at search time, never in the push), a tombstone's body NULL, the batch's rows
 * numbered in the order pushed, the pusher as author and origin — and pull gives back what was pushed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startTestPostgres,
  startTestTeamServer,
  type TestPostgres,
} from '../../test/support/team-postgres.ts';
import { createTeamApi } from './api-client.ts';
import type { PushRecord } from './protocol.ts';
import {
  linkRecord,
  memoryRecord,
  summaryRecord,
  tombstoneRecord as tombstone,
} from './records.test-support.ts';

let postgres: TestPostgres;

beforeAll(async () => {
  postgres = await startTestPostgres();
}, 120_000);
afterAll(async () => {
  await postgres?.stop();
});

// Text a JSON writer and an array literal each escape differently: quotes, backslashes, braces and
// commas, a control character, line and paragraph separators, an astral character, a NUL spelled out.
const AWKWARD = 'say "hi", {a,b} \\path\\to \u0001 tab\there \u2028\u2029 \u{1F600} é "\\u0000" null';

describe('a push batch written from one JSON parameter', () => {
  it('stores each body as its JSON text read as jsonb, tombstones without one, in the order pushed', async () => {
    const db = await postgres.createDatabase();
    const server = await startTestTeamServer(postgres, { db });
    try {
      const admin = createTeamApi({ server: server.url, token: server.adminToken });
      const { token } = await admin.addUser({ name: 'alice' });
      const { project } = await admin.grant({
        user: 'alice',
        project: 'https://git.example.com/team/app.git',
        role: 'writer',
      });
      const alice = createTeamApi({ server: server.url, token });
      const batch: PushRecord[] = [
        memoryRecord('obs_b', AWKWARD, {
          narrative: `${AWKWARD}\n`.repeat(3),
          facts: [AWKWARD, 'x'],
          createdAt: 9_007_199_254_740_991,
        }),
        memoryRecord('obs_a \u00e9 "quoted" id', 'plain title'),
        summaryRecord('session-1', AWKWARD, { filesEdited: ['src/a,b.ts'] }),
        linkRecord('obs_b', 'relates', 'obs_a'),
        memoryRecord('obs_gone', 'soon forgotten'),
      ];
      const first = await alice.push(project, batch);
      expect(first.results.map((r) => r.status)).toEqual(batch.map(() => 'accepted'));
      const second = await alice.push(project, [tombstone('obs_gone')]);
      expect(second.results[0]).toMatchObject({ status: 'accepted', version: 2 });

      const rows = await postgres.query<{
        kind: string;
        entity_id: string;
        seq: string;
        version: number;
        deleted: boolean;
        body: string | null;
        words: string | null;
        author_name: string;
        origin_name: string;
      }>(
        db,
        `SELECT kind, entity_id, seq, version, deleted, body::text AS body,
                CASE WHEN kind = 'memory' AND NOT deleted THEN engram_memory_words(body)::text END AS words,
                author_name, origin_name FROM entities ORDER BY seq`,
      );
      const byId = new Map(rows.rows.map((r) => [`${r.kind}:${r.entity_id}`, r]));
      for (const rec of batch.slice(0, 4)) {
        const row = byId.get(`${rec.kind}:${rec.id}`);
        // What the earlier write stored: the body's JSON text cast to jsonb, and its words from that.
        const expected = await postgres.query<{ body: string }>(db, 'SELECT $1::jsonb::text AS body', [
          JSON.stringify(rec.body),
        ]);
        expect(row?.body).toBe(expected.rows[0]?.body);
        expect(row).toMatchObject({ version: 1, deleted: false, author_name: 'alice', origin_name: 'alice' });
      }
      const memoryWords = await postgres.query<{ words: string }>(
        db,
        `SELECT to_tsvector('english', $1 || ' ' || '' || ' ' || $2 || ' ' || ($3::jsonb)::text)::text AS words`,
        [AWKWARD, `${AWKWARD}\n`.repeat(3), JSON.stringify([AWKWARD, 'x'])],
      );
      expect(byId.get('memory:obs_b')?.words).toBe(memoryWords.rows[0]?.words);
      // The pushes wrote no words — the first search makes them —, only the forgotten memory's row
      // (version 2, no words), which keeps a search that read version 1 from indexing it again.
      const indexed = await postgres.query(db, 'SELECT entity_id, version, words FROM memory_words');
      expect(indexed.rows).toEqual([{ entity_id: 'obs_gone', version: 2, words: null }]);
      expect(byId.get('memory:obs_gone')).toMatchObject({
        deleted: true,
        body: null,
        words: null,
        version: 2,
      });
      // The first batch's rows are numbered in the order they were pushed (the tombstone came later).
      const firstSeqs = batch.slice(0, 4).map((rec) => Number(byId.get(`${rec.kind}:${rec.id}`)?.seq));
      expect([...firstSeqs].sort((a, b) => a - b)).toEqual(firstSeqs);
      expect(Number(byId.get('memory:obs_gone')?.seq)).toBeGreaterThan(Math.max(...firstSeqs));

      const pulled = await alice.pull(project, 0, 100);
      expect(pulled.records.map((r) => [r.kind, r.id, r.deleted, r.body])).toEqual([
        ...batch.slice(0, 4).map((r) => [r.kind, r.id, false, r.body]),
        ['memory', 'obs_gone', true, null],
      ]);
    } finally {
      await server.close();
    }
  }, 60_000);
});
