import { existsSync, readFileSync, renameSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isEngramError } from '../core/errors.ts';
import { parseFrontmatter, splitNote } from './frontmatter.ts';
import { createGraphWorld, type GraphWorld } from './graph.test-support.ts';
import { runGraphStep } from './graph-step.ts';
import { refreshAnchors } from './staleness.ts';
import { eraseFromVault } from './vault-erase.ts';
import { listNotes } from './vault-files.ts';
import { lockVault } from './vault-lock.ts';
import { syncVault, type VaultSyncReport } from './vault-sync.ts';
import { createLinkResolver, parseWikiLinks } from './wiki-links.ts';

let w: GraphWorld;
let vault: string;
let clock: number;
const now = () => ++clock;

function sync(extra: { beforeWrite?: (path: string) => void } = {}): VaultSyncReport {
  return syncVault(w.store, { dir: vault, projects: [w.project], now, ...extra });
}
const step = () =>
  runGraphStep(w.store, { now: Date.now(), fileSummaryMinLines: 2, anchorMaxAgeMs: 3_600_000 });
const notePath = (id: string) => {
  const row = w.store.vaults.notes(vault).find((n) => n.nodeId === id);
  if (!row) throw new Error(`no note for ${id}`);
  return join(vault, row.path);
};
const read = (id: string) => readFileSync(notePath(id), 'utf8');
const edit = (id: string, fn: (text: string) => string) => writeFileSync(notePath(id), fn(read(id)));
const cli = () => ({ origin: 'cli' as const, at: now() });

beforeEach(() => {
  clock = 1_700_000_000_000;
  w = createGraphWorld('atlas');
  vault = join(w.dir, 'vault');
  w.write(
    'src/store.ts',
    '/** The store: every repository over one connection. */\nexport function createStore() {}\n',
  );
  w.write('lib/store.ts', 'export const other = 1;\n');
});
afterEach(() => w.cleanup());

function seed() {
  const decision = w.remember('Use WAL mode for SQLite', {
    type: 'decision',
    subtitle: 'so hooks write while the worker reads',
    narrative: 'Readers never block the writer.\n\nSecond paragraph.',
    facts: ['journal_mode = WAL', 'synchronous = NORMAL'],
    concepts: ['sqlite', 'concurrency'],
    filesModified: ['src/store.ts', 'lib/store.ts'],
  });
  const discovery = w.remember('createStore opens one connection', {
    type: 'discovery',
    narrative: 'See [[Use WAL mode for SQLite]] for the journal mode.',
    filesRead: ['src/store.ts'],
  });
  w.store.memory.link(discovery, 'related', decision, w.project.id, cli());
  step();
  return { decision, discovery };
}

describe('vault export', () => {
  it('writes a note per node, index.md and graph.json; every link resolves; every note has id and type', () => {
    const { decision, discovery } = seed();
    const r = sync();
    expect(r.created).toBeGreaterThanOrEqual(5); // 2 memories, 2 files (same name, other folders), 1 session
    const notes = listNotes(vault);
    expect(notes).toEqual(
      expect.arrayContaining([
        'atlas/decisions/Use WAL mode for SQLite.md',
        'atlas/discoveries/createStore opens one connection.md',
        'atlas/files/store.ts.md',
        'atlas/index.md',
      ]),
    );
    // Same-named files get their folder in the name: every bare [[name]] resolves to one note.
    expect(notes.filter((n) => /^atlas\/files\/store\.ts \((src|lib)\)\.md$/.test(n))).toHaveLength(1);
    expect(notes.some((n) => n.startsWith('atlas/sessions/Session '))).toBe(true);
    expect(existsSync(join(vault, 'atlas/graph.json'))).toBe(true);
    const resolver = createLinkResolver(notes);
    for (const path of notes) {
      const text = readFileSync(join(vault, path), 'utf8');
      const fm = parseFrontmatter(splitNote(text).yaml);
      expect(fm.ok && typeof fm.data['id'] === 'string' && typeof fm.data['type'] === 'string').toBe(true);
      for (const link of parseWikiLinks(text))
        expect([path, resolver.resolve(link.target, path)]).not.toContain(null);
    }
    // The wiki-link in the discovery's text is an edge of its own.
    expect(w.store.graph.around(discovery).out).toContainEqual({
      from: discovery,
      kind: 'links_to',
      to: decision,
    });
    const note = read(decision);
    expect(note).toContain('id: ' + decision);
    expect(note).toContain('tags:\n  - sqlite\n  - concurrency');
    expect(note).toContain('## Facts\n\n- journal_mode = WAL');
    expect(note).toContain('%% engram:begin %%');
    expect(note).toContain('backlinks:: [[createStore opens one connection]]');
    expect(read(discovery)).toContain('related:: [[Use WAL mode for SQLite]]');
    const graph = JSON.parse(readFileSync(join(vault, 'atlas/graph.json'), 'utf8')) as {
      nodes: Record<string, { links_to: { id: string }[]; linked_from: { id: string }[] }>;
      types: Record<string, string[]>;
      recent: string[];
    };
    expect(graph.nodes[discovery]?.links_to.map((l) => l.id)).toContain(decision);
    expect(graph.nodes[decision]?.linked_from.map((l) => l.id)).toContain(discovery);
    expect(graph.types['decision']).toEqual([decision]);
    expect(readFileSync(join(vault, 'atlas/index.md'), 'utf8')).toContain(
      '## Active decisions\n- [[Use WAL mode for SQLite]]',
    );
  });

  it('a second sync with nothing changed writes nothing; a third does not even render', () => {
    seed();
    sync();
    const before = new Map(listNotes(vault).map((p) => [p, statSync(join(vault, p)).mtimeMs]));
    const second = sync();
    expect(second.written).toBe(0);
    expect(second.created).toBe(0);
    expect(new Map(listNotes(vault).map((p) => [p, statSync(join(vault, p)).mtimeMs]))).toEqual(before);
    expect(sync().quiet).toBe(true);
  });
});

describe('vault names and links', () => {
  it('escapes links in memory text that resolve to no note, reads them back as written; .md names get a word', () => {
    w.write('docs/plan.md', '# Plan\n');
    const id = w.remember('Wrote the plan', {
      narrative: 'See [[plan.md]] and [[Nowhere]].',
      filesModified: ['docs/plan.md'],
    });
    step();
    sync();
    expect(listNotes(vault)).toContain('atlas/files/plan.md (file).md');
    const note = read(id);
    expect(note).toContain('See \\[\\[plan.md\\]\\] and \\[\\[Nowhere\\]\\].');
    expect(note).toContain('touches:: [[plan.md (file)]]');
    edit(id, (t) => t.replace('title: Wrote the plan', 'title: Wrote the plan down'));
    sync();
    expect(w.store.observations.get(id)).toMatchObject({
      title: 'Wrote the plan down',
      narrative: 'See [[plan.md]] and [[Nowhere]].',
    });
  });
});

describe('vault sync rules', () => {
  it('a vault-only edit is ingested as a human edit (origin vault), scrubbed', () => {
    const { decision } = seed();
    sync();
    edit(decision, (t) =>
      t
        .replace('title: Use WAL mode for SQLite', 'title: Use WAL journal mode')
        .replace(
          'Second paragraph.',
          'Second paragraph, with token sk-ant-api03-FAKEFAKEFAKEFAKEFAKEFAKEFAKEFAKE.',
        )
        .replace('- synchronous = NORMAL', '- synchronous = NORMAL\n- checkpoint on close'),
    );
    const edited = read(decision);
    const r = sync();
    expect(r.ingested).toBe(1);
    const m = w.store.observations.get(decision);
    expect(m?.title).toBe('Use WAL journal mode');
    expect(m?.facts).toEqual(['journal_mode = WAL', 'synchronous = NORMAL', 'checkpoint on close']);
    expect(m?.narrative).not.toContain('FAKEFAKE');
    expect(w.store.changes.ofEntity(decision).at(-1)).toMatchObject({ op: 'edit', origin: 'vault' });
    // The human's file stays as they wrote it, apart from engram's derived parts; their edit makes
    // the memory theirs (trust: user).
    const after = read(decision);
    expect(m?.trust).toBe('user');
    expect(after).toContain('\ntrust: user\n');
    const mine = (l: string) => !l.startsWith('updated:') && !l.startsWith('trust:');
    expect(after.split('\n').filter(mine)).toEqual(edited.split('\n').filter(mine));
    expect(sync().written).toBe(0);
  });

  it('a store-only change is rendered into the note', () => {
    const { decision } = seed();
    sync();
    w.store.memory.edit(
      decision,
      { facts: ['journal_mode = WAL', 'synchronous = NORMAL', 'wal_autocheckpoint = 1000'] },
      cli(),
    );
    const r = sync();
    expect(r.written).toBeGreaterThanOrEqual(1);
    expect(read(decision)).toContain('- wal_autocheckpoint = 1000');
  });

  it('both changed: frontmatter per key (human keys: vault; derived: engram), body three-way', () => {
    const { decision } = seed();
    sync();
    edit(decision, (t) =>
      t
        .replace('---\nid:', '---\n# my comment\nid:')
        .replace('subtitle: so hooks write while the worker reads', 'subtitle: my subtitle\nrating: 5 # mine')
        .replace('source: hook', 'source: made-up')
        .replace('Readers never block the writer.', 'Readers never block the writer (checked).'),
    );
    w.store.memory.edit(
      decision,
      {
        title: 'Engram title',
        subtitle: 'engram subtitle',
        facts: ['journal_mode = WAL', 'synchronous = NORMAL', 'new fact'],
      },
      cli(),
    );
    const r = sync();
    expect(r.conflicts).toBe(0);
    const note = read(decision);
    expect(note).toContain('# my comment\nid: ');
    expect(note).toContain('subtitle: my subtitle\nrating: 5 # mine');
    expect(note).toContain('title: Engram title');
    expect(note).toContain('source: hook'); // derived: engram wins
    expect(note).toContain('Readers never block the writer (checked).');
    expect(note).toContain('- new fact');
    const m = w.store.observations.get(decision);
    expect(m?.subtitle).toBe('my subtitle');
    expect(m?.narrative).toContain('(checked)');
    expect(m?.facts).toContain('new fact');
  });

  it('overlapping hunks keep the vault text and keep the store version as a revision', () => {
    const { decision } = seed();
    sync();
    edit(decision, (t) => t.replace('Readers never block the writer.', 'Vault says: readers never block.'));
    w.store.memory.edit(
      decision,
      { narrative: 'Store says: readers never block.\n\nSecond paragraph.' },
      cli(),
    );
    const r = sync();
    expect(r.conflicts).toBe(1);
    expect(read(decision)).toContain('Vault says: readers never block.');
    expect(w.store.observations.get(decision)?.narrative).toContain('Vault says');
    const revisions = w.store.vaults.openRevisions(vault);
    expect(revisions).toHaveLength(1);
    expect(revisions[0]?.storeText).toContain('Store says: readers never block.');
    expect(listNotes(vault).some((p) => p.includes('conflict'))).toBe(false);
  });

  it('a sync renders again only what changed, and everything it touches', () => {
    const { decision, discovery } = seed();
    const lone = w.remember('A lone fact', { type: 'fact' });
    sync();
    w.store.memory.link(lone, 'depends_on', decision, w.project.id, cli());
    expect(sync().written).toBe(3); // both ends of the new link, and index/graph.json
    expect(read(lone)).toContain('depends_on:: [[Use WAL mode for SQLite]]');
    expect(read(decision)).toMatch(/backlinks:: .*\[\[A lone fact\]\]/);
    // A stale transition re-renders the memory with its banner.
    w.write('lib/store.ts', 'export const other = 2;\n');
    expect(
      refreshAnchors(w.store, w.project, { now: Date.now(), origin: 'cli', full: true }).becameStale.map(
        (x) => x.memoryId,
      ),
    ).toEqual([decision]);
    sync();
    expect(read(decision)).toContain('> [!warning] Stale since');
    expect(read(decision)).toMatch(/^stale_since: /m);
    expect(read(discovery)).not.toContain('Stale since');
  });

  it('derived regions are never read back and are rewritten', () => {
    const { decision } = seed();
    sync();
    edit(decision, (t) =>
      t.replace('backlinks:: [[createStore opens one connection]]', 'backlinks:: hand-made junk'),
    );
    const r = sync();
    expect(r.ingested).toBe(0);
    expect(read(decision)).toContain('backlinks:: [[createStore opens one connection]]');
  });

  it('malformed YAML is flagged and never overwritten; the store keeps its last good state', () => {
    const { decision } = seed();
    sync();
    edit(decision, (t) => t.replace('status: active', 'status: [active'));
    const broken = read(decision);
    w.store.memory.edit(decision, { subtitle: 'changed in engram meanwhile' }, cli());
    const r = sync();
    expect(r.flagged.map((f) => f.reason)).toEqual([expect.stringContaining('malformed frontmatter')]);
    expect(read(decision)).toBe(broken);
    expect(w.store.observations.get(decision)?.status).toBe('active');
    // Fixed by the human: synced again.
    edit(decision, (t) => t.replace('status: [active', 'status: active'));
    const fixed = sync();
    expect(fixed.flagged).toEqual([]);
    expect(read(decision)).toContain('subtitle: changed in engram meanwhile');
  });

  it('a note deleted in the vault archives its memory (restorable); restored, the note comes back', () => {
    const { decision } = seed();
    sync();
    const path = notePath(decision);
    rmSync(path);
    const r = sync();
    expect(r.archived).toBe(1);
    expect(w.store.observations.get(decision)?.status).toBe('archived');
    expect(existsSync(path)).toBe(false);
    w.store.memory.restore(decision, cli());
    sync();
    expect(w.store.observations.get(decision)?.status).toBe('active');
    expect(existsSync(notePath(decision))).toBe(true);
  });

  it('a renamed or moved note keeps its id; links to it follow the new name', () => {
    const { decision, discovery } = seed();
    sync();
    const from = notePath(decision);
    const to = join(vault, 'atlas', 'elsewhere', 'WAL decision.md');
    mkdirSync(dirname(to), { recursive: true });
    renameSync(from, to);
    const r = sync();
    expect(r.renamed).toBe(1);
    expect(r.archived).toBe(0);
    expect(w.store.observations.get(decision)?.status).toBe('active');
    expect(notePath(decision)).toBe(to);
    expect(read(discovery)).toContain('related:: [[WAL decision]]');
  });

  it('a note whose id line was deleted stays the same note; the id comes back', () => {
    const { decision } = seed();
    sync();
    const path = notePath(decision);
    edit(decision, (t) =>
      t.replace(`id: ${decision}\n`, '').replace('Second paragraph.', 'Second paragraph, edited.'),
    );
    const r = sync();
    expect(r.archived).toBe(0);
    expect(r.handWritten).toBe(0);
    expect(readFileSync(path, 'utf8')).toContain(`id: ${decision}`);
    expect(w.store.observations.get(decision)?.narrative).toContain('Second paragraph, edited.');
  });

  it('a hand-written note with a type becomes a memory; only an id line is added', () => {
    const { decision } = seed();
    sync();
    const path = join(vault, 'atlas', 'my notes', 'Retry policy.md');
    mkdirSync(dirname(path), { recursive: true });
    const original =
      '---\ntype: decision\ntags: [retries]\n# my comment\n---\nRetry three times, then park.\n\nrelated:: [[Use WAL mode for SQLite]]\n';
    writeFileSync(path, original);
    const r = sync();
    expect(r.handWritten).toBe(1);
    const text = readFileSync(path, 'utf8');
    const id = /^id: (obs_\w+)$/m.exec(text)?.[1] as string;
    expect(text).toBe(original.replace('---\n', `---\nid: ${id}\n`));
    const m = w.store.observations.get(id);
    expect(m).toMatchObject({
      type: 'decision',
      title: 'Retry policy',
      narrative: expect.stringContaining('Retry three times'),
      source: 'manual',
      concepts: ['retries'],
    });
    expect(w.store.graph.around(id).out).toContainEqual({ from: id, kind: 'related', to: decision });
    expect(sync().written).toBe(0);
  });

  it('a note edited while the sync runs is not overwritten; the next sync takes the edit', () => {
    const { decision } = seed();
    sync();
    w.store.memory.edit(decision, { subtitle: 'from engram' }, cli());
    const path = notePath(decision);
    const r = sync({
      beforeWrite: (p) => {
        if (join(vault, p) === path)
          writeFileSync(
            path,
            readFileSync(path, 'utf8').replace('Second paragraph.', 'Typed during the sync.'),
          );
      },
    });
    expect(r.busy).toBe(1);
    expect(read(decision)).toContain('Typed during the sync.');
    const next = sync();
    expect(next.ingested).toBe(1);
    expect(read(decision)).toContain('subtitle: from engram');
    expect(read(decision)).toContain('Typed during the sync.');
    expect(w.store.observations.get(decision)?.narrative).toContain('Typed during the sync.');
  });

  it('a new note is not written over a file that appeared at its path meanwhile', () => {
    seed();
    const taken = 'atlas/decisions/Use WAL mode for SQLite.md';
    const r = sync({
      beforeWrite: (p) => {
        if (p === taken) {
          mkdirSync(dirname(join(vault, p)), { recursive: true });
          writeFileSync(join(vault, p), 'Written by a person at the same moment.\n');
        }
      },
    });
    expect(r.busy).toBe(1);
    expect(readFileSync(join(vault, taken), 'utf8')).toBe('Written by a person at the same moment.\n');
    expect(r.created).toBe(r.written - 2); // the other new notes; index.md and graph.json written too
  });

  it('a first export that crashes mid-way: the next sync finishes it, a note cut short written whole, no edit read', () => {
    const { decision } = seed();
    // The reference: a clean export of the same store in another folder.
    const clean = join(w.dir, 'clean');
    syncVault(w.store, { dir: clean, projects: [w.project], now });
    const want = new Map(listNotes(clean).map((p) => [p, readFileSync(join(clean, p), 'utf8')]));
    const before = w.store.observations.get(decision)?.narrative;
    let n = 0;
    expect(() =>
      sync({
        beforeWrite: () => {
          if (++n === 3) throw new Error('crash');
        },
      }),
    ).toThrow('crash');
    expect(w.store.vaults.notes(vault)).toEqual([]); // no base claimed for any note
    // A note the crash cut short (its frontmatter written, its body not).
    const cut = [...want].find(([, t]) => t.includes(`id: ${decision}`)) as [string, string];
    writeFileSync(join(vault, cut[0]), cut[1].slice(0, cut[1].indexOf('\n---', 4) + 5));
    const r = sync();
    expect(r.ingested).toBe(0);
    expect(r.flagged).toEqual([]);
    expect(r.conflicts).toBe(0);
    expect(new Map(listNotes(vault).map((p) => [p, readFileSync(join(vault, p), 'utf8')]))).toEqual(want);
    expect(w.store.observations.get(decision)?.narrative).toBe(before);
    expect(sync({ beforeWrite: () => {} }).written).toBe(0);
  });

  it('the first export writes what a full render of the same store would: a full sync after it writes nothing', () => {
    seed();
    const first = sync();
    const files = new Map(listNotes(vault).map((p) => [p, readFileSync(join(vault, p), 'utf8')]));
    const full = syncVault(w.store, { dir: vault, projects: [w.project], now, full: true });
    expect(full.written).toBe(0);
    expect(first.created).toBe(files.size - 1); // every note but index.md
    for (const [p, text] of files) expect(readFileSync(join(vault, p), 'utf8')).toBe(text);
  });

  it('one writer per vault', () => {
    seed();
    sync();
    const held = lockVault(vault, process.pid + 1_000_000);
    // A lock of a process that is gone is taken over; a live holder is refused.
    held.release();
    writeFileSync(join(vault, '.engram', 'lock'), `${process.ppid}\n`);
    try {
      sync();
      throw new Error('expected a conflict');
    } catch (error) {
      expect(isEngramError(error, 'CONFLICT')).toBe(true);
    }
    rmSync(join(vault, '.engram', 'lock'));
    expect(sync().written).toBe(0);
  });

  it('archived or forgotten in engram: the note goes (kept and flagged if a human edited it)', () => {
    const { decision, discovery } = seed();
    sync();
    const decisionPath = notePath(decision);
    w.store.memory.archive(decision, 'pruned', cli());
    edit(discovery, (t) => t.replace('See [[', 'I edited this. See [['));
    w.store.memory.archive(discovery, 'pruned', cli());
    const r = sync();
    expect(existsSync(decisionPath)).toBe(false);
    // The files and the session only these memories touched go with them.
    expect(r.removed).toBe(4);
    expect(r.flagged.map((f) => f.reason)).toEqual([expect.stringContaining('kept because it was edited')]);
    const discoveryPath = notePath(discovery);
    w.store.memory.forget(discovery, cli());
    sync();
    expect(existsSync(discoveryPath)).toBe(false);
    expect(w.store.vaults.whereIs(discovery)).toEqual([]);
  });

  it('status archived or invalidated set in a note puts the memory away; every later sync is clean', () => {
    const { decision, discovery } = seed();
    sync();
    const decisionPath = notePath(decision);
    edit(decision, (t) => t.replace('status: active', 'status: archived'));
    edit(discovery, (t) => t.replace('status: active', 'status: invalidated'));
    const r = sync();
    expect(r.flagged).toEqual([]);
    expect(r.ingested).toBe(2);
    expect(w.store.observations.get(decision)).toMatchObject({ status: 'archived' });
    expect(w.store.observations.get(discovery)).toMatchObject({ status: 'invalidated' });
    // Archived memories leave the vault (as when archived in engram); nothing of the edit is lost.
    expect(existsSync(decisionPath)).toBe(false);
    expect(w.store.changes.ofEntity(decision).at(-1)).toMatchObject({ op: 'archive', origin: 'vault' });
    for (let i = 0; i < 2; i++) {
      const again = sync();
      expect(again.flagged).toEqual([]);
      expect(again.ingested).toBe(0);
    }
    // Restored, the note comes back with what the human wrote.
    w.store.memory.restore(decision, cli());
    sync();
    expect(read(decision)).toContain('status: active');
    expect(sync().flagged).toEqual([]);
  });

  it('eraseFromVault removes a memory note by id, and a phrase everywhere', () => {
    const { decision } = seed();
    sync();
    const path = notePath(decision);
    expect(eraseFromVault(w.store, vault, { id: decision }).deleted).toEqual([path]);
    expect(existsSync(path)).toBe(false);
    const mine = join(vault, 'atlas', 'Scratch.md');
    writeFileSync(mine, 'the secret word is hunter2 ok\n');
    const r = eraseFromVault(w.store, null, { phrase: 'HUNTER2' });
    expect(r.redacted).toEqual([mine]);
    expect(readFileSync(mine, 'utf8')).toBe('the secret word is [erased] ok\n');
  });
});
