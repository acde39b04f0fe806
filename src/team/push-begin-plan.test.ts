/**
 * A push's reads (engram_push_begin) probe the batch's entities by primary key however the project
 * grew after the connection's first pushes (team migration 0010): a plan kept from when the table was
 * small would read every row of the project for each record. Counted in pages read, not in time.
 */
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  startTestPostgres,
  startTestTeamServer,
  type TestPostgres,
} from '../../test/support/team-postgres.ts';
import { createTeamApi } from './api-client.ts';
import { memoryRecord as memory } from './records.test-support.ts';
import { tokenHash } from './token-format.ts';

let postgres: TestPostgres;

beforeAll(async () => {
  postgres = await startTestPostgres();
}, 120_000);
afterAll(async () => {
  await postgres?.stop();
});

it('a connection that pushed while the project was small still probes by key once it is large', async () => {
  const server = await startTestTeamServer(postgres);
  const admin = createTeamApi({ server: server.url, token: server.adminToken });
  const { token } = await admin.addUser({ name: 'ann' });
  const project = (
    await admin.grant({ user: 'ann', project: 'https://git.example.com/a/b.git', role: 'writer' })
  ).project;
  const ann = createTeamApi({ server: server.url, token });
  const session = new pg.Client({ connectionString: server.databaseUrl });
  await session.connect();
  const ids = Array.from({ length: 10 }, (_, k) => `obs_probe_${k}`);
  /** engram_push_begin in a transaction of its own as ann, the way the server calls it; the plan's text. */
  const begin = async (explain: boolean): Promise<string> => {
    await session.query('BEGIN; SET LOCAL ROLE engram_app');
    try {
      await session.query('SELECT * FROM engram_auth($1)', [tokenHash(token)]);
      const r = await session.query<Record<string, string>>(
        `${explain ? 'EXPLAIN (ANALYZE, BUFFERS) ' : ''}SELECT * FROM engram_push_begin($1, $2::text[], $3::text[])`,
        [project, ids.map(() => 'memory'), ids],
      );
      return r.rows.map((row) => Object.values(row).join(' ')).join('\n');
    } finally {
      await session.query('ROLLBACK');
    }
  };
  try {
    // Enough calls on a small project for a plan to be kept for the connection.
    await ann.push(project, [memory('obs_seed')]);
    for (let i = 0; i < 8; i++) await begin(false);
    for (let b = 0; b < 30; b++)
      await ann.push(
        project,
        Array.from({ length: 100 }, (_, k) => memory(`obs_${b}_${k}`)),
      );
    const plan = await begin(true);
    const pages = Number(/Buffers: shared hit=(\d+)/.exec(plan)?.[1] ?? NaN);
    // Ten key probes read a few pages each; reading the project's 3,000 rows would take hundreds.
    expect(pages).toBeLessThan(150);
  } finally {
    await session.end();
    await server.close();
  }
});
