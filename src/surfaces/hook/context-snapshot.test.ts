import {
  existsSync,
  mkdirSync,
  readdirSync,
  readlinkSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { forget } from '../../app/forget.ts';
import { hostAdapter } from '../../capture/hosts/index.ts';
import { projectIdFromKey } from '../../core/ids.ts';
import type { Logger } from '../../core/ports.ts';
import { summaryDraft, type Project } from '../../core/model.ts';
import { usableSnapshot } from '../../recall/session-snapshot.ts';
import {
  closeMarked,
  readContextEpoch,
  readContextSnapshot,
  storeState,
  storeStateReader,
} from '../../store/context-snapshot.ts';
import { openDatabase } from '../../store/database.ts';
import { listInbox } from '../../store/inbox.ts';
import { createStore, type Store } from '../../store/store.ts';
import { appendEvent, draftOf, TEST_CHANGE } from '../../store/store.test-support.ts';
import { createSnapshotKeeper } from '../../worker/context-snapshots.ts';
import { loadRuntime, type Runtime } from '../runtime.ts';
import { handleContextEvent } from './context-hook.ts';

const MIN = 60_000;
const DAY = 86_400_000;
const quiet: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};
const claude = hostAdapter('claude-code');

describe('SessionStart from the worker\u2019s snapshot', () => {
  let home: string;
  let root: string;
  let runtime: Runtime;
  let store: Store;
  let project: Project;
  let other: Project;
  let now: number;
  let seq = 0;

  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), 'engram-snapshot-'));
    root = join(home, 'shop');
    mkdirSync(join(root, 'src'), { recursive: true });
    runtime = loadRuntime({ ENGRAM_HOME: join(home, '.engram'), HOME: home });
    mkdirSync(runtime.paths.home, { recursive: true });
    store = createStore(openDatabase(runtime.paths.db));
    project = { id: projectIdFromKey(`path:${root}`), name: 'shop', key: `path:${root}`, root };
    other = {
      id: projectIdFromKey('path:/elsewhere'),
      name: 'elsewhere',
      key: 'path:/elsewhere',
      root: '/elsewhere',
    };
    now = Date.now();
    seq = 0;
    realisticStore();
  });
  afterEach(() => {
    store.close();
    rmSync(home, { recursive: true, force: true });
  });

  const add = (p: Project, title: string, at: number, extra: Record<string, unknown> = {}) =>
    store.memory.create(
      {
        projectId: p.id,
        sessionId: (extra['session'] as string | undefined) ?? `s-${Math.floor(at / DAY)}`,
        source: 'hook',
        createdAt: at,
        provenance: [],
        draft: draftOf(title, { type: 'feature', ...(extra['draft'] as object | undefined) }),
        pinned: extra['pinned'] === true,
      },
      { origin: 'cli', at },
    ).id;

  /** Several projects, standing memories, sessions with summaries, anchors, a rule the host loads. */
  function realisticStore(): void {
    writeFileSync(join(root, 'CLAUDE.md'), '# Rules\n- Always run `npm run lint` before committing.\n');
    writeFileSync(join(root, 'src', 'cart.ts'), 'export const cart = 1;\n');
    writeFileSync(join(root, 'src', 'tax.ts'), 'export const tax = 2;\n');
    add(project, 'Prices are stored as integer cents', now - 90 * DAY, {
      pinned: true,
      draft: { type: 'preference' },
    });
    add(project, 'Run npm run lint before committing', now - 80 * DAY, {
      pinned: true,
      draft: {
        type: 'convention',
        facts: ['source: CLAUDE.md', 'rule: Always run `npm run lint` before committing.'],
      },
    });
    add(project, '`npm test` runs vitest', now - 70 * DAY, { pinned: true, draft: { type: 'fact' } });
    for (let i = 0; i < 6; i++)
      add(project, `Cart step ${i}: totals after edit ${i}`, now - (6 - i) * DAY + i * MIN, {
        session: `s-${i % 9}`,
        draft: { filesModified: [`src/cart${i % 4}.ts`], filesRead: ['src/tax.ts'] },
      });
    const cart = add(project, 'The cart total is computed in src/cart.ts', now - 2 * DAY, {
      draft: { filesModified: ['src/cart.ts'] },
    });
    const tax = add(project, 'Tax is rounded half-up in src/tax.ts', now - DAY, {
      draft: { filesModified: ['src/tax.ts'] },
    });
    const anchor = (id: string, path: string, mtime: number) =>
      store.anchors.add(
        id,
        project.id,
        { path, blobHash: 'b', size: 1, scope: { kind: 'file' }, partHash: 'p' },
        mtime,
        now - DAY,
      );
    anchor(cart, 'src/cart.ts', mtimeOf('src/cart.ts'));
    anchor(tax, 'src/tax.ts', mtimeOf('src/tax.ts'));
    for (let i = 0; i < 20; i++) add(other, `Elsewhere memory ${i}`, now - i * DAY);
    const summary = (session: string, ago: number, request: string) => {
      appendEvent(store, project, session, { kind: 'session_start', source: 'startup' }, now - ago);
      store.memory.saveSummary(
        session,
        project.id,
        {
          request,
          investigated: '',
          learned: 'Totals drift when a line is edited twice',
          completed: 'State: branch cart-fix, 2 files uncommitted | Fixed the rounding of totals',
          nextSteps: 'Add a test for two edits of one line',
          filesRead: ['src/tax.ts'],
          filesEdited: ['src/cart.ts'],
          notes: '',
        },
        true,
        { origin: 'cli', at: now - ago },
        now - ago,
      );
    };
    summary('sess-a', 5 * DAY, 'Fix the cart totals');
    summary('sess-b', 3 * DAY, 'Why do totals drift?');
    summary('sess-c', 40 * MIN, 'Round tax half-up');
    summary('sess-d', 3 * MIN, 'Explain the checkout flow');
  }

  const mtimeOf = (path: string) => statSync(join(root, path)).mtimeMs;

  const keeper = () =>
    createSnapshotKeeper({
      store,
      config: runtime.config,
      dir: runtime.paths.snapshotDir,
      logger: quiet,
      startedAt: 0,
    });

  /** What the hook prints for a SessionStart of `session` at `at` (the real handler, its inbox too). */
  function hook(session: string, at: number, source = 'startup'): string {
    return hookOutcome(session, at, source).stdout;
  }
  function hookOutcome(session: string, at: number, source = 'startup') {
    return handleContextEvent(
      {
        sessionId: session,
        hook: 'SessionStart',
        cwd: root,
        transcriptPath: null,
        at,
        event: { kind: 'session_start', source },
        project,
      },
      { runtime, logger: quiet, renderContext: claude.renderContext, rulesFiles: ['CLAUDE.md'] },
    );
  }
  /** The same hook with no snapshot on file: the live render. */
  function live(session: string, at: number, source = 'startup'): string {
    const saved = `${runtime.paths.snapshotDir}.saved`;
    mkdirSync(runtime.paths.snapshotDir, { recursive: true });
    renameSync(runtime.paths.snapshotDir, saved);
    try {
      return hook(session, at, source);
    } finally {
      renameSync(saved, runtime.paths.snapshotDir);
    }
  }
  const usable = (source = 'startup') =>
    usableSnapshot(readContextSnapshot(runtime.paths.snapshotDir, project.id), {
      epoch: readContextEpoch(store.db),
      projectId: project.id,
      recentCount: runtime.config['context.recentCount'],
      keyFiles: runtime.config['graph.keyFiles'],
      source,
    });
  const next = () => `next-${++seq}`;

  it('renders byte for byte what the live render says, now and as the ages move on', () => {
    expect(keeper().tick(now)).toBe(1);
    expect(usable()).not.toBeNull();
    for (const at of [now, now + 2 * MIN, now + 50 * MIN, now + 5 * 3_600_000, now + 3 * DAY]) {
      const session = next();
      const fast = hook(session, at);
      expect(fast).toContain('Standing knowledge');
      expect(fast).toContain('Last session');
      expect(fast).toContain('Sessions before it');
      expect(fast).not.toContain('Elsewhere memory');
      // The rule CLAUDE.md already holds is not said again, from the snapshot too.
      expect(fast).not.toContain('Run npm run lint before committing');
      expect(fast).toBe(live(session, at));
    }
    // `clear` is served from the snapshot as well; `resume` and `compact` always render live.
    expect(usable('clear')).not.toBeNull();
    expect(usable('resume')).toBeNull();
    expect(usable('compact')).toBeNull();
    const s = next();
    expect(hook(s, now, 'clear')).toBe(live(s, now, 'clear'));
  });

  it('is read by the hook: what the file says is what the hook shows while the store has not changed', () => {
    keeper().tick(now);
    const file = join(runtime.paths.snapshotDir, `${project.id}.json`);
    writeFileSync(
      file,
      readFileSync(file, 'utf8').replace('Prices are stored as integer cents', 'Prices are TAMPERED'),
    );
    expect(hook(next(), now)).toContain('Prices are TAMPERED');
    // Resumed sessions never read it.
    expect(hook(next(), now, 'resume')).not.toContain('TAMPERED');
    // Once the store changes (a memory written through the mutation path), the file no longer counts.
    add(project, 'A brand new memory about refunds', now);
    const after = hook(next(), now);
    expect(after).not.toContain('TAMPERED');
    expect(after).toContain('A brand new memory about refunds');
  });

  it('never serves what changed since: written, edited, pinned, forgotten, summarised, shared', () => {
    const k = keeper();
    let later = now;
    const check = (expectShown: string[], expectGone: string[]) => {
      expect(usable()).toBeNull(); // the change made the snapshot stale…
      const s = next();
      const text = hook(s, now);
      for (const t of expectShown) expect(text).toContain(t);
      for (const t of expectGone) expect(text).not.toContain(t);
      expect(text).toBe(live(s, now));
      k.tick((later += 1_000)); // …and the worker's next round takes it again, with the change
      expect(usable()).not.toBeNull();
      const t = next();
      expect(hook(t, now)).toBe(live(t, now));
      expect(hook(next(), now)).toBe(text);
    };
    k.tick(later);
    // Within a second of the last snapshot the worker takes none (a backlog's rounds change the store).
    add(project, 'A memory written right after', now - 2 * MIN);
    expect(k.tick(later + 999)).toBe(0);
    expect(usable()).toBeNull();
    const id = add(project, 'Refunds go through the payments queue', now - MIN);
    check(['Refunds go through the payments queue'], []);
    store.memory.edit(id, { title: 'Refunds go through the ledger service' }, { ...TEST_CHANGE, at: now });
    check(['Refunds go through the ledger service'], ['Refunds go through the payments queue']);
    store.memory.pin(id, true, { ...TEST_CHANGE, at: now });
    check(['Refunds go through the ledger service'], []);
    expect(hook(next(), now)).toMatch(
      /Standing knowledge[^]*Refunds go through the ledger service[^]*Last session/,
    );
    const r = forget({ store, backupDir: null }, [id], () => ({ ...TEST_CHANGE, at: now }));
    expect(r.forgotten).toEqual([id]);
    // The forget took every snapshot away with the memory's text.
    expect(readContextSnapshot(runtime.paths.snapshotDir, project.id)).toBeNull();
    check([], ['Refunds go through the ledger service']);
    store.memory.saveSummary(
      'sess-e',
      project.id,
      summaryDraft({ request: 'Ship the coupon codes' }),
      false,
      { ...TEST_CHANGE, at: now },
      now,
    );
    check(['Ship the coupon codes'], []);
    // A shared project gets no snapshot: its teammates' state is read live.
    store.team.share({ id: project.id, name: project.name, root }, now);
    expect(usable()).toBeNull();
    k.tick((later += 1_000));
    expect(readContextSnapshot(runtime.paths.snapshotDir, project.id)).toBeNull();
  });

  it('keeps a snapshot while only the anchored files change, and still shows them stale at once', () => {
    keeper().tick(now);
    const s = next();
    expect(hook(s, now)).toMatch(/Recent memories[^]*Tax is rounded half-up/);
    expect(hook(s, now)).not.toContain('Stale memories');
    utimesSync(join(root, 'src', 'tax.ts'), new Date(now + DAY), new Date(now + DAY));
    expect(usable()).not.toBeNull();
    const t = next();
    const text = hook(t, now);
    expect(text).toMatch(
      /Stale memories[^]*Tax is rounded half-up[^]*src\/tax\.ts changed since it was last checked/,
    );
    expect(text).toBe(live(t, now));
  });

  it('leaves the event in the inbox with what it injected, as the live render does', () => {
    keeper().tick(now);
    const s = next();
    const text = hook(s, now);
    const events = listInbox(runtime.paths.inboxDir)
      .map((name) => JSON.parse(readFileSync(join(runtime.paths.inboxDir, name), 'utf8')))
      .filter((r: { sessionId: string }) => r.sessionId === s);
    expect(events).toHaveLength(1);
    expect(JSON.parse(text).hookSpecificOutput.additionalContext).toBe(events[0].injected.text);
  });

  it('is served from the worker\u2019s files alone while nothing committed since its note of the store', () => {
    const k = keeper();
    k.tick(now);
    k.mark();
    const s = next();
    const fast = hookOutcome(s, now);
    expect(fast.read).toBe('snapshot');
    expect(fast.stdout).toBe(live(s, now));
    expect(hookOutcome(next(), now, 'clear').read).toBe('snapshot');
    // A resumed session reads what it was told from the database.
    expect(hookOutcome(next(), now, 'resume').read).toBe('database');
    // A commit the index does not read (an event) leaves the epoch as it was, but the note no longer
    // stands for the store: the hook asks the database, which says the snapshot still holds.
    appendEvent(store, project, 'sess-x', { kind: 'session_start', source: 'startup' }, now);
    expect(usable()).not.toBeNull();
    const t = next();
    const asked = hookOutcome(t, now);
    expect(asked.read).toBe('database');
    expect(asked.stdout).toBe(fast.stdout.replace(s, t));
    k.mark(); // the worker's next round notes the store again
    expect(hookOutcome(next(), now).read).toBe('snapshot');
    // A memory written since: never served from the files, shown at once, served from them again
    // once the worker took the snapshot and the note anew.
    add(project, 'Coupons expire at midnight UTC', now - MIN);
    const u = next();
    const changed = hookOutcome(u, now);
    expect(changed.read).toBe('database');
    expect(changed.stdout).toContain('Coupons expire at midnight UTC');
    k.mark();
    expect(hookOutcome(next(), now).read).toBe('database'); // the note stands, the snapshot does not
    k.tick(now + 1_000);
    k.mark();
    const v = next();
    const again = hookOutcome(v, now);
    expect(again.read).toBe('snapshot');
    expect(again.stdout).toContain('Coupons expire at midnight UTC');
    expect(again.stdout).toBe(live(v, now));
  });

  it('is served from the files while no connection is open, noted by the last one to close', () => {
    const k = keeper();
    k.tick(now);
    closeMarked(store.db, runtime.paths.snapshotDir, storeStateReader(runtime.paths.db), () => store.close());
    expect(existsSync(`${runtime.paths.db}-wal`)).toBe(false);
    expect(storeState(runtime.paths.db)).toMatch(/^file:/);
    const fast = hookOutcome('closed-1', now);
    expect(fast.read).toBe('snapshot');
    // The hook opened nothing: the store is still closed as it was left.
    expect(existsSync(`${runtime.paths.db}-shm`)).toBe(false);
    expect(fast.stdout).toContain('Standing knowledge');
    // (the live render opens the database, and a context hook never closes it: its process ends)
    expect(fast.stdout).toBe(live('closed-2', now));
    // Another process writes and closes: the file changed, so the note no longer stands.
    store = createStore(openDatabase(runtime.paths.db));
    add(project, 'Gift cards never expire', now - MIN);
    store.close();
    const after = hookOutcome('closed-3', now);
    expect(after.read).toBe('database');
    expect(after.stdout).toContain('Gift cards never expire');
    store = createStore(openDatabase(runtime.paths.db)); // for afterEach
  });

  it('cannot tell the store\u2019s state from a torn, unbuilt or missing WAL index', () => {
    const shm = `${runtime.paths.db}-shm`;
    const state = storeState(runtime.paths.db);
    expect(state).toMatch(/^wal:[0-9a-f]{96}$/);
    expect(storeState(runtime.paths.db)).toBe(state);
    appendEvent(store, project, 'sess-y', { kind: 'session_start', source: 'startup' }, now);
    expect(storeState(runtime.paths.db)).not.toBe(state); // every commit moves it
    const copy = join(home, 'copy.db');
    const header = readFileSync(shm).subarray(0, 96);
    writeFileSync(`${copy}-shm`, header);
    expect(storeState(copy)).toMatch(/^wal:/);
    const torn = Buffer.from(header);
    torn[60] = (torn[60] ?? 0) ^ 0xff; // the second copy differs: a writer is updating it
    writeFileSync(`${copy}-shm`, torn);
    expect(storeState(copy)).toBeNull();
    const unbuilt = Buffer.from(header);
    unbuilt[12] = 0;
    unbuilt[60] = 0;
    writeFileSync(`${copy}-shm`, unbuilt);
    expect(storeState(copy)).toBeNull();
    writeFileSync(`${copy}-shm`, header.subarray(0, 50));
    expect(storeState(copy)).toBeNull();
    rmSync(`${copy}-shm`);
    writeFileSync(`${copy}-wal`, '');
    writeFileSync(copy, '');
    expect(storeState(copy)).toBeNull(); // a log without its index
  });

  it('takes a snapshot of a project that comes into use, though the store\u2019s epoch did not move', () => {
    const k = keeper();
    expect(k.tick(now)).toBe(1); // the one project in use
    expect(readContextSnapshot(runtime.paths.snapshotDir, other.id)).toBeNull();
    const epoch = readContextEpoch(store.db);
    appendEvent(store, other, 'sess-other', { kind: 'session_start', source: 'startup' }, now);
    expect(readContextEpoch(store.db)).toBe(epoch);
    expect(k.tick(now + 1_000)).toBe(1);
    expect(readContextSnapshot(runtime.paths.snapshotDir, other.id)).not.toBeNull();
    expect(k.tick(now + 2_000)).toBe(0);
  });

  it('notes the store through one descriptor of its WAL index, kept open: closing one would drop SQLite\u2019s locks', () => {
    // Closing any descriptor of a file drops every POSIX lock the process holds on it: had the worker
    // opened and closed the index to read its state, the next process to open the store would take
    // it for the first, rebuild the index under the worker's mapping of it, and the worker would die
    // (SIGBUS). So the state is read through one descriptor that stays open while the store is.
    const shm = `${runtime.paths.db}-shm`;
    const held = () =>
      readdirSync('/proc/self/fd').filter((fd) => {
        try {
          return readlinkSync(`/proc/self/fd/${fd}`) === shm;
        } catch {
          return false;
        }
      });
    const sqliteOwn = held();
    expect(sqliteOwn.length).toBeGreaterThan(0);
    const k = keeper();
    k.tick(now);
    k.mark();
    const marking = held();
    expect(marking).toHaveLength(sqliteOwn.length + 1);
    add(project, 'Refunds are batched nightly', now);
    k.mark();
    appendEvent(store, project, 'sess-z', { kind: 'session_start', source: 'startup' }, now);
    k.mark();
    expect(held()).toEqual(marking);
    expect(readContextSnapshot(runtime.paths.snapshotDir, project.id)).not.toBeNull();
  });
});
