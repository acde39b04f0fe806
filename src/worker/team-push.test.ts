/**
 * Pushing to the real team server (embedded PostgreSQL) when some records cannot be taken: a record
 * the server refuses is found, set aside with its reason, and every other record still goes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startTestPostgres,
  startTestTeamServer,
  type TestPostgres,
  type TestTeamServer,
} from '../../test/support/team-postgres.ts';
import { projectIdFromKey, type ProjectId } from '../core/ids.ts';
import { createMemoryLogger, systemClock } from '../core/ports.ts';
import { openDatabase } from '../store/database.ts';
import { insertMemory } from '../store/store.test-support.ts';
import { createStore, type Store } from '../store/store.ts';
import { createTeamApi } from '../team/api-client.ts';
import { shareProject, syncOnce } from './team-sync.ts';

const KEY = 'git:github.com/acme/shop';
const PROJECT = projectIdFromKey(KEY) as ProjectId;

let pg: TestPostgres;
let server: TestTeamServer;
const dirs: string[] = [];
const stores: Store[] = [];

beforeAll(async () => {
  pg = await startTestPostgres();
  server = await startTestTeamServer(pg);
}, 120_000);
afterAll(async () => {
  for (const s of stores) s.close();
  await server?.close();
  await pg?.stop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A machine of a new team member, sharing the project. */
async function machine(name: string) {
  const admin = createTeamApi({ server: server.url, token: server.adminToken });
  const { token } = await admin.addUser({ name, device: `${name}-laptop` });
  await admin.grant({ user: name, project: 'git@github.com:acme/shop.git', role: 'writer' });
  const dir = mkdtempSync(join(tmpdir(), `engram-${name}-`));
  dirs.push(dir);
  const store = createStore(openDatabase(join(dir, 'engram.db')));
  stores.push(store);
  shareProject(store, { id: PROJECT, name: 'shop', root: dir }, Date.now());
  const api = createTeamApi({ server: server.url, token });
  const sync = () =>
    syncOnce({ store, api, logger: createMemoryLogger(), clock: systemClock, me: name, pushBatch: 50 });
  return { store, sync };
}

const onServer = async (ids: string[]) =>
  (
    await pg.query<{ entity_id: string }>(
      server.databaseUrl,
      `SELECT entity_id FROM entities WHERE entity_id = ANY($1) ORDER BY entity_id`,
      [ids],
    )
  ).rows.map((r) => r.entity_id);

const memories = (store: Store, titles: string[]) =>
  titles.map((title) => insertMemory(store, { projectId: PROJECT, title, draft: { type: 'decision' } }));

describe('a push the server refuses', () => {
  it('a memory holding a NUL (stored before cleaning existed) stays here with the reason; the rest is pushed', async () => {
    const alice = await machine('alice');
    const ids = memories(alice.store, [
      'Prices are integer cents',
      'Migrations run in CI only',
      'The API listens on 9090',
      'Use pnpm workspaces',
    ]);
    const bad = ids[1] as string;
    // An older store's text: written around today's cleaning, as no writer would now.
    alice.store.db
      .prepare('UPDATE observations SET narrative = ? WHERE id = ?')
      .run('psql output: \u0000\u0000 binary', bad);

    const report = await alice.sync();
    expect(report.errors).toEqual([]);
    expect(report.pushed.accepted).toBe(3);
    expect(report.blocked).toEqual([{ id: bad, reason: expect.stringMatching(/NUL character/) }]);
    expect(await onServer(ids)).toEqual(ids.filter((id) => id !== bad).sort());
    // What `engram team status` lists as held back.
    expect(alice.store.team.blocked()).toEqual([
      expect.objectContaining({ entityId: bad, reason: expect.stringMatching(/NUL character/) }),
    ]);
    expect((await alice.sync()).errors).toEqual([]);

    // Edited through the mutation path, its text is clean and it goes.
    alice.store.memory.edit(bad, { narrative: 'psql output:  binary' }, { origin: 'cli', at: 2 });
    const again = await alice.sync();
    expect(again.pushed.accepted).toBe(1);
    expect(alice.store.team.blocked()).toEqual([]);
    expect(await onServer([bad])).toEqual([bad]);
  });

  it('a batch refused whole (a link id longer than the protocol takes) is split until that link stands alone', async () => {
    const bob = await machine('bob');
    const ids = memories(bob.store, ['Build with esbuild', 'Tests use vitest', 'Lint before commit']);
    const deep = `${'node_modules/.pnpm/x/'.repeat(70)}index.js`;
    bob.store.memory.link(ids[0] as string, 'touches', deep, PROJECT, { origin: 'cli', at: 1 });

    const report = await bob.sync();
    expect(report.errors).toEqual([]);
    expect(report.blocked).toEqual([
      { id: `${ids[0]} touches ${deep}`, reason: expect.stringMatching(/server refused it: .*id/) },
    ]);
    expect(await onServer(ids)).toEqual([...ids].sort());
    expect(bob.store.team.outboxCounts().get(PROJECT) ?? 0).toBe(0);
  });

  it('a record the server fails on (500) is set aside once others get through; a server failing on everything sets nothing aside', async () => {
    const carol = await machine('carol');
    // A server-side fault tied to one record's content (as a NUL was before the server checked it).
    const refuse = (when: string) =>
      pg.query(
        server.databaseUrl,
        `CREATE OR REPLACE FUNCTION refuse_marked() RETURNS trigger LANGUAGE plpgsql AS $$
         BEGIN
           IF ${when} THEN RAISE EXCEPTION 'refused by the test trigger'; END IF;
           RETURN NEW;
         END $$`,
      );
    await refuse(`NEW.body::text LIKE '%cannot-store-me%'`);
    await pg.query(
      server.databaseUrl,
      `CREATE TRIGGER refuse_marked BEFORE INSERT OR UPDATE ON entities
         FOR EACH ROW EXECUTE FUNCTION refuse_marked()`,
    );
    const ids = memories(carol.store, [
      'Cache keys carry the locale',
      'cannot-store-me: the server fails on this one',
      'Feature flags live in flags.ts',
      'Dates are UTC in the database',
      'The worker retries five times',
    ]);
    const report = await carol.sync();
    expect(report.errors).toEqual([]);
    expect(report.blocked).toEqual([
      { id: ids[1], reason: expect.stringMatching(/server refused it: team server: internal error/) },
    ]);
    expect(await onServer(ids)).toEqual(ids.filter((id) => id !== ids[1]).sort());

    // Now the server fails on every write: that is its fault, not the records'.
    await refuse('true');
    const later = memories(carol.store, ['Logs rotate daily', 'Ports come from .env']);
    const failing = await carol.sync();
    expect(failing.errors).toEqual([{ project: PROJECT, error: expect.stringMatching(/internal error/) }]);
    expect(failing.blocked).toEqual([]);
    expect(carol.store.team.blocked().map((b) => b.entityId)).toEqual([ids[1]]);
    expect(carol.store.team.outboxCounts().get(PROJECT)).toBe(2);

    await refuse('false');
    const healed = await carol.sync();
    expect(healed.errors).toEqual([]);
    expect(await onServer(later)).toEqual([...later].sort());
  });
});
