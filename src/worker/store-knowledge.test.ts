import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { projectIdFromKey } from '../core/ids.ts';
import type { ObservationDraft } from '../core/model.ts';
import { openDatabase } from '../store/database.ts';
import { createStore, type Store } from '../store/store.ts';
import { draftOf } from '../store/store.test-support.ts';
import { storeKnowledge, type KnowledgeBatch } from './store-knowledge.ts';

const projectId = projectIdFromKey('path:/shop');

describe('knowledge stored through the mutation path', () => {
  let dir: string;
  let store: Store;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'engram-knowledge-'));
    store = createStore(openDatabase(join(dir, 'engram.db')));
  });
  afterEach(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  let clock = 1_000;
  const put = (sessionId: string, drafts: ObservationDraft[], extra: Partial<KnowledgeBatch> = {}) => {
    const at = (clock += 1_000);
    return store.transaction(() =>
      storeKnowledge(
        store,
        {
          projectId,
          sessionId,
          source: 'hook',
          memories: drafts.map((draft) => ({ draft, createdAt: at, provenance: [`session:${sessionId}`] })),
          ...extra,
        },
        { origin: 'hook', at },
      ),
    );
  };
  const active = () => store.observations.recent(projectId, 100);
  const ops = (id: string) =>
    store.changes
      .since(0, 500)
      .filter((c) => c.entityId === id)
      .map((c) => c.op);

  const testFact = (main: string, more: string[] = []) =>
    draftOf(`\`${main}\` runs the tests`, {
      narrative: `In this project, \`${main}\` runs the tests.`,
      facts: [`command: \`${main}\``, ...more],
      concepts: ['project command', 'test'],
      subject: 'command:test',
    });

  it('merges a command seen again into its one fact, pinned, counted, with its other forms added', () => {
    put('s1', [testFact('npm test')]);
    put('s2', [testFact('npm test', ['one file: `npm test -- <file>`'])]);
    put('s3', [testFact('npx vitest run')]);
    const facts = active();
    expect(facts).toHaveLength(1);
    expect(facts[0]).toMatchObject({
      title: '`npm test` runs the tests',
      pinned: true,
      seenCount: 3,
      subject: 'command:test',
      facts: ['command: `npm test`', 'one file: `npm test -- <file>`', 'also: `npx vitest run`'],
    });
    expect(ops(facts[0]?.id ?? '')).toEqual(['create', 'edit', 'merge', 'edit', 'merge']);
  });

  it('closes a failure left open when a later session makes the same command work, as a gotcha with its fix', () => {
    put('s1', [
      draftOf('`npm run test:integration` fails: connect ECONNREFUSED 127.0.0.1:5432', {
        type: 'failed_attempt',
        facts: [
          'error: Error: connect ECONNREFUSED 127.0.0.1:5432',
          'also failed: `docker compose up -d db` (Cannot connect to the Docker daemon)',
        ],
        subject: 'fail:npm run test:integration',
      }),
    ]);
    const [failed] = active();
    // A success older than the failure closes nothing.
    put('s0', [], {
      resolutions: [
        {
          key: 'cmd:npm run test:integration',
          command: 'npm run test:integration',
          fix: '',
          files: [],
          at: 0,
        },
      ],
    });
    expect(store.observations.get(failed?.id ?? '')?.type).toBe('failed_attempt');
    const report = put('s2', [], {
      resolutions: [
        {
          key: 'cmd:npm run test:integration',
          command: 'npm run test:integration',
          fix: 'run `docker compose up -d db` first',
          files: [],
          at: clock + 1,
        },
      ],
    });
    expect(report.closed).toBe(1);
    const closed = store.observations.get(failed?.id ?? '');
    expect(closed).toMatchObject({
      type: 'gotcha',
      status: 'active',
      title:
        '`npm run test:integration` fails: connect ECONNREFUSED 127.0.0.1:5432 → run `docker compose up -d db` first',
      subject: 'gotcha:npm run test:integration:connect econnrefused',
    });
    expect(closed?.facts).toContain('then passed: `npm run test:integration`');
    expect(closed?.facts).toContain(
      'tried before: also failed: `docker compose up -d db` (Cannot connect to the Docker daemon)',
    );
    expect(ops(failed?.id ?? '')).toEqual(['create', 'edit']);
    expect(store.observations.bySubject(projectId, 'fail:npm run test:integration')).toBeNull();
  });

  it('lets a newer rule on the same subject supersede the older one (with a link), and merges the same rule said again', () => {
    put('s1', [draftOf('Always store prices as integer cents', { type: 'preference' })]);
    put('s2', [draftOf('Always store prices as integer cents.', { type: 'preference' })]);
    put('s3', [draftOf('Never commit directly to main', { type: 'preference' })]);
    put('s4', [
      draftOf('Store prices as integer cents in a Money type, not as plain numbers', { type: 'preference' }),
    ]);
    const rules = active().map((o) => [o.title, o.pinned, o.seenCount]);
    expect(rules).toEqual([
      ['Store prices as integer cents in a Money type, not as plain numbers', true, 1],
      ['Never commit directly to main', true, 1],
    ]);
    const [latest] = active();
    expect(latest?.supersedes).not.toBeNull();
    const older = store.observations.get(latest?.supersedes ?? '');
    expect(older).toMatchObject({ status: 'superseded', seenCount: 2 });
    expect(
      store.changes
        .since(0, 500)
        .some((c) => c.entity === 'link' && c.entityId === `${latest?.id} supersedes ${older?.id}`),
    ).toBe(true);
  });

  it('keeps one task list per session, updated as it changes and archived when everything is done', () => {
    const list = (title: string) => draftOf(title, { type: 'task', subject: 'tasks:s1' });
    put('s1', [list('Open tasks (2 of 2): Add the route')]);
    put('s1', [list('Open tasks (1 of 2): Write the docs')]);
    const [one] = active();
    expect(active()).toHaveLength(1);
    expect(one?.title).toBe('Open tasks (1 of 2): Write the docs');
    put('s1', [], { finishedTasks: [{ subject: 'tasks:s1', at: clock + 1 }] });
    expect(active()).toEqual([]);
    expect(store.observations.get(one?.id ?? '')?.status).toBe('archived');
  });

  it('attaches a commit of earlier work to that work instead of a second memory', () => {
    put('s1', [draftOf('Checkout page route added', { type: 'feature', filesModified: ['src/routes.ts'] })]);
    put('s1', [
      draftOf('Add checkout page route', {
        type: 'feature',
        facts: ['committed 3f2a1b9: feat(checkout): add checkout page route (on main)'],
        subject: 'attach:commit',
      }),
    ]);
    expect(active().map((o) => [o.title, o.subtitle, o.facts])).toEqual([
      [
        'Add checkout page route',
        'Checkout page route added',
        ['committed 3f2a1b9: feat(checkout): add checkout page route (on main)'],
      ],
    ]);
  });

  it('supersedes an environment fact whose value changed', () => {
    put('s1', [draftOf('node 20.11.0 in this environment', { subject: 'env:version:node' })]);
    put('s2', [draftOf('node 20.11.0 in this environment', { subject: 'env:version:node' })]);
    put('s3', [draftOf('node 22.3.0 in this environment', { subject: 'env:version:node' })]);
    expect(active().map((o) => [o.title, o.seenCount])).toEqual([['node 22.3.0 in this environment', 1]]);
  });

  it('reads the same words of the user again into the same memory, the fuller reading replacing a plainer one', () => {
    const said = 'said:0badc0de';
    put('s1', [draftOf('Never commit directly to main.', { type: 'preference', subject: said, facts: ['said: Never commit directly to main.'] })]);
    const [first] = active();
    put('s1', [
      draftOf('Correction: Never commit directly to main.', {
        type: 'correction',
        subject: said,
        facts: ['rejected: Bash `git push origin main`', 'instead: Never commit directly to main.'],
      }),
    ]);
    // A plainer reading later (the words quoted by a compaction digest) changes nothing.
    put('s1', [draftOf('Never commit directly to main.', { type: 'preference', subject: said })]);
    expect(active().map((o) => [o.id, o.type, o.title, o.pinned])).toEqual([
      [first?.id, 'correction', 'Correction: Never commit directly to main.', true],
    ]);
  });

  it('withdraws what the assistant stated when the user’s correction refutes it — never the user’s own words', () => {
    const made = put('s1', [
      draftOf('The issue is that CI is running on an older commit that still had the problems.', { type: 'discovery' }),
      draftOf('npm run check passes locally', { type: 'discovery' }),
      draftOf('Use pnpm, not npm, in CI', { type: 'preference' }),
    ]);
    const at = (clock += 1_000);
    store.transaction(() =>
      storeKnowledge(
        store,
        {
          projectId,
          sessionId: 's1',
          source: 'transcript',
          memories: [
            {
              draft: draftOf('Correction: the ci is running on the current commit', { type: 'correction' }),
              createdAt: at,
              provenance: ['session:s1'],
              refutes: [
                'The issue is that **CI is running on an older commit** that still had the problems.',
                'Use pnpm, not npm, in CI',
              ],
            },
          ],
        },
        { origin: 'transcript', at },
      ),
    );
    expect(active().map((o) => o.title).sort()).toEqual([
      'Correction: the ci is running on the current commit',
      'Use pnpm, not npm, in CI',
      'npm run check passes locally',
    ]);
    expect(store.observations.get(made.ids[0] ?? '')).toMatchObject({
      status: 'invalidated',
      statusReason: 'the user corrected it',
    });
  });
});
