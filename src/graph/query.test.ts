import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGraphWorld, type GraphWorld } from './graph.test-support.ts';
import { runGraphStep } from './graph-step.ts';
import { fileNodeId } from './node-ids.ts';
import { loadProjectGraph } from './project-graph.ts';
import { pruneProject } from './prune.ts';
import { queryGraph, queryHitJson, queryHitLine } from './query.ts';
import { neighbourhood } from './related.ts';
import { refreshAnchors } from './staleness.ts';

let w: GraphWorld;
const ctx = { origin: 'cli' as const, at: 5 };
let ids: Record<string, string>;

beforeEach(() => {
  w = createGraphWorld('atlas');
  w.write('src/auth.ts', 'export function login() {}\n');
  w.write('src/db.ts', 'export function open() {}\n');
  const day = 86_400_000;
  const t0 = Date.now() - 10 * day;
  ids = {
    auth: w.remember(
      'Tokens refresh on 401',
      { type: 'decision', concepts: ['auth', 'tokens'], filesModified: ['src/auth.ts'] },
      { at: t0 },
    ),
    authBug: w.remember(
      'Login loops on expired token',
      { type: 'bugfix', concepts: ['auth'], filesModified: ['src/auth.ts', 'src/db.ts'] },
      { at: t0 + day },
    ),
    db: w.remember(
      'Open the database once',
      { type: 'decision', concepts: ['sqlite'], filesModified: ['src/db.ts'] },
      { at: t0 + 2 * day },
    ),
    lone: w.remember('Prefer tabs', { type: 'preference' }, { at: t0 + 3 * day }),
    old: w.remember('An old note', { type: 'fact' }, { at: t0 - day }),
  };
  w.store.memory.link(ids['authBug'] as string, 'depends_on', ids['auth'] as string, w.project.id, ctx);
  runGraphStep(w.store, { now: Date.now(), fileSummaryMinLines: 100, anchorMaxAgeMs: 30 * day });
});
afterEach(() => w.cleanup());

const graph = () => loadProjectGraph(w.store, w.project);

describe('engram query', () => {
  it('filters by type, tag, status, since; recent first', () => {
    expect(queryGraph(graph(), { type: 'decision' }).map((h) => h.node.id)).toEqual([ids['db'], ids['auth']]);
    expect(
      queryGraph(graph(), { tag: 'auth' })
        .map((h) => h.node.id)
        .sort(),
    ).toEqual([ids['auth'], ids['authBug']].sort());
    expect(
      queryGraph(graph(), { type: 'file' })
        .map((h) => h.node.title)
        .sort(),
    ).toEqual(['src/auth.ts', 'src/db.ts']);
    expect(queryGraph(graph(), { recent: 2, type: 'fact' }).map((h) => h.node.id)).toEqual([ids['old']]);
    const since = (w.store.observations.get(ids['db'] as string)?.createdAt ?? 0) - 1;
    expect(queryGraph(graph(), { since, type: 'decision' }).map((h) => h.node.id)).toEqual([ids['db']]);
    w.store.memory.invalidate(ids['lone'] as string, 'wrong', ctx);
    expect(queryGraph(graph(), { status: 'invalidated' }).map((h) => h.node.id)).toEqual([ids['lone']]);
  });

  it('related to a memory: links, backlinks, shared files, tags — each saying why', () => {
    const hits = queryGraph(graph(), { related: ids['auth'] as string });
    const byId = new Map(hits.map((h) => [h.node.id, h]));
    expect(hits[0]?.node.id).toBe(ids['authBug']);
    expect(byId.get(ids['authBug'] as string)?.why).toEqual(
      expect.arrayContaining(['links here (depends_on)', 'shares src/auth.ts', 'tags: auth']),
    );
    expect(byId.get(fileNodeId(w.project.id, 'src/auth.ts'))?.why).toEqual(['links to it (touches)']);
    expect(byId.has(ids['lone'] as string)).toBe(false);
    expect(queryHitLine(hits[0] as never, () => 'x')).toMatch(
      /^\[bugfix\] Login loops on expired token · obs_\w+ {2}\[/,
    );
  });

  it('related to a path: the memories touching the file and the files touched with it', () => {
    const hits = queryGraph(graph(), { related: 'src/db.ts' });
    expect(hits.map((h) => h.node.id)).toEqual(
      expect.arrayContaining([ids['db'], ids['authBug'], fileNodeId(w.project.id, 'src/auth.ts')]),
    );
    expect(hits.find((h) => h.node.title === 'src/auth.ts')?.why).toEqual(['touched together by 1 memory']);
    expect(() => queryGraph(graph(), { related: 'nope.ts' })).toThrow(/nothing called "nope.ts"/);
  });

  it('--stale lists stale memories with when and why', () => {
    w.write('src/db.ts', 'export function open(path: string) {}\n');
    refreshAnchors(w.store, w.project, { now: Date.now(), origin: 'cli', full: true });
    const hits = queryGraph(graph(), { staleOnly: true });
    expect(hits.map((h) => h.node.id).sort()).toEqual([ids['authBug'], ids['db']].sort());
    expect(queryHitJson(hits[0] as never)).toMatchObject({
      stale: true,
      stale_reason: 'src/db.ts changed',
    });
  });

  it('neighbourhood: the node and its neighbours, both ways', () => {
    const n = neighbourhood(graph(), ids['auth'] as string, 2);
    expect(n?.rings.filter((r) => r.depth === 1).map((r) => r.node.id)).toEqual(
      expect.arrayContaining([ids['authBug'], fileNodeId(w.project.id, 'src/auth.ts')]),
    );
    expect(n?.rings.some((r) => r.depth === 2 && r.node.id === ids['db'])).toBe(true);
  });
});

describe('engram prune', () => {
  it('archives the least connected, oldest beyond the limit; pinned stay; dry run changes nothing', () => {
    w.store.memory.pin(ids['old'] as string, true, ctx);
    const dry = pruneProject(w.store, w.project, { maxNodes: 3, dryRun: true, now: 9, origin: 'cli' });
    expect(dry.archived.map((c) => c.id)).toEqual([ids['lone'], ids['db']]);
    expect(w.store.observations.get(ids['lone'] as string)?.status).toBe('active');
    pruneProject(w.store, w.project, { maxNodes: 3, dryRun: false, now: 9, origin: 'cli' });
    expect(w.store.observations.get(ids['lone'] as string)?.status).toBe('archived');
    expect(w.store.observations.get(ids['old'] as string)?.status).toBe('active');
    expect(
      pruneProject(w.store, w.project, { maxNodes: 3, dryRun: false, now: 9, origin: 'cli' }).archived,
    ).toEqual([]);
  });
});
