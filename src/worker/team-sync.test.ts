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
import { renderPromptContext, renderSessionContext } from '../recall/render-context.ts';
import { planPush, shareProject, syncOnce, type SyncReport } from './team-sync.ts';

const KEY = 'git:github.com/acme/shop';
const PROJECT = projectIdFromKey(KEY) as ProjectId;
const CLI = { origin: 'cli' as const, at: 1 };

let pg: TestPostgres;
let server: TestTeamServer;
const dirs: string[] = [];

interface Machine {
  name: string;
  store: Store;
  sync(): Promise<SyncReport>;
}

const STATE = {
  branch: 'feat/x',
  commit: 'a1b2c3d',
  files: ['src/a.ts', 'src/b.ts', 'src/c.ts', 'src/d.ts'],
  fileCount: 4,
};

async function machine(user: string, token: string): Promise<Machine> {
  const dir = mkdtempSync(join(tmpdir(), `engram-${user}-`));
  dirs.push(dir);
  const store = createStore(openDatabase(join(dir, 'engram.db')));
  const api = createTeamApi({ server: server.url, token });
  shareProject(store, { id: PROJECT, name: 'shop', root: dir }, Date.now());
  return {
    name: user,
    store,
    sync: () =>
      syncOnce({
        store,
        api,
        logger: createMemoryLogger(),
        clock: systemClock,
        me: user,
        device: `${user}-laptop`,
        readState: async (_root, now) => ({ ...STATE, at: now - 86_400_000 }),
      }),
  };
}

async function member(name: string, role: 'reader' | 'writer' | 'admin' = 'writer'): Promise<Machine> {
  const admin = createTeamApi({ server: server.url, token: server.adminToken });
  const { token } = await admin.addUser({ name, device: `${name}-laptop` });
  await admin.grant({ user: name, project: 'git@github.com:acme/shop.git', role });
  return machine(name, token);
}

const titles = (m: Machine, status = 'active') =>
  (
    m.store.db
      .prepare('SELECT title FROM observations WHERE project_id = ? AND status = ? ORDER BY title')
      .all(PROJECT, status) as { title: string }[]
  ).map((r) => r.title);

beforeAll(async () => {
  pg = await startTestPostgres();
  server = await startTestTeamServer(pg);
}, 120_000);
afterAll(async () => {
  await server?.close();
  await pg?.stop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('team sync between machines', () => {
  let alice: Machine;
  let bob: Machine;
  let carol: Machine;

  it('two machines converge, with authors, and only what was shared leaves', async () => {
    alice = await member('alice');
    bob = await member('bob');
    insertMemory(alice.store, {
      projectId: PROJECT,
      title: 'Use pnpm workspaces',
      draft: { type: 'decision' },
    });
    const pref = insertMemory(alice.store, {
      projectId: PROJECT,
      title: 'I like tabs',
      draft: { type: 'preference' },
    });
    insertMemory(alice.store, {
      projectId: 'prj_00000000000000aa' as ProjectId,
      title: 'Unshared project memory',
    });
    const plan = planPush(alice.store, 'alice');
    expect(plan.filter((p) => p.held === null).map((p) => p.title)).toEqual(['Use pnpm workspaces']);
    expect(plan.find((p) => p.id === pref)?.held).toMatch(/personal preference/);
    const first = await alice.sync();
    expect(first.pushed.accepted).toBe(1);
    const pulled = await bob.sync();
    expect(pulled.applied.created).toBe(1);
    expect(titles(bob)).toEqual(['Use pnpm workspaces']);
    const [id] = bob.store.db.prepare('SELECT id FROM observations').all() as { id: string }[];
    expect(bob.store.team.attributions([id?.id ?? ''])).toEqual(
      new Map([[id?.id, { author: 'alice', device: 'alice-laptop', at: expect.any(Number) }]]),
    );
    // Marking the preference shares it.
    alice.store.team.mark(pref, 1);
    alice.store.team.enqueue('memory', pref, PROJECT, 2);
    await alice.sync();
    await bob.sync();
    expect(titles(bob)).toEqual(['I like tabs', 'Use pnpm workspaces']);
  });

  it('three machines converge on edits, new memories, supersede and invalidate', async () => {
    carol = await member('carol', 'writer');
    await carol.sync();
    expect(titles(carol)).toEqual(titles(alice));
    const pnpm = (
      alice.store.db.prepare(`SELECT id FROM observations WHERE title = 'Use pnpm workspaces'`).get() as {
        id: string;
      }
    ).id;
    bob.store.memory.edit(pnpm, { narrative: 'one lockfile for all packages' }, CLI);
    const newer = insertMemory(carol.store, {
      projectId: PROJECT,
      title: 'Use bun workspaces',
      draft: { type: 'decision' },
    });
    carol.store.memory.supersede(pnpm, newer, CLI);
    const wrong = insertMemory(bob.store, { projectId: PROJECT, title: 'The API is on port 8080' });
    await bob.sync();
    await carol.sync();
    bob.store.memory.invalidate(wrong, 'it is 9090', CLI);
    for (let round = 0; round < 2; round++) for (const m of [bob, carol, alice]) await m.sync();
    const state = (m: Machine) =>
      m.store.db
        .prepare(`SELECT id, title, narrative, status FROM observations WHERE project_id = ? ORDER BY id`)
        .all(PROJECT);
    expect(state(alice)).toEqual(state(bob));
    expect(state(carol)).toEqual(state(bob));
    expect(alice.store.observations.get(pnpm)?.status).toBe('superseded');
    expect(alice.store.observations.get(wrong)?.status).toBe('invalidated');
  });

  it('forget reaches every device and is purged on the server', async () => {
    const doomed = insertMemory(carol.store, {
      projectId: PROJECT,
      title: 'Staging password rotation notes',
    });
    await carol.sync();
    await alice.sync();
    await bob.sync();
    expect(alice.store.observations.get(doomed)?.status).toBe('active');
    bob.store.memory.forget(doomed, CLI);
    await bob.sync();
    await alice.sync();
    await carol.sync();
    for (const m of [alice, bob, carol]) {
      const o = m.store.observations.get(doomed);
      expect(o?.status, m.name).toBe('forgotten');
      expect(o?.title, m.name).toBe('[forgotten]');
    }
    const row = await pg.query(
      server.databaseUrl,
      `SELECT deleted, body FROM entities WHERE entity_id = $1`,
      [doomed],
    );
    expect(row.rows).toEqual([{ deleted: true, body: null }]);
  });

  it('blocks a record holding a secret at push and says why', async () => {
    const leaky = insertMemory(alice.store, { projectId: PROJECT, title: 'Deploy notes' });
    // An older memory written before a scrubber rule existed: planted directly, as no writer would.
    const fake = ['ghp_', 'FAKEfakeFAKEfakeFAKEfakeFAKEfake1234'].join('');
    alice.store.db.prepare('UPDATE observations SET narrative = ? WHERE id = ?').run(`token ${fake}`, leaky);
    alice.store.team.enqueue('memory', leaky, PROJECT, Date.now());
    const report = await alice.sync();
    expect(report.blocked).toEqual([{ id: leaky, reason: expect.stringMatching(/github-token.*narrative/) }]);
    expect(alice.store.team.blocked().map((b) => b.entityId)).toContain(leaky);
    const row = await pg.query(
      server.databaseUrl,
      `SELECT count(*)::int AS n FROM entities WHERE entity_id = $1`,
      [leaky],
    );
    expect(row.rows[0]?.n).toBe(0);
  });

  it('keeps and flags both sides of a concurrent edit', async () => {
    const shared = insertMemory(alice.store, { projectId: PROJECT, title: 'Release checklist' });
    await alice.sync();
    await bob.sync();
    alice.store.memory.edit(shared, { narrative: 'tag, then build' }, CLI);
    bob.store.memory.edit(shared, { narrative: 'build, then tag' }, CLI);
    await alice.sync();
    const second = await bob.sync();
    expect(second.conflicts).toBe(1);
    await alice.sync();
    for (const m of [alice, bob]) {
      const copies = m.store.db
        .prepare(
          `SELECT id, narrative FROM observations WHERE title = 'Release checklist' AND status = 'active' ORDER BY narrative`,
        )
        .all() as { id: string; narrative: string }[];
      expect(
        copies.map((c) => c.narrative),
        m.name,
      ).toEqual(['build, then tag', 'tag, then build']);
      const flags = m.store.team.conflictsOf(copies.map((c) => c.id));
      expect(flags.size, m.name).toBe(2);
    }
  });

  it('a reader pulls everything and pushes nothing', async () => {
    const dave = await member('dave', 'reader');
    insertMemory(dave.store, { projectId: PROJECT, title: 'Dave would like to share this' });
    const report = await dave.sync();
    expect(report.readOnly).toEqual([PROJECT]);
    expect(report.errors).toEqual([]);
    // Everything on the server (what bob has too), and its own memory, kept here.
    expect(titles(dave)).toEqual([...titles(bob), 'Dave would like to share this'].sort());
    const row = await pg.query(
      server.databaseUrl,
      `SELECT count(*)::int AS n FROM entities WHERE body->>'title' = $1`,
      ['Dave would like to share this'],
    );
    expect(row.rows[0]?.n).toBe(0);
  });

  it('attributes team memories at SessionStart and prompt time, with flags and teammates\u2019 state', async () => {
    const note = insertMemory(alice.store, {
      projectId: PROJECT,
      title: 'Run migrations with pnpm db:migrate before tests',
      createdAt: Date.now() - 3 * 86_400_000,
    });
    await alice.sync();
    await bob.sync();
    const project = { id: PROJECT, name: 'shop', key: KEY, root: '/tmp/shop' };
    const now = Date.now();
    const start = renderSessionContext(bob.store, {
      project,
      sessionId: 'bob-next',
      source: 'startup',
      now,
      budgetTokens: 2400,
      recentCount: 40,
    });
    expect(start.text).toContain(
      '- alice on alice-laptop, 24h ago: branch feat/x at a1b2c3d, 4 changed files (src/a.ts, src/b.ts, src/c.ts, …)',
    );
    expect(start.text).not.toContain('bob on bob-laptop');
    expect(start.text).toMatch(new RegExp(`${note} \\[fact\\] Run migrations .* · from alice, 3d ago`));
    expect(start.text).toMatch(/Release checklist .*conflicts with obs_/);
    const prompt = renderPromptContext(bob.store, {
      projectId: PROJECT,
      sessionId: 'bob-next',
      prompt: 'how do I run the migrations before tests?',
      now,
      budgetTokens: 500,
      maxItems: 3,
      minScore: 0.3,
    });
    expect(prompt.text).toContain(
      `${note} [fact] Run migrations with pnpm db:migrate before tests · from alice, 3d ago`,
    );
    // Alice sees her own memory without "from alice".
    const own = renderSessionContext(alice.store, {
      project,
      sessionId: 'a2',
      source: 'startup',
      now,
      budgetTokens: 2400,
      recentCount: 40,
    });
    expect(own.text).toContain(`${note} [fact] Run migrations`);
    expect(own.text).not.toContain('from alice');
  });

  it('starts over against a reset server (new epoch) and loses nothing', async () => {
    const fresh = await startTestTeamServer(pg);
    const admin = createTeamApi({ server: fresh.url, token: fresh.adminToken });
    const { token } = await admin.addUser({ name: 'alice', device: 'alice-laptop' });
    await admin.grant({ user: 'alice', project: KEY.replace('git:', 'https://'), role: 'writer' });
    const api = createTeamApi({ server: fresh.url, token });
    const report = await syncOnce({
      store: alice.store,
      api,
      logger: createMemoryLogger(),
      clock: systemClock,
      me: 'alice',
    });
    expect(report.epochReset).toBe(true);
    const count = await pg.query(
      fresh.databaseUrl,
      `SELECT count(*)::int AS n FROM entities WHERE NOT deleted AND kind = 'memory'`,
    );
    const local = (
      alice.store.db
        .prepare(`SELECT count(*) AS n FROM observations WHERE project_id = ? AND status <> 'forgotten'`)
        .get(PROJECT) as { n: number }
    ).n;
    // Every memory but the one blocked for a secret is back on the new server.
    expect(count.rows[0]?.n).toBe(local - 1);
    await fresh.close();
  });
});
