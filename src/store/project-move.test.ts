import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { projectIdFromKey, type ProjectId } from '../core/ids.ts';
import { summaryDraft, type Project } from '../core/model.ts';
import { openDatabase } from './database.ts';
import type { MutationContext } from './memory-writer.ts';
import type { FileIdOf } from './project-move.ts';
import { createStore, type Store } from './store.ts';
import { appendEvent, insertMemory } from './store.test-support.ts';

const project = (key: string, name: string): Project => ({
  id: projectIdFromKey(key),
  name,
  key,
  root: '/code/shop',
});
const old = project('git:github.com/acme/shop', 'shop');
const renamed = project('name:storefront', 'storefront');
const cli = (at: number): MutationContext => ({ origin: 'cli', at });
const fileId: FileIdOf = (p: ProjectId, path: string) => `fil_${p.slice(4, 14)}${path.length.toString(16)}`;

describe('moving a project', () => {
  let dir: string;
  let store: Store;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'engram-move-'));
    store = createStore(openDatabase(join(dir, 'engram.db')));
  });
  afterEach(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const seed = () => {
    appendEvent(store, old, 's1', { kind: 'prompt', prompt: 'use integer cents' }, 10);
    const a = insertMemory(store, { projectId: old.id, title: 'Prices are integer cents', sessionId: 's1' });
    const b = insertMemory(store, {
      projectId: old.id,
      title: 'Run npm test before committing',
      sessionId: 's1',
    });
    store.memory.edit(a, { narrative: 'Floats lost a cent in checkout' }, cli(11));
    store.memory.link(a, 'related', b, old.id, cli(12));
    const file = fileId(old.id, 'src/cart.ts');
    store.graphFiles.saveMissing(file, old.id, 'src/cart.ts', 12, false);
    store.memory.link(a, 'touches', file, old.id, cli(12));
    store.memory.saveSummary('s1', old.id, summary('Fix checkout rounding'), true, cli(13));
    return { a, b, file };
  };

  it('plans without writing, then moves memories, versions, summaries, sessions, links and file nodes', () => {
    const { a, b } = seed();
    const before = store.changes.lastSeq();
    const plan = store.memory.planProjectMove(old.id, renamed);
    expect(plan).toMatchObject({
      targetKnown: false,
      targetMemories: 0,
      memories: 2,
      duplicates: 0,
      summaries: 1,
      sessions: 1,
      links: 2,
      files: 1,
    });
    expect(store.changes.lastSeq()).toBe(before); // the dry run wrote nothing
    expect(store.observations.get(a)?.projectId).toBe(old.id);

    store.memory.moveProject(old.id, renamed, fileId, cli(20));
    expect(store.sessions.project(old.id)).toBeNull();
    expect(store.sessions.project(renamed.id)).toMatchObject({ name: 'storefront', key: renamed.key });
    expect(store.observations.get(a)).toMatchObject({ projectId: renamed.id, version: 2 });
    expect(store.observations.history(a)).toHaveLength(1); // its earlier version came along
    expect(
      store.observations
        .recent(renamed.id, 10)
        .map((o) => o.id)
        .sort(),
    ).toEqual([a, b].sort());
    expect(store.observations.recent(old.id, 10)).toEqual([]);
    expect(store.sessions.get('s1')?.projectId).toBe(renamed.id);
    expect(store.summaries.get('s1')?.projectId).toBe(renamed.id);
    const newFile = fileId(renamed.id, 'src/cart.ts');
    expect(store.graphFiles.byPath(renamed.id, 'src/cart.ts')?.id).toBe(newFile);
    expect(store.graphFiles.ofProject(old.id)).toEqual([]);
    const edges = store.db.prepare(`SELECT from_id, kind, to_id, project_id FROM links ORDER BY kind`).all();
    expect(edges).toEqual([
      { from_id: a, kind: 'related', to_id: b, project_id: renamed.id },
      { from_id: a, kind: 'touches', to_id: newFile, project_id: renamed.id },
    ]);
    // Each moved memory, summary and link is in the change log, under the new project.
    const moved = store.changes
      .since(before, 100)
      .map((c) => `${c.entity}:${c.op}:${c.projectId === renamed.id}`);
    expect(moved).toEqual(
      expect.arrayContaining(['memory:move:true', 'summary:move:true', 'link:move:true', 'link:add:true']),
    );
    expect(moved.filter((m) => m.startsWith('memory:move'))).toHaveLength(2);
    // A memory captured again under the new name is recognised (its hash moved too): merged, not new.
    const again = store.memory.create(
      {
        projectId: renamed.id,
        sessionId: null,
        source: 'hook',
        createdAt: 30,
        provenance: [],
        draft: { ...draftFields('Run npm test before committing') },
      },
      { origin: 'hook', at: 30 },
    );
    expect(again).toEqual({ id: b, outcome: 'merged' });
  });

  it('merges into a project that holds the same memory: one memory, the moved copy superseded', () => {
    const { a, b } = seed();
    const twin = insertMemory(store, {
      projectId: renamed.id,
      title: 'Run npm test before committing',
      createdAt: 2,
    });
    const plan = store.memory.planProjectMove(old.id, renamed);
    expect(plan).toMatchObject({ memories: 2, duplicates: 1, targetMemories: 1 });

    const c = insertMemory(store, { projectId: old.id, title: 'Secret plan', createdAt: 3 });
    const gone = insertMemory(store, { projectId: renamed.id, title: 'Secret plan', createdAt: 4 });
    store.memory.forget(gone, cli(15));
    expect(store.memory.planProjectMove(old.id, renamed)).toMatchObject({ memories: 3, duplicates: 2 });

    store.memory.moveProject(old.id, renamed, fileId, cli(20));
    expect(store.observations.get(b)).toMatchObject({
      projectId: renamed.id,
      status: 'superseded',
      statusReason: `superseded by ${twin}`,
    });
    expect(store.observations.get(twin)).toMatchObject({ status: 'active', seenCount: 2 });
    // Content the target forgot does not come back through a merge.
    expect(store.observations.get(c)?.status).toBe('forgotten');
    // A memory the target did not hold simply moved.
    expect(store.observations.get(a)?.status).toBe('active');
    const active = store.observations.recent(renamed.id, 10).map((o) => o.title);
    expect(active.sort()).toEqual(['Prices are integer cents', 'Run npm test before committing']);
  });

  it('refuses a move onto itself and an unknown project', () => {
    seed();
    expect(() => store.memory.planProjectMove(old.id, old)).toThrow(/already the target/);
    expect(() => store.memory.moveProject(renamed.id, old, fileId, cli(1))).toThrow(/no project/);
  });
});

function draftFields(title: string) {
  return {
    type: 'fact' as const,
    title,
    subtitle: '',
    narrative: '',
    facts: [],
    concepts: [],
    filesRead: [],
    filesModified: [],
  };
}

const summary = (request: string) => summaryDraft({ request });
