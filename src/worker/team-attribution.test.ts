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
import { renderSessionContext } from '../recall/render-context.ts';
import { openDatabase } from '../store/database.ts';
import { insertMemory } from '../store/store.test-support.ts';
import { createStore, type Store } from '../store/store.ts';
import { createTeamApi, type TeamApi } from '../team/api-client.ts';
import { recordHash } from '../team/record-hash.ts';
import { memoryBody } from './team-records.ts';
import { shareProject, syncOnce } from './team-sync.ts';

const KEY = 'git:github.com/acme/shop';
const PROJECT = projectIdFromKey(KEY) as ProjectId;
const HOUR = 3_600_000;

let pg: TestPostgres;
let server: TestTeamServer;
const dirs: string[] = [];

interface Machine {
  store: Store;
  api: TeamApi;
  project: Project;
  sync(): Promise<unknown>;
}

async function machine(user: string): Promise<Machine> {
  const admin = createTeamApi({ server: server.url, token: server.adminToken });
  const { token } = await admin.addUser({ name: user, device: `${user}-laptop` });
  await admin.grant({ user, project: 'git@github.com:acme/shop.git', role: 'writer' });
  const dir = mkdtempSync(join(tmpdir(), `engram-${user}-`));
  dirs.push(dir);
  const store = createStore(openDatabase(join(dir, 'engram.db')));
  const api = createTeamApi({ server: server.url, token });
  shareProject(store, { id: PROJECT, name: 'shop', root: dir }, Date.now());
  const project = { id: PROJECT, name: 'shop', key: KEY, root: dir };
  const sync = () =>
    syncOnce({
      store,
      api,
      logger: createMemoryLogger(),
      clock: systemClock,
      me: user,
      device: `${user}-laptop`,
    });
  return { store, api, project, sync };
}

/** A session captured on this machine (its session row) with its summary, at `at`. */
function session(m: Machine, id: string, at: number, request: string, nextSteps: string): void {
  m.store.sessions.touch(m.project, { id, cwd: m.project.root, transcriptPath: null }, 'SessionStart', at);
  m.store.memory.saveSummary(
    id,
    PROJECT,
    {
      request,
      investigated: '',
      learned: '',
      completed: 'State: branch main at abc1234',
      nextSteps,
      filesRead: [],
      filesEdited: [],
      notes: '',
    },
    true,
    { origin: 'hook', at },
    at,
  );
}

const startOf = (m: Machine) =>
  renderSessionContext(m.store, {
    project: m.project,
    sessionId: 'new-session',
    source: 'startup',
    now: Date.now(),
    budgetTokens: 2400,
    recentCount: 20,
  }).text;

/** The lines of one section of the SessionStart text, up to the next blank line. */
const section = (text: string, heading: RegExp) => {
  const lines = text.split('\n');
  const from = lines.findIndex((l) => heading.test(l));
  if (from === -1) return '';
  const to = lines.findIndex((l, i) => i > from && l === '');
  return lines.slice(from, to === -1 ? undefined : to).join('\n');
};

beforeAll(async () => {
  pg = await startTestPostgres();
  server = await startTestTeamServer(pg);
}, 120_000);
afterAll(async () => {
  await server?.close();
  await pg?.stop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('team memories keep their author, machine and standing', () => {
  let alice: Machine;
  let bob: Machine;
  let decision: string;

  it("a teammate's newer session is listed under their name, never as this machine's last session", async () => {
    alice = await machine('alice');
    bob = await machine('bob');
    const now = Date.now();
    session(bob, 'b-1', now - 30 * HOUR, 'Speed up the product search', 'add an index on products.name');
    session(alice, 'a-1', now - 2 * HOUR, 'Migrate payments to the new API', 'remove the old client');
    await alice.sync();
    await bob.sync();
    await alice.sync();
    const text = startOf(bob);
    const last = section(text, /^Last session/);
    expect(last).toContain('Speed up the product search');
    expect(last).toContain('add an index on products.name');
    expect(last).not.toContain('payments');
    expect(section(text, /^Teammates' sessions/)).toMatch(
      /- alice on alice-laptop, 2h ago: Migrate payments to the new API \(State: branch main at abc1234\); their next steps: remove the old client/,
    );
    // Alice's own index is unchanged by bob's pulled session: hers is the last one.
    const hers = startOf(alice);
    expect(section(hers, /^Last session/)).toContain('Migrate payments');
    expect(section(hers, /^Teammates' sessions/)).toContain('bob on bob-laptop, 30h ago: Speed up');
  });

  it('standing (pinned) knowledge arrives standing, attributed; unpinned by its author, it stops being standing', async () => {
    decision = insertMemory(alice.store, {
      projectId: PROJECT,
      title: 'Use pnpm workspaces for every package',
      draft: { type: 'decision' },
    });
    alice.store.memory.pin(decision, true, { origin: 'cli', at: Date.now() });
    const fact = insertMemory(alice.store, {
      projectId: PROJECT,
      title: 'The staging database is reset nightly',
      draft: { type: 'fact' },
    });
    await alice.sync();
    await bob.sync();
    expect(bob.store.observations.get(decision)?.pinned).toBe(true);
    expect(bob.store.observations.get(fact)?.pinned).toBe(false);
    const standing = section(startOf(bob), /^Standing knowledge/);
    expect(standing).toMatch(
      new RegExp(`${decision} \\[decision\\] Use pnpm workspaces for every package · from alice, `),
    );
    expect(standing).not.toContain(fact);
    alice.store.memory.pin(decision, false, { origin: 'cli', at: Date.now() });
    await alice.sync();
    await bob.sync();
    expect(bob.store.observations.get(decision)?.pinned).toBe(false);
    expect(section(startOf(bob), /^Standing knowledge/)).toBe('');
  });

  it("a teammate's edit keeps a memory its author's, on every machine and on a new one", async () => {
    const id = insertMemory(alice.store, {
      projectId: PROJECT,
      title: 'Releases are cut from the release branch',
      draft: { type: 'fact', narrative: 'cut from release' },
      createdAt: Date.now() - 2 * HOUR,
    });
    await alice.sync();
    await bob.sync();
    bob.store.memory.edit(
      id,
      { narrative: 'cut from release, tagged vX.Y.Z' },
      { origin: 'cli', at: Date.now() },
    );
    await bob.sync();
    await alice.sync();
    expect(alice.store.observations.get(id)?.narrative).toBe('cut from release, tagged vX.Y.Z');
    const line = (m: Machine) =>
      startOf(m)
        .split('\n')
        .find((l) => l.includes(id)) ?? '';
    expect(line(alice)).not.toMatch(/from (alice|bob)/);
    expect(line(bob)).toContain('from alice, 2h ago');
    const carol = await machine('carol');
    await carol.sync();
    expect(line(carol)).toContain('from alice, 2h ago');
    const row = await pg.query(
      server.databaseUrl,
      'SELECT author_name, device, origin_name, origin_device FROM entities WHERE entity_id = $1',
      [id],
    );
    expect(row.rows).toEqual([
      { author_name: 'bob', device: 'bob-laptop', origin_name: 'alice', origin_device: 'alice-laptop' },
    ]);
  });

  it('a body field this version does not know is kept by the server and passed on; clients still apply it', async () => {
    const id = insertMemory(alice.store, { projectId: PROJECT, title: 'Deploys go out on Tuesdays' });
    const o = alice.store.observations.get(id);
    if (!o) throw new Error('no memory');
    const body = { ...memoryBody(o, null), trust: 'user', someday: { nested: [1, 2] } };
    const pushed = await alice.api.push(PROJECT, [
      {
        kind: 'memory',
        id,
        baseVersion: null,
        hash: recordHash('memory', id, false, body),
        deleted: false,
        body,
      },
    ]);
    expect(pushed.results[0]?.status).toBe('accepted');
    const kept = await pg.query<{ trust: string; someday: unknown }>(
      server.databaseUrl,
      `SELECT body->>'trust' AS trust, body->'someday' AS someday FROM entities WHERE entity_id = $1`,
      [id],
    );
    expect(kept.rows).toEqual([{ trust: 'user', someday: { nested: [1, 2] } }]);
    const page = await bob.api.pull(PROJECT, 0);
    expect(page.records.find((r) => r.id === id)?.body).toMatchObject({ trust: 'user' });
    await bob.sync();
    expect(bob.store.observations.get(id)?.title).toBe('Deploys go out on Tuesdays');
  });
});
