import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { projectIdFromKey } from '../core/ids.ts';
import type { Project } from '../core/model.ts';
import { openDatabase } from '../store/database.ts';
import { createStore, type Store } from '../store/store.ts';
import { draftOf, TEST_CHANGE } from '../store/store.test-support.ts';
import { renderSessionContext } from './render-context.ts';

const project: Project = {
  id: projectIdFromKey('path:/shop'),
  name: 'shop',
  key: 'path:/shop',
  root: '/shop',
};
const DAY = 86_400_000;
const NOW = 100 * DAY;

describe('the SessionStart index keeps standing knowledge in view', () => {
  let dir: string;
  let store: Store;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'engram-context-'));
    store = createStore(openDatabase(join(dir, 'engram.db')));
  });
  afterEach(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const add = (
    title: string,
    createdAt: number,
    extra: { type?: 'fact' | 'preference' | 'decision' | 'feature'; pinned?: boolean } = {},
  ) =>
    store.memory.create(
      {
        projectId: project.id,
        sessionId: `s-${createdAt}`,
        source: 'hook',
        createdAt,
        provenance: [],
        draft: draftOf(title, { type: extra.type ?? 'feature' }),
        pinned: extra.pinned ?? false,
      },
      TEST_CHANGE,
    ).id;
  const render = (source = 'startup', sessionId = 'next') =>
    renderSessionContext(store, {
      project,
      sessionId,
      source,
      now: NOW,
      budgetTokens: 1000,
      recentCount: 40,
    });

  it('lists pinned memories first, whatever their age, after weeks of newer work', () => {
    const cents = add('Always store prices as integer cents', 1 * DAY, { type: 'preference', pinned: true });
    const test = add('`npm test` runs the tests', 2 * DAY, { type: 'fact', pinned: true });
    const old = add('Add the first helper', 3 * DAY);
    for (let i = 0; i < 60; i++)
      add(`Add a helper formatThing${i} that formats a thing${i} label nicely`, 40 * DAY + i * DAY);
    const ctx = render();
    expect(ctx.observationIds.slice(0, 2)).toEqual([cents, test]);
    expect(ctx.observationIds).not.toContain(old);
    expect(ctx.text).toMatch(
      /Standing knowledge \(kept until superseded[^\n]*\n- \S+ \[preference\] Always store prices as integer cents · 3mo ago/,
    );
    expect(ctx.text.indexOf('Standing knowledge')).toBeLessThan(ctx.text.indexOf('Recent memories'));
    expect(ctx.text.length).toBeLessThanOrEqual(4000);
  });

  it('shows the commands card’s title whole, every command it lists; another long title is cut at 90', () => {
    const title =
      'Commands: test `npm test` · check `npm run check` (CI runs it) · typecheck `npm run typecheck` · lint `npx biome check .` · format `npm run format`';
    const draft = (subject: string) =>
      draftOf(title, { type: 'fact', subject, facts: [`${subject} · command: \`npm test\``] });
    for (const [i, subject] of ['commands:.', 'env:other'].entries())
      store.memory.create(
        {
          projectId: project.id,
          sessionId: 's1',
          source: 'hook',
          createdAt: DAY + i,
          provenance: [],
          draft: draft(subject),
          pinned: true,
        },
        TEST_CHANGE,
      );
    const lines = render()
      .text.split('\n')
      .filter((l) => l.includes('Commands: test'));
    expect(lines).toHaveLength(2);
    // The card (created first, listed after the newer one) whole; the other cut.
    expect(lines[1]).toContain(`[fact] ${title} · `);
    expect(lines[0]).toContain(
      '[fact] Commands: test `npm test` · check `npm run check` (CI runs it) · typecheck `npm run typec… · ',
    );
  });

  it('keeps standing knowledge within its share of the budget, saying how many more there are', () => {
    for (let i = 0; i < 40; i++)
      add(`Decision ${i}: use the ${i}th approach for the thing, because reasons of some length`, DAY + i, {
        type: 'decision',
        pinned: true,
      });
    for (let i = 0; i < 10; i++) add(`Recent work ${i}`, 50 * DAY + i);
    const ctx = renderSessionContext(store, {
      project,
      sessionId: 'n',
      source: 'startup',
      now: NOW,
      budgetTokens: 1000,
      recentCount: 40,
      standingShare: 0.3,
    });
    const standing = ctx.text.slice(
      ctx.text.indexOf('Standing knowledge'),
      ctx.text.indexOf('Recent memories'),
    );
    expect(standing.length).toBeLessThanOrEqual(0.3 * 4000 + 100);
    expect(standing).toMatch(/\(\+\d+ more standing: `engram search <words>`\)/);
    expect(ctx.text).toMatch(/Recent memories[\s\S]*Recent work 9/);
  });

  it('keeps a standing memory whose code changed, marked stale', () => {
    const rule = add('Prices go through `toCents()` in src/money.ts', DAY, {
      type: 'decision',
      pinned: true,
    });
    const ctx = renderSessionContext(store, {
      project,
      sessionId: 'n',
      source: 'startup',
      now: NOW,
      budgetTokens: 1000,
      recentCount: 40,
      staleOf: (ids) =>
        new Map(
          ids
            .filter((id) => id === rule)
            .map((id) => [id, { since: NOW - DAY, reason: 'src/money.ts changed' }]),
        ),
    });
    expect(ctx.observationIds[0]).toBe(rule);
    expect(ctx.text).toMatch(
      /\[decision\] Prices go through[^\n]*stale since \S+ \(src\/money\.ts changed\)/,
    );
  });

  it('does not repeat standing knowledge a resumed session was already told', () => {
    const cents = add('Always store prices as integer cents', DAY, { type: 'preference', pinned: true });
    store.injections.record('resumed', [cents], NOW - 1000);
    expect(render('resume', 'resumed').observationIds).not.toContain(cents);
    expect(render('startup', 'fresh').observationIds).toContain(cents);
  });
});

describe('the SessionStart index tells sessions in the order they happened', () => {
  let dir: string;
  let store: Store;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'engram-context-order-'));
    store = createStore(openDatabase(join(dir, 'engram.db')));
  });
  afterEach(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const summary = (request: string) => ({
    request,
    investigated: '',
    learned: '',
    completed: `State: on branch main; nothing uncommitted | did ${request}`,
    nextSteps: '',
    filesRead: [],
    filesEdited: [],
    notes: '',
  });
  const render = (recentCount = 6) =>
    renderSessionContext(store, {
      project,
      sessionId: 'next',
      source: 'startup',
      now: NOW,
      budgetTokens: 1000,
      recentCount,
    });

  it('shows as "Last session" the one that happened last, with its own age, whatever order they were read in', () => {
    // Backfill reads the newer session first, the older one later, both today.
    store.memory.saveSummary(
      'newer',
      project.id,
      summary('the newer work'),
      true,
      { ...TEST_CHANGE, at: NOW },
      NOW - 2 * DAY,
    );
    store.memory.saveSummary(
      'older',
      project.id,
      summary('the older work'),
      true,
      { ...TEST_CHANGE, at: NOW + 1 },
      NOW - 9 * DAY,
    );
    const text = render().text;
    expect(text).toContain('Last session (2d ago):');
    expect(text).toContain('  State: on branch main; nothing uncommitted\n  Completed: did the newer work');
    expect(text).toContain('Request: the newer work');
    expect(text).toContain(
      'Sessions before it:\n  - 9d ago: the older work (on branch main; nothing uncommitted)',
    );
    expect(text.indexOf('the older work')).toBeGreaterThan(text.indexOf('Request: the newer work'));
  });

  it('keeps the session before the newest in the recent list, however much the newest stored', () => {
    const add = (sessionId: string, title: string, createdAt: number) =>
      store.memory.create(
        {
          projectId: project.id,
          sessionId,
          source: 'hook',
          createdAt,
          provenance: [],
          draft: draftOf(title, { type: 'feature' }),
          pinned: false,
        },
        TEST_CHANGE,
      ).id;
    const before = [
      add('s1', 'Add the invoice exporter', 10 * DAY),
      add('s1', 'Add the CSV writer for invoices', 10 * DAY + 1),
    ];
    for (let i = 0; i < 12; i++) add('s2', `Rename helper number ${i} in the payment module`, 20 * DAY + i);
    const ids = render(6).observationIds;
    expect(ids).toHaveLength(6);
    expect(ids).toEqual(expect.arrayContaining(before));
  });
});
