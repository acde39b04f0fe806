/**
 * Three machines converge after a project move on one of them, against the real team server on a real
 * PostgreSQL: alice renames the shared project, the server copies its records, bob and carol follow
 * at their next sync (a memory bob made before he heard of the move included), nothing is duplicated,
 * authors stay, and a forget made after the move still reaches everyone.
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
import type { Project } from '../core/model.ts';
import { createMemoryLogger, systemClock } from '../core/ports.ts';
import { fileNodeId } from '../graph/node-ids.ts';
import { openDatabase } from '../store/database.ts';
import { insertMemory } from '../store/store.test-support.ts';
import { createStore, type Store } from '../store/store.ts';
import { createTeamApi } from '../team/api-client.ts';
import type { Scope } from '../team/protocol.ts';
import { shareProject, syncOnce, type SyncReport } from './team-sync.ts';

const OLD_KEY = 'git:github.com/acme/shop';
const OLD = projectIdFromKey(OLD_KEY) as ProjectId;
const NEW_KEY = 'name:storefront';
const NEW = projectIdFromKey(NEW_KEY) as ProjectId;

let pg: TestPostgres;
let server: TestTeamServer;
const dirs: string[] = [];

interface Machine {
  user: string;
  store: Store;
  project: Project;
  sync(): Promise<SyncReport>;
}

async function machine(user: string, role: 'writer' | 'admin'): Promise<Machine> {
  const admin = createTeamApi({ server: server.url, token: server.adminToken });
  await admin.addUser({ name: user, device: `${user}-laptop` });
  // A project admin's token carries the admin scope (moving a project manages it).
  const scopes: Scope[] = role === 'admin' ? ['read', 'write', 'admin'] : ['read', 'write'];
  const { token } = await admin.createToken({ user, device: `${user}-laptop`, scopes });
  await admin.grant({ user, project: 'git@github.com:acme/shop.git', role });
  // The new name exists on the server with everyone's role before the move (an admin's grant makes it).
  await admin.grant({ user, project: NEW_KEY, role });
  const dir = mkdtempSync(join(tmpdir(), `engram-move-${user}-`));
  dirs.push(dir);
  const store = createStore(openDatabase(join(dir, 'engram.db')));
  const project = { id: OLD, name: 'shop', key: OLD_KEY, root: dir };
  store.sessions.touch(
    project,
    { id: `${user}-s1`, cwd: dir, transcriptPath: null },
    'SessionStart',
    Date.now(),
  );
  shareProject(store, { id: OLD, name: 'shop', root: dir }, Date.now());
  const api = createTeamApi({ server: server.url, token });
  const sync = () =>
    syncOnce({
      store,
      api,
      logger: createMemoryLogger(),
      clock: systemClock,
      me: user,
      device: `${user}-laptop`,
    });
  return { user, store, project, sync };
}

/** Active memories per title, of one project. */
function titles(m: Machine, projectId: string): Record<string, number> {
  const rows = m.store.db
    .prepare(
      `SELECT title, COUNT(*) AS n FROM observations WHERE project_id = ? AND status = 'active' GROUP BY title`,
    )
    .all(projectId) as { title: string; n: number }[];
  return Object.fromEntries(rows.map((r) => [r.title, r.n]));
}

const idOf = (m: Machine, title: string) =>
  (m.store.db.prepare(`SELECT id FROM observations WHERE title = ?`).get(title) as { id: string }).id;

beforeAll(async () => {
  pg = await startTestPostgres();
  server = await startTestTeamServer(pg);
}, 120_000);
afterAll(async () => {
  await server?.close();
  await pg?.stop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('a project move reaches every machine', () => {
  it('three machines converge on the moved project: no duplicates, authors kept, erasure still works', async () => {
    const alice = await machine('alice', 'admin');
    const bob = await machine('bob', 'writer');
    const carol = await machine('carol', 'writer');
    insertMemory(alice.store, { projectId: OLD, title: 'Prices are integer cents', sessionId: 'alice-s1' });
    insertMemory(bob.store, {
      projectId: OLD,
      title: 'Run the linter before committing',
      sessionId: 'bob-s1',
    });
    insertMemory(carol.store, {
      projectId: OLD,
      title: 'Checkout totals round half up',
      sessionId: 'carol-s1',
    });
    for (const m of [alice, bob, carol, alice, bob]) expect((await m.sync()).errors).toEqual([]);
    const before = {
      'Prices are integer cents': 1,
      'Run the linter before committing': 1,
      'Checkout totals round half up': 1,
    };
    for (const m of [alice, bob, carol]) expect(titles(m, OLD)).toEqual(before);

    // alice renames the project (git config engram.project storefront) and moves its memory.
    alice.store.memory.moveProject(
      OLD,
      { id: NEW, name: 'storefront', key: NEW_KEY, root: alice.project.root },
      fileNodeId,
      { origin: 'cli', at: Date.now() },
    );
    // bob, who has not heard of it yet, remembers something in the old project.
    insertMemory(bob.store, { projectId: OLD, title: 'Coupons apply before tax', sessionId: 'bob-s1' });

    const a = await alice.sync();
    expect(a.errors).toEqual([]);
    expect(a.moved).toEqual([expect.objectContaining({ from: OLD, to: NEW, here: true })]);
    const b = await bob.sync();
    expect(b.errors).toEqual([]);
    expect(b.moved).toEqual([
      expect.objectContaining({ from: OLD, to: NEW, name: 'storefront', here: false }),
    ]);
    for (const m of [carol, alice, bob, carol]) expect((await m.sync()).errors).toEqual([]);

    const after = { ...before, 'Coupons apply before tax': 1 };
    for (const m of [alice, bob, carol]) {
      expect(titles(m, NEW), m.user).toEqual(after);
      expect(titles(m, OLD), m.user).toEqual({});
      expect(
        m.store.team.projects().map((p) => p.projectId),
        m.user,
      ).toEqual([NEW]);
    }
    // Everyone holds the same ids (the same memories, not copies), and the authors stayed.
    const ids = (m: Machine) => Object.keys(after).map((t) => idOf(m, t));
    expect(ids(bob)).toEqual(ids(alice));
    expect(ids(carol)).toEqual(ids(alice));
    const authorOn = (m: Machine, title: string) =>
      (
        m.store.db.prepare(`SELECT author FROM team_entities WHERE entity_id = ?`).get(idOf(m, title)) as {
          author: string;
        }
      ).author;
    expect(authorOn(carol, 'Run the linter before committing')).toBe('bob');
    expect(authorOn(bob, 'Checkout totals round half up')).toBe('carol');

    // A forget after the move reaches every machine through the new project.
    const gone = idOf(carol, 'Prices are integer cents');
    expect(carol.store.memory.forget(gone, { origin: 'cli', at: Date.now() })).toBe(true);
    for (const m of [carol, alice, bob]) expect((await m.sync()).errors).toEqual([]);
    for (const m of [alice, bob, carol]) {
      expect(m.store.observations.get(gone)?.status, m.user).toBe('forgotten');
      expect(titles(m, NEW)['Prices are integer cents']).toBeUndefined();
    }
  }, 120_000);
});
