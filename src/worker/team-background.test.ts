import { spawnSync } from 'node:child_process';
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
import { ownStamp, processStart } from '../store/process-identity.ts';
import { insertMemory } from '../store/store.test-support.ts';
import { createStore, type Store } from '../store/store.ts';
import { createTeamApi } from '../team/api-client.ts';
import { shareProject, syncInBackground, syncOnce, type TeamSyncDeps } from './team-sync.ts';

const KEY = 'git:github.com/acme/shop';
const PROJECT = projectIdFromKey(KEY) as ProjectId;

let pg: TestPostgres;
let server: TestTeamServer;
let store: Store;
let deps: TeamSyncDeps;
let dir: string;
let commit = 'a1b2c3d';

beforeAll(async () => {
  pg = await startTestPostgres();
  server = await startTestTeamServer(pg);
  const admin = createTeamApi({ server: server.url, token: server.adminToken });
  const { token } = await admin.addUser({ name: 'alice', device: 'alice-laptop' });
  await admin.grant({ user: 'alice', project: 'git@github.com:acme/shop.git', role: 'writer' });
  dir = mkdtempSync(join(tmpdir(), 'engram-bg-'));
  store = createStore(openDatabase(join(dir, 'engram.db')));
  shareProject(store, { id: PROJECT, name: 'shop', root: dir }, Date.now());
  deps = {
    store,
    api: createTeamApi({ server: server.url, token }),
    logger: createMemoryLogger(),
    clock: systemClock,
    me: 'alice',
    device: 'alice-laptop',
    readState: async (_root, now) => ({ branch: 'main', commit, files: [], fileCount: 0, at: now }),
  };
}, 120_000);
afterAll(async () => {
  store?.close();
  await server?.close();
  await pg?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const serverCommit = async () =>
  (
    await pg.query<{ commit_sha: string }>(
      server.databaseUrl,
      `SELECT commit_sha FROM states WHERE device = 'alice-laptop'`,
    )
  ).rows.map((r) => r.commit_sha);

const onServer = async (title: string) =>
  (
    await pg.query<{ n: number }>(
      server.databaseUrl,
      `SELECT count(*)::int AS n FROM entities WHERE body->>'title' = $1`,
      [title],
    )
  ).rows[0]?.n;

describe('when team sync runs', () => {
  it('a sync asked for sends the project state every time; background sync at most every 5 minutes', async () => {
    expect(store.team.syncedAt(PROJECT)).toBeNull();
    await syncOnce({ ...deps, stateEveryMs: 0 });
    expect(await serverCommit()).toEqual(['a1b2c3d']);
    const syncedAt = store.team.syncedAt(PROJECT);
    expect(syncedAt).toEqual(expect.any(Number));
    commit = 'b2c3d4e';
    await syncOnce(deps);
    expect(await serverCommit()).toEqual(['a1b2c3d']);
    await syncOnce({ ...deps, stateEveryMs: 0 });
    expect(await serverCommit()).toEqual(['b2c3d4e']);
    expect(store.team.syncedAt(PROJECT)).toBeGreaterThanOrEqual(syncedAt as number);
  });

  it('two live processes do not both sync in the background; a dead holder frees the lease', async () => {
    insertMemory(store, { projectId: PROJECT, title: 'Deploy with the blue-green script' });
    // Another live engram process (this test's parent) holds the lease.
    const other = { pid: process.ppid, start: processStart(process.ppid) };
    store.team.setMeta('sync_lease', JSON.stringify({ ...other, until: Date.now() + 60_000 }));
    const skipped = await syncInBackground(deps, ownStamp());
    expect(skipped.projects).toBe(0);
    expect(await onServer('Deploy with the blue-green script')).toBe(0);
    // It died without releasing the lease (a pid that has exited): the next process takes over.
    const dead = spawnSync(process.execPath, ['-e', '0']).pid as number;
    store.team.setMeta('sync_lease', JSON.stringify({ pid: dead, start: null, until: Date.now() + 60_000 }));
    const ran = await syncInBackground(deps, ownStamp());
    expect(ran.projects).toBe(1);
    expect(await onServer('Deploy with the blue-green script')).toBe(1);
    // Released once done: the other process may take it now.
    expect(store.team.meta('sync_lease')).toBe('');
  });
});
