/**
 * The audit chain found intact, then broken by SQL edits and deletes; and many pushers and pullers
 * on one project at once: every puller receives every row exactly once, in sequence order.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startTestPostgres,
  startTestTeamServer,
  type TestPostgres,
  type TestTeamServer,
} from '../../test/support/team-postgres.ts';
import { createTeamApi, type TeamApi } from './api-client.ts';
import { memoryRecord as memory } from './records.test-support.ts';

let pg: TestPostgres;

beforeAll(async () => {
  pg = await startTestPostgres();
}, 120_000);
afterAll(async () => {
  await pg?.stop();
});

async function teamWith(
  users: string[],
): Promise<{ server: TestTeamServer; admin: TeamApi; apis: TeamApi[]; project: string }> {
  const server = await startTestTeamServer(pg);
  const admin = createTeamApi({ server: server.url, token: server.adminToken });
  const apis: TeamApi[] = [];
  let project = '';
  for (const name of users) {
    const { token } = await admin.addUser({ name });
    project = (
      await admin.grant({ user: name, project: 'https://git.example.com/team/app.git', role: 'writer' })
    ).project;
    apis.push(createTeamApi({ server: server.url, token }));
  }
  return { server, admin, apis, project };
}

describe('audit log', () => {
  it('records reads and writes, verifies untouched, and fails after an UPDATE or a DELETE in SQL', async () => {
    const { server, admin, apis, project } = await teamWith(['ann', 'ben']);
    const [ann, ben] = apis as [TeamApi, TeamApi];
    await ann.push(project, [memory('obs_a1'), memory('obs_a2')]);
    await ben.pull(project, 0);
    await ben.states(project);
    const entries = await admin.audit({ project: 'https://git.example.com/team/app.git', limit: 100 });
    expect(entries.map((e) => `${e.user} ${e.action}`).reverse()).toEqual([
      'admin member.grant',
      'admin member.grant',
      'ann records.push',
      'ben records.pull',
      'ben state.read',
    ]);
    expect(entries.every((e) => e.requestId && e.device)).toBe(true);
    const intact = await admin.verifyAudit();
    expect(intact.ok).toBe(true);
    expect(intact.chains.map((c) => c.chain).sort()).toEqual([project, 'server'].sort());

    // Changed in SQL (as the owner: the application role may not update it at all).
    await pg.query(
      server.databaseUrl,
      `UPDATE audit_log SET user_name = 'mallory' WHERE chain = $1 AND seq = 3`,
      [project],
    );
    const changed = await admin.verifyAudit();
    expect(changed.ok).toBe(false);
    expect(changed.chains.find((c) => c.chain === project)?.problems).toEqual([
      'row 3: its content does not match its hash (changed)',
    ]);
    await pg.query(
      server.databaseUrl,
      `UPDATE audit_log SET user_name = 'ann' WHERE chain = $1 AND seq = 3`,
      [project],
    );
    expect((await admin.verifyAudit()).ok).toBe(true);

    // A row deleted in the middle, and one at the end.
    await pg.query(server.databaseUrl, `DELETE FROM audit_log WHERE chain = $1 AND seq = 2`, [project]);
    const gap = await admin.verifyAudit();
    expect(gap.ok).toBe(false);
    expect(gap.chains.find((c) => c.chain === project)?.problems).toEqual([
      'row 3: does not follow the row before it (a row was removed or changed)',
    ]);
    const server2 = await teamWith(['cat']);
    const [cat] = server2.apis as [TeamApi];
    await cat.pull(server2.project, 0);
    await pg.query(
      server2.server.databaseUrl,
      `DELETE FROM audit_log WHERE chain = $1 AND seq = (SELECT max(seq) FROM audit_log WHERE chain = $1)`,
      [server2.project],
    );
    const tail = await server2.admin.verifyAudit();
    expect(tail.chains.find((c) => c.chain === server2.project)?.problems).toEqual([
      'the chain ends at row 1 but its head says 2 (rows at the end were removed or changed)',
    ]);
    await server.close();
    await server2.server.close();
  });
});

describe('concurrent pushers and pullers on one project', () => {
  it('every puller receives every row exactly once, in sequence order', async () => {
    const { server, apis, project } = await teamWith(['p1', 'p2', 'p3', 'p4', 'r1', 'r2', 'r3']);
    const pushers = apis.slice(0, 4);
    const pullers = apis.slice(4);
    const BATCHES = 8;
    const PER_BATCH = 15;
    const total = pushers.length * BATCHES * PER_BATCH;
    let pushing = true;
    const pushAll = Promise.all(
      pushers.map(async (api, p) => {
        for (let b = 0; b < BATCHES; b++) {
          const records = Array.from({ length: PER_BATCH }, (_, i) => memory(`obs_p${p}_b${b}_${i}`));
          const res = await api.push(project, records);
          expect(res.results.every((r) => r.status === 'accepted')).toBe(true);
        }
      }),
    ).finally(() => {
      pushing = false;
    });
    const pullAll = pullers.map(async (api) => {
      const seen: string[] = [];
      const seqs: number[] = [];
      let cursor = 0;
      // Pull while pushes run, then until the head is reached; bounded.
      for (let round = 0; round < 10_000; round++) {
        const stillPushing = pushing;
        const page = await api.pull(project, cursor, 7);
        for (const r of page.records) {
          seen.push(r.id);
          seqs.push(r.seq);
        }
        cursor = page.records.at(-1)?.seq ?? cursor;
        if (!stillPushing && !page.more && cursor >= page.head) break;
      }
      return { seen, seqs };
    });
    await pushAll;
    const results = await Promise.all(pullAll);
    for (const { seen, seqs } of results) {
      expect(seen.length).toBe(total);
      expect(new Set(seen).size).toBe(total);
      expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
      expect(new Set(seqs).size).toBe(total);
    }
    await server.close();
  });
});
