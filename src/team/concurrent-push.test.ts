/**
 * Pushes to one project run side by side (migration 0003): a puller never passes a row that commits
 * after a higher-numbered one, concurrent pushes of one entity still take turns (duplicates and
 * conflicts as before), pullers racing pushers that edit and forget end with the server's exact
 * state, and a restored database keeps numbering above its stored rows.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startTestPostgres,
  startTestTeamServer,
  type TestPostgres,
  type TestTeamServer,
} from '../../test/support/team-postgres.ts';
import { createTeamApi, type TeamApi } from './api-client.ts';
import type { PushRecord } from './protocol.ts';
import { memoryRecord as memory, tombstoneRecord as tombstone } from './records.test-support.ts';

let postgres: TestPostgres;

beforeAll(async () => {
  postgres = await startTestPostgres();
}, 120_000);
afterAll(async () => {
  await postgres?.stop();
});

const REMOTE = 'https://git.example.com/team/app.git';

async function teamWith(
  users: string[],
  db?: string,
): Promise<{
  server: TestTeamServer;
  apis: TeamApi[];
  project: string;
  userIds: string[];
  tokens: string[];
}> {
  const server = await startTestTeamServer(postgres, db === undefined ? {} : { db });
  const admin = createTeamApi({ server: server.url, token: server.adminToken });
  const apis: TeamApi[] = [];
  const userIds: string[] = [];
  const tokens: string[] = [];
  let project = '';
  for (const name of users) {
    const { token, user } = await admin.addUser({ name });
    userIds.push(user.id);
    tokens.push(token);
    project = (await admin.grant({ user: name, project: REMOTE, role: 'writer' })).project;
    apis.push(createTeamApi({ server: server.url, token }));
  }
  return { server, apis, project, userIds, tokens };
}

/** Pull from `cursor` until the puller has every committed row; the ids in the order received. */
async function pullAll(
  api: TeamApi,
  project: string,
  cursor: number,
): Promise<{ ids: string[]; cursor: number }> {
  const ids: string[] = [];
  for (;;) {
    const page = await api.pull(project, cursor, 3);
    ids.push(...page.records.map((r) => r.id));
    cursor = page.records.at(-1)?.seq ?? cursor;
    if (!page.more && cursor >= page.head) return { ids, cursor };
  }
}

describe('pushes to one project side by side', () => {
  it('a puller does not pass a row that commits after a higher-numbered one', async () => {
    const { server, apis, project, userIds } = await teamWith(['ann', 'ben']);
    const [ann, ben] = apis as [TeamApi, TeamApi];
    await ann.push(project, [memory('obs_first')]);
    const start = await pullAll(ben, project, 0);
    expect(start.ids).toEqual(['obs_first']);

    // A slow push, as the server makes it: its number is taken, then it stays open.
    const slow = new pg.Client({ connectionString: server.databaseUrl });
    await slow.connect();
    try {
      await slow.query('BEGIN; SET LOCAL ROLE engram_app');
      await slow.query(
        `SELECT set_config('engram.uid', $1, true), set_config('engram.read', $2, true),
                set_config('engram.write', $2, true)`,
        [userIds[0], project],
      );
      const pos = await slow.query<{ seq: string }>('SELECT engram_push_position() AS seq');
      const rec = memory('obs_slow');
      await slow.query(
        `INSERT INTO entities (project_id, kind, entity_id, seq, version, hash, deleted, body, author_id,
                               author_name, device, origin_name, origin_device)
         VALUES ($1, 'memory', $2, $3, 1, $4, false, $5::jsonb, $6, 'ann', 'box', 'ann', 'box')`,
        [project, rec.id, pos.rows[0]?.seq, rec.hash, JSON.stringify(rec.body), userIds[0]],
      );

      // A later push is numbered above it and commits first.
      const late = await ann.push(project, [memory('obs_late')]);
      expect(late.results.map((r) => r.status)).toEqual(['accepted']);
      const before = await ben.pull(project, start.cursor, 100);
      expect(before.records.map((r) => r.id)).toEqual([]);
      expect(before.head).toBeGreaterThan(Number(pos.rows[0]?.seq));

      await slow.query('COMMIT');
    } finally {
      await slow.end();
    }
    const after = await pullAll(ben, project, start.cursor);
    expect(after.ids).toEqual(['obs_slow', 'obs_late']);
    await server.close();
  });

  it('concurrent pushes of one entity take turns: one accepted, the rest duplicates or conflicts', async () => {
    const names = ['u1', 'u2', 'u3', 'u4', 'u5', 'u6'];
    const { server, apis, project } = await teamWith(names);
    const same = memory('obs_same', 'the same text');
    const first = await Promise.all(apis.map((api) => api.push(project, [same])));
    const statuses = first.map((r) => r.results[0]?.status).sort();
    expect(statuses).toEqual(['accepted', 'duplicate', 'duplicate', 'duplicate', 'duplicate', 'duplicate']);
    expect(first.every((r) => r.results[0]?.version === 1)).toBe(true);

    // Six different edits of version 1: one becomes version 2, the others conflict with it.
    const edits = await Promise.all(
      apis.map((api, i) => api.push(project, [{ ...memory('obs_same', `edit ${i}`), baseVersion: 1 }])),
    );
    const outcome = edits.map((r) => r.results[0]);
    expect(outcome.filter((r) => r?.status === 'accepted').map((r) => r?.version)).toEqual([2]);
    expect(outcome.filter((r) => r?.status === 'conflict')).toHaveLength(names.length - 1);
    const winner = outcome.findIndex((r) => r?.status === 'accepted');
    const pulled = await apis[0]?.pull(project, 0, 10);
    expect(pulled?.records.map((r) => [r.id, r.version, (r.body as { title: string }).title])).toEqual([
      ['obs_same', 2, `edit ${winner}`],
    ]);
    await server.close();
  });

  it('pullers racing pushers that edit and forget end with exactly the server’s rows', async () => {
    const { server, apis, project } = await teamWith(['p1', 'p2', 'p3', 'r1', 'r2']);
    const pushers = apis.slice(0, 3);
    const pullers = apis.slice(3);
    const ROUNDS = 6;
    let pushing = true;
    const expected = new Map<string, { version: number; deleted: boolean }>();
    const pushAll = Promise.all(
      pushers.map(async (api, p) => {
        for (let round = 0; round < ROUNDS; round++) {
          // New memories, a new version of last round's first one, and a forget of its second.
          const records: PushRecord[] = Array.from({ length: 10 }, (_, i) =>
            memory(`obs_${p}_${round}_${i}`),
          );
          if (round > 0) {
            records.push({
              ...memory(`obs_${p}_${round - 1}_0`, `edited in round ${round}`),
              baseVersion: 1,
            });
            records.push(tombstone(`obs_${p}_${round - 1}_1`));
          }
          const res = await api.push(project, records);
          expect(res.results.every((r) => r.status === 'accepted')).toBe(true);
          for (const [i, r] of res.results.entries())
            expected.set(r.id, { version: r.version, deleted: records[i]?.deleted === true });
        }
      }),
    ).finally(() => {
      pushing = false;
    });
    const pulls = pullers.map(async (api) => {
      const state = new Map<string, { version: number; deleted: boolean }>();
      const received = new Set<string>();
      const seqs: number[] = [];
      let cursor = 0;
      for (;;) {
        const stillPushing = pushing;
        const page = await api.pull(project, cursor, 4);
        for (const r of page.records) {
          const key = `${r.id}@${r.version}`;
          expect(received.has(key)).toBe(false);
          received.add(key);
          seqs.push(r.seq);
          state.set(r.id, { version: r.version, deleted: r.deleted });
        }
        cursor = page.records.at(-1)?.seq ?? cursor;
        if (!stillPushing && !page.more && cursor >= page.head) return { state, seqs };
      }
    });
    await pushAll;
    for (const { state, seqs } of await Promise.all(pulls)) {
      expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
      expect(new Map([...state].sort())).toEqual(new Map([...expected].sort()));
    }
    expect(expected.size).toBe(3 * ROUNDS * 10);
    await server.close();
  });

  it('an id held by another project the member writes is not that project’s: versions, duplicates and conflicts stay per project', async () => {
    const { server, apis, project } = await teamWith(['ann']);
    const admin = createTeamApi({ server: server.url, token: server.adminToken });
    const other = (
      await admin.grant({ user: 'ann', project: 'https://git.example.com/team/lib.git', role: 'writer' })
    ).project;
    const ann = apis[0] as TeamApi;
    const first = memory('obs_same', 'in the first project');
    expect((await ann.push(project, [first])).results[0]).toMatchObject({ status: 'accepted', version: 1 });
    const edited = memory('obs_same', 'edited in the first project');
    expect((await ann.push(project, [{ ...edited, baseVersion: 1 }])).results[0]).toMatchObject({
      status: 'accepted',
      version: 2,
    });
    // The same record in the other project: new there (not a duplicate), version 1 (not 3).
    expect((await ann.push(other, [first])).results[0]).toMatchObject({ status: 'accepted', version: 1 });
    // A stale base in the other project conflicts with its own version, not the first project's.
    expect((await ann.push(other, [{ ...edited, baseVersion: 2 }])).results[0]).toMatchObject({
      status: 'conflict',
      version: 1,
    });
    expect((await ann.push(other, [first])).results[0]).toMatchObject({ status: 'duplicate', version: 1 });
    await server.close();
  });

  it('keeps numbering above the stored rows after a restore into a new cluster', async () => {
    const first = await teamWith(['ann']);
    const [ann] = first.apis as [TeamApi];
    await ann.push(first.project, [memory('obs_old')]);
    // As after a restore: stored numbers far above this cluster's transaction ids.
    const HIGH = 2 ** 50;
    await postgres.query(first.server.databaseUrl, 'UPDATE entities SET seq = seq + $1', [HIGH]);
    await first.server.close();

    const again = await startTestTeamServer(postgres, { db: first.server.databaseUrl });
    expect(again.logger.lines.some((l) => l.startsWith('warn sequence numbers rebased'))).toBe(true);
    const api = createTeamApi({ server: again.url, token: first.tokens[0] as string });
    const old = await pullAll(api, first.project, 0);
    expect(old.ids).toEqual(['obs_old']);
    expect(old.cursor).toBeGreaterThan(HIGH);
    await api.push(first.project, [memory('obs_new')]);
    expect((await pullAll(api, first.project, old.cursor)).ids).toEqual(['obs_new']);
    await again.close();
    // A start with nothing to raise leaves the base alone.
    const third = await startTestTeamServer(postgres, { db: first.server.databaseUrl });
    expect(third.logger.lines.some((l) => l.includes('rebased'))).toBe(false);
    await third.close();
  });
});
