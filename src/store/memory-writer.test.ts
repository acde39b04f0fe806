import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { projectIdFromKey } from '../core/ids.ts';
import { summaryDraft, type Project } from '../core/model.ts';
import { openDatabase } from './database.ts';
import type { MutationContext } from './memory-writer.ts';
import { createStore, type Store } from './store.ts';
import { appendEvent, draftOf, insertMemory } from './store.test-support.ts';

// Built from parts so no scanner mistakes this test for a leak: obviously fake, scrubber-shaped.
const FAKE_TOKEN = ['ghp', 'FAKEfakeFAKEfakeFAKEfakeFAKEfake1234'].join('_');

const project: Project = { id: projectIdFromKey('p'), name: 'p', key: 'p', root: '/p' };
const cli = (at: number): MutationContext => ({ origin: 'cli', at });

describe('the mutation path', () => {
  let dir: string;
  let store: Store;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'engram-writer-'));
    store = createStore(openDatabase(join(dir, 'engram.db')));
  });
  afterEach(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const ops = () => store.changes.since(0, 1000).map((c) => `${c.entity}:${c.op}:${c.origin}`);

  it('keeps an id across edits, versions every change, and restores the previous version', () => {
    const id = insertMemory(store, { projectId: project.id, title: 'Prices are floats', createdAt: 5 });
    const edited = store.memory.edit(id, { title: 'Prices are integer cents' }, cli(10));
    expect(edited).toMatchObject({ id, title: 'Prices are integer cents', version: 2, modifiedAt: 10 });
    expect(edited.createdAt).toBe(5); // what it records happened then; the edit is when it changed
    expect(store.memory.edit(id, { title: 'Prices are integer cents' }, cli(11)).version).toBe(2); // no-op

    // Distilling the old text again finds the memory it became instead of making a new one.
    const again = store.memory.create(
      {
        projectId: project.id,
        sessionId: null,
        source: 'hook',
        createdAt: 12,
        provenance: [],
        draft: draftOf('Prices are floats'),
      },
      { origin: 'hook', at: 12 },
    );
    expect(again).toEqual({ id, outcome: 'merged' });

    expect(store.memory.invalidate(id, 'we moved to decimals', cli(13))).toBe(true);
    expect(store.memory.invalidate(id, 'again', cli(14))).toBe(false);
    expect(store.observations.get(id)).toMatchObject({ status: 'invalidated', version: 3 });
    expect(store.observations.history(id).map((v) => [v.version, v.replacedByOp, v.snapshot.status])).toEqual(
      [
        [2, 'invalidate', 'active'],
        [1, 'edit', 'active'],
      ],
    );
    // restore undoes the invalidate, then (restored again) the restore itself
    expect(store.memory.restore(id, cli(15))).toMatchObject({ status: 'active', version: 4 });
    expect(store.memory.archive(id, 'tidy', cli(16))).toBe(true);
    expect(store.observations.recent(project.id, 10)).toEqual([]);
    expect(store.memory.restore(id, cli(17))).toMatchObject({
      status: 'active',
      title: 'Prices are integer cents',
    });

    expect(ops()).toEqual([
      'memory:create:cli',
      'memory:edit:cli',
      'memory:merge:hook',
      'memory:invalidate:cli',
      'memory:restore:cli',
      'memory:archive:cli',
      'memory:restore:cli',
    ]);
    expect(store.changes.ofEntity(id).map((c) => c.version)).toEqual([1, 2, 2, 3, 4, 5, 6]);
  });

  it('supersedes with a link both ways, pins, and merges new facts into a new version', () => {
    const old = insertMemory(store, { projectId: project.id, title: 'Use npm test', createdAt: 1 });
    const created = store.memory.create(
      {
        projectId: project.id,
        sessionId: 's',
        source: 'hook',
        createdAt: 2,
        provenance: ['session:s'],
        draft: draftOf('Use npm run test:unit for unit tests'),
        supersedes: old,
      },
      { origin: 'hook', at: 2 },
    );
    expect(store.observations.get(old)).toMatchObject({
      status: 'superseded',
      statusReason: `superseded by ${created.id}`,
    });
    expect(store.observations.get(created.id)?.supersedes).toBe(old);
    expect(store.db.prepare('SELECT from_id, kind, to_id FROM links').all()).toEqual([
      { from_id: created.id, kind: 'supersedes', to_id: old },
    ]);
    expect(store.memory.pin(created.id, true, cli(3))).toBe(true);
    expect(store.memory.pin(created.id, true, cli(4))).toBe(false);
    expect(store.observations.pinned(project.id, 5).map((o) => o.id)).toEqual([created.id]);
    const merged = store.memory.merge(created.id, { facts: ['seen in CI too'], seenAt: 9 }, cli(9));
    expect(merged).toMatchObject({ facts: ['seen in CI too'], seenCount: 2, lastSeenAt: 9, version: 3 });
    expect(ops()).toEqual([
      'memory:create:cli',
      'memory:create:hook',
      'memory:supersede:hook',
      'link:add:hook',
      'memory:pin:cli',
      'memory:merge:cli',
    ]);
  });

  it('scrubs every text it stores, whatever the surface', () => {
    const { id } = store.memory.create(
      {
        projectId: project.id,
        sessionId: null,
        source: 'manual',
        createdAt: 1,
        provenance: [],
        draft: draftOf(`token is ${FAKE_TOKEN}`, { narrative: `export GITHUB_TOKEN=${FAKE_TOKEN}` }),
      },
      { origin: 'mcp', at: 1 },
    );
    store.memory.edit(id, { facts: [`uses ${FAKE_TOKEN}`] }, cli(2));
    store.memory.merge(id, { facts: [`again ${FAKE_TOKEN}`] }, cli(3));
    store.memory.invalidate(id, `leaked ${FAKE_TOKEN}`, cli(4));
    store.memory.saveSummary(
      's',
      project.id,
      summaryDraft({ request: FAKE_TOKEN, notes: FAKE_TOKEN }),
      false,
      cli(5),
    );
    store.summaries.addPrompt('s', project.id, 1, `here: ${FAKE_TOKEN}`, 6);
    const dump = JSON.stringify([
      store.db.prepare('SELECT * FROM observations').all(),
      store.db.prepare('SELECT * FROM observation_versions').all(),
      store.db.prepare('SELECT * FROM summaries').all(),
      store.db.prepare('SELECT * FROM prompts').all(),
    ]);
    expect(dump).not.toContain(FAKE_TOKEN);
    expect(dump).toContain('[REDACTED');
  });

  it('stores no control character in any text, whatever the surface, and a restore cannot bring one back', () => {
    // Tool output as it reaches a memory: a NUL from a binary file, colour codes, a bell, CRLF.
    const { id } = store.memory.create(
      {
        projectId: project.id,
        sessionId: null,
        source: 'hook',
        createdAt: 1,
        provenance: ['turn:1-2\u0000'],
        draft: draftOf('\u001b[31mnpm test\u001b[39m fails on\u0000 Windows', {
          narrative: 'error TS2307\r\nCannot find module\u0007',
          facts: ['reads data.bin: PK\u0003\u0004\u0000\u0000'],
          filesModified: ['src/a\u0000.ts'],
          subject: 'fail:npm test\u0000',
        }),
      },
      { origin: 'hook', at: 1 },
    );
    store.memory.edit(id, { subtitle: 'see\u0000 log' }, cli(2));
    store.memory.invalidate(id, 'wrong\u0000', cli(3));
    store.memory.link(id, 'touches', 'src/b\u0000.ts', project.id, {
      origin: 'hook',
      at: 4,
      actor: 'me\u0000',
    });
    store.memory.saveSummary(
      's',
      project.id,
      {
        request: 'fix\u0000 it',
        investigated: '\u001b[2Klogs',
        learned: '',
        completed: '',
        nextSteps: '',
        filesRead: ['x\u0000.ts'],
        filesEdited: [],
        notes: '',
      },
      false,
      cli(5),
    );
    // A version written before cleaning existed (raw SQL: test data of an older store), then restored.
    store.db
      .prepare(`UPDATE observation_versions SET snapshot = ? WHERE observation_id = ? AND version = 2`)
      .run(JSON.stringify({ ...store.observations.history(id)[0]?.snapshot, title: 'old\u0000 title' }), id);
    store.memory.restore(id, cli(6));

    expect(store.observations.get(id)).toMatchObject({
      title: 'old title',
      narrative: 'error TS2307\nCannot find module',
      facts: ['reads data.bin: PK'],
      filesModified: ['src/a.ts'],
    });
    const dump = JSON.stringify([
      store.db.prepare('SELECT * FROM observations').all(),
      store.db.prepare('SELECT * FROM summaries').all(),
      store.db.prepare('SELECT * FROM links').all(),
      store.db.prepare('SELECT * FROM changes').all(),
    ]);
    // eslint-disable-next-line no-control-regex -- looking for control characters is the point
    expect(dump.match(/\\u00[01][0-9a-f]|\\u007f|\\r|\\u001b|[\u0000-\u0008\u000b-\u001f]/gi)).toBeNull();
    expect(dump).toContain('"request":"fix it"');
    expect(dump).toContain('src/b.ts');
    expect(store.observations.history(id).at(-1)?.snapshot.title).toBe('npm test fails on Windows');
  });
  it('refuses what cannot be a memory, and never brings back a forgotten one', () => {
    const bad = {
      projectId: project.id,
      sessionId: null,
      source: 'hook' as const,
      createdAt: 1,
      provenance: [],
    };
    expect(() => store.memory.create({ ...bad, draft: draftOf('   ') }, cli(1))).toThrow(/needs a title/);
    expect(() =>
      store.memory.create({ ...bad, draft: { ...draftOf('x'), type: 'Not A Type' as never } }, cli(1)),
    ).toThrow(/not a memory type/);
    expect(() => store.memory.edit('obs_missing00000000000000', { title: 'x' }, cli(1))).toThrow(/no memory/);
    const id = insertMemory(store, { projectId: project.id, title: 'Gone soon' });
    store.memory.forget(id, cli(2));
    expect(store.memory.create({ ...bad, draft: draftOf('Gone soon') }, cli(3))).toEqual({
      id,
      outcome: 'tombstoned',
    });
    expect(() => store.memory.restore(id, cli(4))).toThrow(/no memory/);
    expect(store.changes.since(0, 10).length).toBe(2); // create, forget: refusals log nothing
  });

  it('forget erases the memory, its versions, links and the raw events and prompt of its turn', () => {
    appendEvent(store, project, 's', { kind: 'prompt', prompt: 'the zebra plan' }, 100);
    appendEvent(store, project, 's', { kind: 'stop', lastMessage: 'zebra done' }, 150);
    appendEvent(store, project, 's', { kind: 'prompt', prompt: 'an unrelated later turn' }, 300);
    store.summaries.addPrompt('s', project.id, 1, 'the zebra plan', 100);
    store.summaries.addPrompt('s', project.id, 3, 'an unrelated later turn', 300);
    const { id } = store.memory.create(
      {
        projectId: project.id,
        sessionId: 's',
        source: 'hook',
        createdAt: 150,
        provenance: ['session:s', 'turn:100-150'],
        draft: draftOf('Zebra stripes', { narrative: 'the zebra plan worked' }),
      },
      { origin: 'hook', at: 151 },
    );
    const other = insertMemory(store, { projectId: project.id, title: 'Other memory' });
    store.memory.link(id, 'related', other, project.id, cli(152));
    store.memory.saveSummary(
      's',
      project.id,
      {
        request: 'the zebra plan',
        investigated: '',
        learned: '',
        completed: 'Zebra stripes; an unrelated later turn',
        nextSteps: '',
        filesRead: [],
        filesEdited: [],
        notes: '',
      },
      false,
      cli(152),
    );
    store.memory.edit(id, { narrative: 'the zebra plan worked twice' }, cli(153));

    expect(store.memory.forget(id, { origin: 'viewer', at: 160 })).toBe(true);
    const dump = JSON.stringify([
      store.db.prepare('SELECT * FROM observations').all(),
      store.db.prepare('SELECT * FROM observation_versions').all(),
      store.db.prepare('SELECT * FROM events').all(),
      store.db.prepare('SELECT * FROM prompts').all(),
      store.db.prepare('SELECT * FROM links').all(),
      store.db.prepare('SELECT * FROM summaries').all(),
    ]);
    expect(dump).not.toMatch(/zebra/i);
    expect(dump).toContain('an unrelated later turn'); // other turns are untouched
    expect(store.observations.get(id)).toMatchObject({ status: 'forgotten', title: '[forgotten]' });
    expect(store.observations.search('"zebra"', null, 5)).toEqual([]);
    expect(ops().slice(-3)).toEqual([
      'summary:redact:viewer',
      'summary:redact:viewer',
      'memory:forget:viewer',
    ]);
  });

  it('joins the caller’s transaction: a failure rolls the change log back with the row', () => {
    expect(() =>
      store.transaction(() => {
        insertMemory(store, { projectId: project.id, title: 'Half written' });
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(store.observations.recent(project.id, 5)).toEqual([]);
    expect(store.changes.lastSeq()).toBe(0);
  });
});
