import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { projectIdFromKey } from '../core/ids.ts';
import type { ObservationDraft, Project } from '../core/model.ts';
import { openDatabase } from './database.ts';
import { MIGRATIONS, SCHEMA_VERSION } from './migrations/index.ts';
import { processStart } from './process-identity.ts';
import { createStore, type Store } from './store.ts';
import { draftOf, insertMemory, TEST_CHANGE } from './store.test-support.ts';

const project: Project = { id: projectIdFromKey('path:/p'), name: 'p', key: 'path:/p', root: '/p' };

function draft(title: string, extra: Partial<ObservationDraft> = {}): ObservationDraft {
  return draftOf(title, { type: 'change', narrative: `narrative of ${title}`, ...extra });
}

describe('store', () => {
  let dir: string;
  let store: Store;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'engram-store-'));
    store = createStore(openDatabase(join(dir, 'engram.db')));
  });
  afterEach(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('migrates a new database to the latest version, in WAL mode, and re-opening is a no-op', () => {
    // Numbers are assigned ahead (several land at once): strictly increasing, each file named by its
    // number, the schema version the last one's.
    const versions = MIGRATIONS.map((m) => m.version);
    expect(versions).toEqual([...versions].sort((a, b) => a - b));
    expect(new Set(versions).size).toBe(versions.length);
    for (const m of MIGRATIONS) expect(m.name.startsWith(String(m.version).padStart(4, '0'))).toBe(true);
    expect(SCHEMA_VERSION).toBe(versions[versions.length - 1]);
    expect(store.db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(store.db.pragma('journal_mode', { simple: true })).toBe('wal');
    const again = openDatabase(join(dir, 'engram.db'));
    expect(again.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    again.close();
  });

  it('0008 adds the graph: file nodes, anchors (one per memory and first path), vaults and their notes', () => {
    const tables = (
      store.db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).all() as { name: string }[]
    ).map((t) => t.name);
    expect(tables).toEqual(
      expect.arrayContaining([
        'graph_files',
        'anchors',
        'graph_state',
        'vaults',
        'vault_folders',
        'vault_notes',
        'vault_revisions',
      ]),
    );
    const state = { path: 'a.ts', blobHash: 'b', size: 1, scope: { kind: 'file' as const }, partHash: 'p' };
    expect(store.anchors.add('obs_x', 'prj_x', state, null, 1)).toBe(true);
    expect(store.anchors.add('obs_x', 'prj_x', { ...state, blobHash: 'c' }, null, 2)).toBe(false);
    expect(store.anchors.ofMemory('obs_x')).toMatchObject([
      { path: 'a.ts', firstPath: 'a.ts', blobHash: 'b', staleSince: null },
    ]);
  });

  it("0013 reads a project's edges through an index, not a scan of every project's links", () => {
    const ctx = { origin: 'cli' as const, at: 1 };
    store.memory.link('obs_a', 'related', 'obs_b', 'prj_1', ctx);
    store.memory.link('obs_c', 'related', 'obs_d', 'prj_2', ctx);
    const plan = (
      store.db
        .prepare(`EXPLAIN QUERY PLAN SELECT from_id, kind, to_id FROM links WHERE project_id = ?`)
        .all('prj_1') as { detail: string }[]
    ).map((r) => r.detail);
    expect(plan.join('\n')).toMatch(/USING COVERING INDEX links_by_project/);
    expect(store.graph.edgesOf('prj_1' as never)).toEqual([{ from: 'obs_a', kind: 'related', to: 'obs_b' }]);
  });
  it('0014 counts events per host, starting from the queue rows an older store still keeps', () => {
    const path = join(dir, 'v13.db');
    const old = new Database(path);
    for (const m of MIGRATIONS.filter((m) => m.version <= 13)) {
      old.exec(m.sql);
      old.pragma(`user_version = ${m.version}`);
    }
    const session = old.prepare(
      `INSERT INTO sessions (id, project_id, host, cwd, started_at, last_event_at) VALUES (?, 'p', ?, '/p', 1, 1)`,
    );
    session.run('s-claude', 'claude-code');
    session.run('s-codex', 'codex');
    const event = old.prepare(
      `INSERT INTO events (session_id, project_id, hook, kind, cwd, payload, bytes, at) VALUES (?, 'p', 'Stop', 'stop', '/p', '{}', 2, ?)`,
    );
    event.run('s-claude', 5);
    event.run('s-codex', 7);
    event.run('s-codex', 9);
    old.close();
    const upgraded = createStore(openDatabase(path));
    expect(upgraded.sessions.hostStats().map((h) => [h.host, h.sessions, h.events])).toEqual([
      ['claude-code', 1, 1],
      ['codex', 1, 2],
    ]);
    upgraded.close();
  });

  it('upgrades an older database in place, keeping memories searchable; hooks leave the upgrade to the worker', () => {
    const path = join(dir, 'old.db');
    const old = new Database(path);
    for (const m of MIGRATIONS.slice(0, 2)) {
      old.exec(m.sql);
      old.pragma(`user_version = ${m.version}`);
    }
    old
      .prepare(
        `INSERT INTO observations (id, project_id, type, title, source, created_at, updated_at, content_hash, tokens)
         VALUES ('obs_old', ?, 'change', 'Renamed parseConfigFile', 'hook', 1, 1, 'h', 3)`,
      )
      .run(project.id);
    old.close();
    expect(() => openDatabase(path, { deferUpgrade: true })).toThrow(/needs an upgrade/);
    const upgraded = createStore(openDatabase(path));
    expect(upgraded.db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(
      upgraded.observations.search('"parseconfigfile"', project.id, 5).map((h) => h.observation.id),
    ).toEqual(['obs_old']);
    const { id } = upgraded.memory.create(
      {
        projectId: project.id,
        sessionId: null,
        source: 'manual',
        createdAt: 2,
        provenance: [],
        draft: draft('Moved loadUserSettings'),
      },
      TEST_CHANGE,
    );
    expect(upgraded.observations.search('"settings"', project.id, 5).map((h) => h.observation.id)).toEqual([
      id,
    ]);
    upgraded.close();
    const hook = openDatabase(path, { deferUpgrade: true });
    expect(hook.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    hook.close();
  });

  it('queues events in order per session and tracks their state', () => {
    const base = { projectId: project.id, hook: 'UserPromptSubmit', cwd: '/p', transcriptPath: null, at: 1 };
    store.transaction(() => {
      store.sessions.touch(project, { id: 's1', cwd: '/p', transcriptPath: null }, 'UserPromptSubmit', 1);
      store.events.append({ ...base, sessionId: 's1', event: { kind: 'prompt', prompt: 'one' } });
      store.events.append({ ...base, sessionId: 's2', event: { kind: 'prompt', prompt: 'two' } });
      store.events.append({ ...base, sessionId: 's1', event: { kind: 'stop', lastMessage: 'done' } });
    });
    expect(store.events.pendingSessions().map((s) => s.sessionId)).toEqual(['s1', 's2']);
    const s1 = store.events.pendingOf('s1').events;
    expect(s1.map((e) => e.event.kind)).toEqual(['prompt', 'stop']);
    expect(store.events.allPending(s1.map((e) => e.seq))).toBe(true);
    store.events.markDone(
      s1.map((e) => e.seq),
      5,
    );
    expect(store.events.allPending(s1.map((e) => e.seq))).toBe(false);
    const s2 = store.events.pendingOf('s2').events.map((e) => e.seq);
    store.events.markFailed(s2, 'boom', 2);
    expect(store.events.counts()).toEqual({ pending: 1, done: 2, parked: 0 });
    store.events.markFailed(s2, 'boom again', 2);
    expect(store.events.counts()).toEqual({ pending: 0, done: 2, parked: 1 });
    expect(store.events.parked(5)[0]).toMatchObject({
      sessionId: 's2',
      attempts: 2,
      lastError: 'boom again',
    });
    expect(store.events.retryParked()).toBe(1);
    expect(store.events.pruneDone(6)).toBe(2);
  });

  it('deduplicates observations by content and finds them with full-text search', () => {
    const { id: first } = store.memory.create(
      {
        projectId: project.id,
        sessionId: 's1',
        source: 'hook',
        createdAt: 10,
        provenance: ['session:s1'],
        draft: draft('Fixed token refresh in validateToken', {
          facts: ['src/auth.ts: changed validateToken'],
        }),
      },
      TEST_CHANGE,
    );
    const dup = store.memory.create(
      {
        projectId: project.id,
        sessionId: 's2',
        source: 'hook',
        createdAt: 11,
        provenance: ['session:s2'],
        draft: draft('  fixed TOKEN refresh in validateToken ', {
          facts: ['src/auth.ts: changed validateToken'],
        }),
      },
      TEST_CHANGE,
    );
    expect(first).toMatch(/^obs_/);
    expect(dup).toEqual({ id: first, outcome: 'merged' });
    expect(store.observations.get(first)).toMatchObject({ seenCount: 2, lastSeenAt: 11, version: 1 });
    const hits = store.observations.search('"refresh"', project.id, 5);
    expect(hits.map((h) => h.observation.id)).toEqual([first]);
    expect(store.observations.search('"refresh"', projectIdFromKey('other'), 5)).toEqual([]);
    expect(store.observations.get(first as string)?.facts).toEqual(['src/auth.ts: changed validateToken']);
  });

  it('weighs the title above the narrative, but not so much that part of the query in a title beats all of it', () => {
    const add = (title: string, narrative: string) =>
      insertMemory(store, { projectId: project.id, title, createdAt: 10, draft: { narrative } });
    for (const topic of ['billing', 'search', 'upload', 'export', 'themes', 'login'])
      add(`The ${topic} page`, `${topic} works as designed`);
    const titleOnly = add('Websocket reconnect notes', 'how the dashboard renders its charts and legends');
    const whole = add('Dashboard changes', 'the websocket reconnect is flaky under load; a backoff fixed it');
    const inTitle = add('Flaky websocket reconnect', 'seen under load; a backoff fixed it');
    const inNarrative = add(
      'Dashboard changes again',
      'under load the websocket reconnect was flaky; backoff',
    );
    const ranked = store.observations
      .search('"websocket" OR "reconnect" OR "flaky"', project.id, 5)
      .map((h) => h.observation.id as string);
    // Every word of the query in the narrative beats two of them in the title.
    expect(ranked.indexOf(whole)).toBeLessThan(ranked.indexOf(titleOnly));
    // The same words in the title count for more than in the narrative.
    expect(ranked.indexOf(inTitle)).toBeLessThan(ranked.indexOf(inNarrative));
  });

  it('forgetting erases the content everywhere, including the search index', () => {
    const id = insertMemory(store, {
      projectId: project.id,
      sessionId: 's1',
      createdAt: 10,
      title: 'Uses the zebra-stripe algorithm',
    });
    expect(store.memory.forget(id, { origin: 'cli', at: 20 })).toBe(true);
    expect(store.observations.get(id)).toMatchObject({
      status: 'forgotten',
      title: '[forgotten]',
      narrative: '',
    });
    expect(store.observations.search('"zebra"', null, 5)).toEqual([]);
    expect(store.observations.recent(project.id, 10)).toEqual([]);
    expect(store.memory.forget(id, { origin: 'cli', at: 21 })).toBe(false);
  });

  it('keeps one summary per session and returns the latest of other sessions', () => {
    const s = {
      request: 'r',
      investigated: '',
      learned: '',
      completed: 'c',
      nextSteps: '',
      filesRead: [],
      filesEdited: ['a.ts'],
      notes: '',
    };
    store.memory.saveSummary('s1', project.id, s, false, { ...TEST_CHANGE, at: 1 });
    store.memory.saveSummary('s1', project.id, { ...s, completed: 'c2' }, false, { ...TEST_CHANGE, at: 2 });
    store.memory.saveSummary('s2', project.id, s, true, { ...TEST_CHANGE, at: 3 });
    expect(store.summaries.count()).toBe(2);
    expect(store.summaries.get('s1')?.completed).toBe('c2');
    expect(store.summaries.latest(project.id, 's2', 5).map((x) => x.sessionId)).toEqual(['s1']);
  });

  it('lets only one live worker hold the lock, and takes over from a dead or silent one', () => {
    const me = { pid: process.pid, start: processStart(process.pid) };
    expect(store.workerLock.acquire(me, 1)).toEqual({ ok: true });
    const dead = { pid: 2 ** 22 + 12345, start: null }; // above the default pid_max: never a live process
    const other = createStore(openDatabase(join(dir, 'engram.db')));
    expect(other.workerLock.acquire(dead, 2)).toEqual({ ok: false, holder: process.pid });
    store.workerLock.release(process.pid);
    expect(other.workerLock.acquire(dead, 3)).toEqual({ ok: true });
    expect(store.workerLock.acquire(me, 4)).toEqual({ ok: true }); // the dead holder is replaced
    expect(store.workerLock.heartbeat(process.pid, 5)).toBe(true);
    // The same pid with another start time is another process (a reused pid): taken over.
    const reused = createStore(openDatabase(join(dir, 'engram.db')));
    store.db.prepare(`UPDATE worker_lock SET proc_start = 'not-this-one'`).run();
    expect(reused.workerLock.acquire(dead, 6)).toEqual({ ok: true });
    expect(store.workerLock.heartbeat(process.pid, 7)).toBe(false); // the old holder learns it lost it
    // A live holder that stopped beating for a minute is presumed stuck: taken over too.
    expect(store.workerLock.acquire(me, 8)).toEqual({ ok: true });
    expect(other.workerLock.acquire(dead, 8 + 59_000)).toEqual({ ok: false, holder: process.pid });
    expect(other.workerLock.acquire(dead, 8 + 61_000)).toEqual({ ok: true });
    other.close();
    reused.close();
  });
});
