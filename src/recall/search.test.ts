import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { projectIdFromKey, type ProjectId } from '../core/ids.ts';
import type { ObservationDraft } from '../core/model.ts';
import { openDatabase } from '../store/database.ts';
import { createStore, type Store } from '../store/store.ts';
import { searchMemories } from './search.ts';
import { timeline } from './timeline.ts';
import { insertMemory } from '../store/store.test-support.ts';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 20);

describe('searchMemories', () => {
  let dir: string;
  let store: Store;
  const pid = projectIdFromKey('p');
  const other = projectIdFromKey('other');

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'engram-search-'));
    store = createStore(openDatabase(join(dir, 'db')));
  });
  afterEach(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const add = (
    title: string,
    narrative: string,
    at: number,
    extra: Partial<ObservationDraft> & { projectId?: ProjectId; sessionId?: string } = {},
  ) => {
    const { projectId, sessionId, ...draft } = extra;
    return insertMemory(store, {
      projectId: projectId ?? pid,
      sessionId: sessionId ?? null,
      createdAt: at,
      title,
      draft: { narrative, ...draft },
    });
  };
  const search = (query: string, more: Partial<Parameters<typeof searchMemories>[1]> = {}) =>
    searchMemories(store, { query, projectId: pid, limit: 5, now: NOW, ...more }).map(
      (h) => h.observation.id as string,
    );

  it('ranks a memory holding every query word above one that repeats a single word', () => {
    add('Cache cache cache', 'cache warming, cache eviction, cache keys', NOW - DAY);
    const both = add('Cache invalidation on deploy', 'The deploy step clears the cache', NOW - DAY);
    add('Deploy pipeline', 'Deploys run on merge', NOW - DAY);
    const hits = searchMemories(store, { query: 'cache deploy', projectId: pid, limit: 3, now: NOW });
    expect(hits[0]?.observation.id).toBe(both);
    expect(hits[0]?.coverage).toBe(1);
    expect(search('the of and')).toEqual([]);
  });

  it('hides superseded and invalidated memories unless asked, and never returns forgotten ones', () => {
    const live = add('Token refresh uses a mutex', 'one refresh at a time', NOW - DAY);
    const wrong = add('Token refresh retries forever', 'an old idea', NOW - DAY);
    const gone = add('Token refresh secret note', 'erase me', NOW - DAY);
    store.memory.invalidate(wrong, 'wrong', { origin: 'cli', at: NOW });
    store.memory.forget(gone, { origin: 'cli', at: NOW });
    expect(search('token refresh')).toEqual([live]);
    const all = search('token refresh', { includeHidden: true });
    expect(all).toEqual([live, wrong]);
    expect(all).not.toContain(gone);
  });

  it('prefers recent memories and weightier types when relevance is equal', () => {
    const old = add('Retry policy for uploads', 'three tries', NOW - 200 * DAY);
    const recent = add('Retry policy for uploads.', 'three tries', NOW - DAY);
    expect(search('retry policy uploads')[0]).toBe(recent);
    const decision = add('Retry policy for uploads!', 'three tries', NOW - 200 * DAY, { type: 'decision' });
    expect(search('retry policy uploads').indexOf(decision)).toBeLessThan(
      search('retry policy uploads').indexOf(old),
    );
  });

  it('keeps to the project unless asked for every project, and filters by type', () => {
    const here = add('Flaky login test', 'timing', NOW - DAY);
    const there = add('Flaky login test elsewhere', 'timing', NOW - DAY, { projectId: other });
    const bug = add('Login test fixed', 'flaky because of timing', NOW - DAY, { type: 'bugfix' });
    expect(search('flaky login')).not.toContain(there);
    expect(search('flaky login', { projectId: null })).toEqual(expect.arrayContaining([here, there, bug]));
    expect(search('flaky login', { types: ['bugfix'] })).toEqual([bug]);
  });

  it('finds identifiers by their parts, paths as phrases, prefixes and quoted phrases', () => {
    const ident = add('parseConfigFile rejects empty files', 'throws on an empty input', NOW - DAY);
    const path = add('Edited src/auth/token.ts', 'renamed a function', NOW - DAY);
    const phrase = add('Moved the token cache', 'cache of the token moved', NOW - DAY);
    const other2 = add('Token moved into the cache', 'unrelated order', NOW - DAY);
    expect(search('config file')).toContain(ident);
    expect(search('parseConfigFile')[0]).toBe(ident);
    expect(search('src/auth/token.ts')[0]).toBe(path);
    expect(search('pars*')).toContain(ident);
    expect(search('"token cache"')).toContain(phrase);
    expect(search('"token cache"')).not.toContain(other2);
  });

  it('lends part of a strong match\u2019s score to the memory before it in its session', () => {
    const failure = add('npm test fails in the billing suite', 'TypeError: cannot read amount', NOW - DAY, {
      sessionId: 's1',
      type: 'error',
    });
    const fix = add('Rounded invoice totals to cents', 'fixed the rounding of totals', NOW - DAY + 1000, {
      sessionId: 's1',
      type: 'bugfix',
    });
    add('Unrelated memory in another session', 'nothing here', NOW - DAY, { sessionId: 's2' });
    const hits = searchMemories(store, { query: 'rounding totals', projectId: pid, limit: 5, now: NOW });
    expect(hits.map((h) => h.observation.id)).toEqual([fix, failure]);
    expect(hits.map((h) => h.via)).toEqual(['lexical', 'context']);
    const plain = searchMemories(store, {
      query: 'rounding totals',
      projectId: pid,
      limit: 5,
      now: NOW,
      context: false,
    });
    expect(plain.map((h) => h.observation.id)).toEqual([fix]);
  });

  it('lends the same share to the memory after a match: the fix that followed a failure is found by the failure’s words', () => {
    // A coding session: the failure, then the fix in other words (no word of the query in it).
    const failure = add(
      'Tests fail with ECONNREFUSED 127.0.0.1:5432',
      'the billing suite cannot connect',
      NOW - DAY,
      {
        sessionId: 's3',
        type: 'error',
      },
    );
    const fix = add(
      'Start the postgres container before the suite',
      'docker compose up -d db in globalSetup',
      NOW - DAY + 1000,
      {
        sessionId: 's3',
        type: 'bugfix',
      },
    );
    add('Moved the proxy config', 'unrelated memory of another session', NOW - DAY, { sessionId: 's4' });
    const hits = searchMemories(store, {
      query: 'ECONNREFUSED in the tests',
      projectId: pid,
      limit: 5,
      now: NOW,
    });
    expect(hits.map((h) => h.observation.id)).toEqual([failure, fix]);
    expect(hits.map((h) => h.via)).toEqual(['lexical', 'context']);
    // Before and after alike, whatever the memory says (no rule reads a question mark).
    const before = searchMemories(store, { query: 'postgres container', projectId: pid, limit: 5, now: NOW });
    expect(before.map((h) => h.observation.id)).toEqual([fix, failure]);
    expect(search('ECONNREFUSED', { context: false })).toEqual([failure]);
  });

  it('drags in no neighbour of a weak match: a query with no good match finds only what holds its words', () => {
    const strong = add('Rate limiter uses a token bucket', 'bucket refills every second', NOW - DAY, {
      sessionId: 's5',
    });
    const beside = add('Benchmarked the gateway', 'p95 under load', NOW - DAY + 1000, { sessionId: 's5' });
    const weak = add('Gateway timeout raised to 30 s', 'slow upstream', NOW - DAY, { sessionId: 's6' });
    const afterWeak = add('Rewrote the changelog', 'release notes', NOW - DAY + 1000, { sessionId: 's6' });
    // Nothing holds "kubernetes": nothing at all comes back, no neighbour either.
    expect(search('kubernetes autoscaler')).toEqual([]);
    // "token bucket" matches strongly; "timeout" weakly matches nothing of it: no neighbour of the weak one.
    const ids = search('token bucket limiter');
    expect(ids[0]).toBe(strong);
    expect(ids).toContain(beside);
    expect(ids).not.toContain(weak);
    expect(ids).not.toContain(afterWeak);
  });

  it('fuses vector neighbours with the lexical ranking', () => {
    const lexical = add('Database migrations run at start', 'migrator', NOW - DAY);
    const semantic = add('Schema upgrades happen on boot', 'same idea, other words', NOW - DAY);
    const hits = searchMemories(store, {
      query: 'database migrations',
      projectId: pid,
      limit: 5,
      now: NOW,
      vectorIds: [semantic, lexical],
    });
    expect(hits.map((h) => h.observation.id).sort()).toEqual([lexical, semantic].sort());
    expect(hits.find((h) => h.observation.id === lexical)?.via).toBe('both');
    expect(hits.find((h) => h.observation.id === semantic)?.via).toBe('vector');
  });

  it('keeps the lexical order when the vector neighbours rank a strong match last', () => {
    const strong = add('Sales tax is rounded per line', 'rounding rule for tax', NOW - DAY);
    const weak = add('Tax report exported monthly', 'csv export', NOW - DAY);
    const others = Array.from({ length: 8 }, (_, i) => add(`Unrelated note ${i}`, 'nothing here', NOW - DAY));
    // The embedder found the weak match nearest and the strong one farthest of ten.
    const vectorIds = [weak, ...others, strong];
    const hits = searchMemories(store, {
      query: 'sales tax rounding',
      projectId: pid,
      limit: 5,
      now: NOW,
      vectorIds,
      vectorDistances: vectorIds.map((_, i) => 0.2 + i * 0.05),
    });
    expect(hits[0]?.observation.id).toBe(strong);
    expect(hits[0]?.via).toBe('both');
    expect(hits.map((h) => h.observation.id)).toContain(weak);
  });

  it('stays bounded on common words: distinctive words are scored, the newest memories stand in for the rest', () => {
    const rare = add('Kubernetes deploy rollback', 'rolled back with kubectl', NOW - 300 * DAY);
    store.transaction(() => {
      for (let i = 0; i < 400; i++)
        add(`Deploy number ${i}`, `deploy step ${i} finished`, NOW - (400 - i) * 60_000);
    });
    const newest = add('Deploy of the hotfix', 'deploy finished late', NOW - 1000);
    add('Unrelated newest memory', 'nothing about the topic', NOW);
    expect(store.observations.matchCount('"deploy"', 1000)).toBeGreaterThan(300);
    expect(search('kubernetes deploy')[0]).toBe(rare);
    const common = search('deploy');
    expect(common[0]).toBe(newest);
    expect(common).toHaveLength(5);
    expect(search('deploy rollback')[0]).toBe(rare);
  });

  it('answers hostile queries with results or nothing, never an error', () => {
    add('NEAR the parser', 'quotes " and ( parens', NOW - DAY);
    const hostile = [
      'NEAR(a b)',
      '"unbalanced',
      '((( parser',
      'title:parser',
      "'; DROP TABLE observations; --",
      'a* OR NOT b AND -c ^d',
      '😀 emoji 🚀 parser',
      'x'.repeat(10_000),
      'parser '.repeat(2_000),
      '"" \\ ` {} [] * : ^ - ** "*" NEAR/3',
      '\u0000\u0001 parser \uFFFF',
    ];
    for (const q of hostile) expect(() => search(q, { includeHidden: true })).not.toThrow();
    expect(search('((( parser')).toHaveLength(1);
    expect(search('😀 emoji 🚀 parser')).toHaveLength(1);
  });
});

describe('timeline', () => {
  it('lists the memories around an id or a date, oldest first, and says how to fix a bad anchor', () => {
    const dir = mkdtempSync(join(tmpdir(), 'engram-timeline-'));
    const store = createStore(openDatabase(join(dir, 'db')));
    const pid = projectIdFromKey('t');
    const ids = [1, 2, 3, 4, 5].map((d) =>
      insertMemory(store, {
        projectId: pid,
        sessionId: 's',
        createdAt: Date.UTC(2026, 10, d),
        title: `Day ${d}`,
        draft: { type: 'change' },
      }),
    );
    const t = timeline(store, { id: ids[2], projectId: pid, before: 1, after: 1 });
    expect(t.items.map((o) => o.title)).toEqual(['Day 2', 'Day 3', 'Day 4']);
    expect(t.anchorId).toBe(ids[2]);
    const byDate = timeline(store, { date: '2026-11-03T12:00', projectId: pid, before: 2, after: 1 });
    expect(byDate.items.map((o) => o.title)).toEqual(['Day 2', 'Day 3', 'Day 4']);
    expect(() => timeline(store, { date: 'next tuesday', projectId: pid, before: 1, after: 1 })).toThrow(
      /cannot read the date/,
    );
    expect(() => timeline(store, { id: 'obs_missing', projectId: pid, before: 1, after: 1 })).toThrow(
      /no memory/,
    );
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });
});
