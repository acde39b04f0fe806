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

/** Store `drafts` as one batch of a session's knowledge at `at`, in one transaction. */
function putKnowledge(
  store: Store,
  at: number,
  sessionId: string,
  drafts: ObservationDraft[],
  extra: Partial<KnowledgeBatch>,
) {
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
}

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
  const put = (sessionId: string, drafts: ObservationDraft[], extra: Partial<KnowledgeBatch> = {}) =>
    putKnowledge(store, (clock += 1_000), sessionId, drafts, extra);
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

  it('merges a command seen again into its entry of the one commands card, pinned, counted, with its other forms added', () => {
    put('s1', [testFact('npm test')]);
    put('s2', [testFact('npm test', ['one file: `npm test -- <file>`'])]);
    put('s3', [testFact('npx vitest run')]);
    const facts = active();
    expect(facts).toHaveLength(1);
    expect(facts[0]).toMatchObject({
      title: 'Commands: test `npm test`',
      narrative: 'In this project: `npm test` runs the tests.',
      pinned: true,
      seenCount: 3,
      subject: 'commands:.',
      facts: [
        'test · command: `npm test`',
        'test · one file: `npm test -- <file>`',
        'test · also: `npx vitest run`',
      ],
    });
    expect(ops(facts[0]?.id ?? '')).toEqual(['create', 'edit', 'merge', 'edit', 'merge']);
  });

  const purposeFact = (purpose: string, main: string, what: string, more: string[] = [], dir = '') =>
    draftOf(`\`${main}\` ${what}`, {
      narrative: `In this project, \`${main}\` ${what}.`,
      facts: [`command: \`${main}\``, ...more],
      concepts: ['project command', purpose],
      subject: `command:${purpose}${dir ? `@${dir}` : ''}`,
      trust: 'tool',
    });
  const card = (dir = '.') => store.observations.bySubject(projectId, `commands:${dir}`);

  it('gathers the purposes two sessions learned into one card, in a fixed order; the same purpose seen again is merged, a new main form changes its entry', () => {
    put('s1', [purposeFact('typecheck', 'npm run typecheck', 'type-checks the code')]);
    put('s2', [purposeFact('gate', 'npm run check', 'runs the project’s checks', ['CI runs it: a CI log'])]);
    expect(active()).toHaveLength(1);
    const first = card();
    expect(first).toMatchObject({
      type: 'fact',
      pinned: true,
      title: 'Commands: check `npm run check` (CI runs it) · typecheck `npm run typecheck`',
      narrative:
        'In this project: `npm run check` runs the project’s checks; CI runs it (a CI log). `npm run typecheck` type-checks the code.',
      facts: [
        'gate · command: `npm run check`',
        'gate · CI runs it: a CI log',
        'typecheck · command: `npm run typecheck`',
      ],
    });
    // Seen again as it is: counted, not a second entry, not edited.
    put('s3', [purposeFact('typecheck', 'npm run typecheck', 'type-checks the code')]);
    expect(active()).toHaveLength(1);
    expect(card()).toMatchObject({ seenCount: 3, version: first?.version, facts: first?.facts });
    // Another form of type-checking: the entry says so.
    put('s4', [purposeFact('typecheck', 'npx tsc --noEmit', 'type-checks the code')]);
    expect(card()?.facts).toContain('typecheck · also: `npx tsc --noEmit`');
    expect(card()?.id).toBe(first?.id);
    expect(ops(first?.id ?? '')).toEqual(['create', 'edit', 'merge', 'merge', 'edit', 'merge']);
    expect(card()?.trust).toBe('tool');
    // A purpose learned from weaker evidence: the card takes the lowest trust of what it holds.
    put('s5', [{ ...purposeFact('format', 'npm run format', 'formats the code'), trust: 'external' }]);
    expect(card()?.trust).toBe('external');
    // Commands run in a sub-folder have a card of their own.
    put('s5', [purposeFact('lint', 'npm run lint', 'lints the code', [], 'web')]);
    expect(card('web')?.title).toBe('Commands in web: lint `npm run lint`');
    expect(active()).toHaveLength(2);
  });

  it('folds the per-purpose command facts a store written before the card holds into it, superseded by it', () => {
    // Written by the version before the card: one memory per purpose, created directly.
    const written = (draft: ReturnType<typeof purposeFact>) =>
      store.transaction(
        () =>
          store.memory.create(
            {
              projectId,
              sessionId: 's0',
              source: 'hook',
              createdAt: 500,
              provenance: ['session:s0'],
              draft,
              pinned: true,
              supersedes: null,
            },
            { origin: 'hook', at: 500 },
          ).id,
      );
    const older = ['test', 'lint'].map((purpose) =>
      written(
        purposeFact(purpose, `npm run ${purpose}`, 'does it', purpose === 'lint' ? ['runs: `eslint .`'] : []),
      ),
    );
    const web = written(purposeFact('build', 'npm run build', 'builds the project', [], 'web'));
    put('s1', [purposeFact('format', 'npm run format', 'formats the code')]);
    const made = card();
    expect(made?.facts).toEqual([
      'test · command: `npm run test`',
      'lint · command: `npm run lint`',
      'lint · runs: `eslint .`',
      'format · command: `npm run format`',
    ]);
    expect(made?.title).toBe('Commands: test `npm run test` · lint `npm run lint` · format `npm run format`');
    for (const id of older) {
      expect(store.observations.get(id)?.status).toBe('superseded');
      expect(store.observations.get(id)?.statusReason).toContain(made?.id);
    }
    // Another folder's older fact waits for its own card.
    expect(store.observations.get(web)?.status).toBe('active');
    put('s2', [purposeFact('build', 'npm run build', 'builds the project', [], 'web')]);
    expect(store.observations.get(web)?.status).toBe('superseded');
    expect(card('web')?.title).toBe('Commands in web: build `npm run build`');
  });

  const failure = (title: string, subject: string, facts: string[]) =>
    draftOf(title, { type: 'failed_attempt', facts, subject });
  const passed = (
    key: string,
    command: string,
    at: number,
    more: { target?: string; fix?: string; files?: string[]; canonical?: string } = {},
  ) => ({
    key,
    target: more.target ?? '',
    command,
    canonical: more.canonical ?? command,
    fix: more.fix ?? '',
    files: more.files ?? [],
    at,
  });

  it('gathers what CI runs in the CI fact: its file’s steps, and the commands CI logs showed before or after it was read', () => {
    const ciFact = (path: string) =>
      draftOf(`CI (${path}) runs \`npm ci\``, {
        narrative: `The project's CI, as ${path} says: on push, pull_request (main), runs \`npm ci\`.`,
        facts: [`source: /shop/${path}`, 'on: push, pull_request (main)', 'runs: `npm ci`'],
        concepts: ['ci', 'project command'],
        subject: `env:ci:/shop/${path}`,
      });
    // A CI log pasted in a prompt showed the gate; later the assistant read part of the workflow.
    put('s1', [
      draftOf('`npm run check` runs the project’s checks — CI runs it', {
        facts: ['command: `npm run check`', 'CI runs it: a CI log'],
        concepts: ['project command', 'gate'],
        subject: 'command:gate',
      }),
    ]);
    // What CI runs is kept on the commands card's entry, and read from it when the CI file comes.
    expect(store.observations.bySubject(projectId, 'commands:.')?.facts).toContain(
      'gate · CI runs it: a CI log',
    );
    put('s1', [ciFact('.github/workflows/ci.yml')]);
    const ci = () => active().find((o) => (o.subject ?? '').startsWith('env:ci:'));
    expect(ci()?.title).toBe('CI (.github/workflows/ci.yml) runs `npm ci`, `npm run check`');
    expect(ci()?.facts).toContain('runs: `npm run check` (a CI log)');
    expect(ci()?.narrative).toMatch(/A CI log shows it also runs `npm run check`\.$/);
    // Another CI log, after the file was read: the one CI fact takes it too.
    put('s1', [
      draftOf('`npx biome check .` lints the code', {
        facts: ['command: `npx biome check .`', 'CI runs: `npm run audit:unused` (a CI log)'],
        concepts: ['project command', 'lint'],
        subject: 'command:lint',
      }),
    ]);
    expect(ci()?.title).toBe(
      'CI (.github/workflows/ci.yml) runs `npm ci`, `npm run check`, `npm run audit:unused`',
    );
    expect(active().filter((o) => (o.subject ?? '').startsWith('env:ci:'))).toHaveLength(1);
    // With two CI files, a log cannot say which one ran it: neither is changed.
    put('s1', [ciFact('.github/workflows/release.yml')]);
    put('s1', [
      draftOf('`npm test` runs the tests', {
        facts: ['command: `npm test`', 'CI runs it: a CI log'],
        concepts: ['project command', 'test'],
        subject: 'command:test',
      }),
    ]);
    expect(
      active()
        .filter((o) => (o.subject ?? '').startsWith('env:ci:'))
        .map((o) => o.title)
        .sort(),
    ).toEqual([
      'CI (.github/workflows/ci.yml) runs `npm ci`, `npm run check`, `npm run audit:unused`',
      'CI (.github/workflows/release.yml) runs `npm ci`',
    ]);
  });

  it('closes a failure by purpose: a later run of the same purpose, spelled differently, makes it a gotcha with its fix', () => {
    put('s1', [
      failure(
        '`npm run test:integration` fails: connect ECONNREFUSED 127.0.0.1:5432',
        'fail:test:integration',
        [
          'error: Error: connect ECONNREFUSED 127.0.0.1:5432',
          'command: `npm run test:integration`',
          'also failed: `docker compose up -d db` (Cannot connect to the Docker daemon)',
        ],
      ),
    ]);
    const [failed] = active();
    // A success older than the failure closes nothing.
    put('s0', [], { resolutions: [passed('purpose:test:integration', 'npm run test:integration', 0)] });
    expect(store.observations.get(failed?.id ?? '')?.type).toBe('failed_attempt');
    const report = put('s2', [], {
      resolutions: [
        passed(
          'purpose:test:integration',
          'npx vitest run --config vitest.integration.config.ts',
          clock + 1,
          {
            canonical: 'npx vitest run --config vitest.integration.config.ts',
            fix: 'run `docker compose up -d db` first',
          },
        ),
      ],
    });
    expect(report.closed).toBe(1);
    const closed = store.observations.get(failed?.id ?? '');
    expect(closed).toMatchObject({
      type: 'gotcha',
      status: 'active',
      title:
        '`npx vitest run --config vitest.integrat…` fails: connect ECONNREFUSED 127.0.0.1:5432 → run `docker compose up -d db` first',
      subject: 'gotcha:test:integration:connect econnrefused',
    });
    expect(closed?.facts).toContain('then passed: `npx vitest run --config vitest.integration.config.ts`');
    expect(closed?.facts).toContain(
      'tried before: also failed: `docker compose up -d db` (Cannot connect to the Docker daemon)',
    );
    expect(ops(failed?.id ?? '')).toEqual(['create', 'edit']);
    expect(store.observations.bySubject(projectId, 'fail:test:integration')).toBeNull();
  });

  it('archives a failure that was only progress (a test that found the code wrong, since fixed), and closes the older per-command form', () => {
    put('s1', [
      failure(
        '`npm test` fails: src/cart.test.ts > coupons: AssertionError: expected 90 to be 81',
        'fail:npm test',
        ['error: src/cart.test.ts > coupons: AssertionError: expected 90 to be 81', 'command: `npm test`'],
      ),
    ]);
    const [failed] = active();
    put('s2', [], {
      resolutions: [
        passed('purpose:test', 'npm test 2>&1 | tail -5', clock + 1, {
          canonical: 'npm test',
          files: ['src/cart.ts'],
          fix: 'change cart.ts',
        }),
      ],
    });
    expect(store.observations.get(failed?.id ?? '')).toMatchObject({
      type: 'failed_attempt',
      status: 'archived',
    });
    expect(active()).toEqual([]);
  });

  it('closes a setup failure fixed outside the sessions with what was suggested for it', () => {
    put('s1', [
      failure(
        '`python manage.py migrate` fails: OperationalError: could not connect to server',
        'fail:migrate:python manage.py migrate',
        [
          'error: django.db.utils.OperationalError: could not connect to server: Connection refused',
          'command: `python manage.py migrate`',
          'suggested: `docker compose up -d postgres`',
        ],
      ),
    ]);
    const [failed] = active();
    put('s2', [], {
      resolutions: [
        passed('purpose:migrate:python manage.py migrate', 'python manage.py migrate', clock + 1),
      ],
    });
    expect(store.observations.get(failed?.id ?? '')).toMatchObject({
      type: 'gotcha',
      title:
        '`python manage.py migrate` fails: django.db.utils.OperationalError: could not connect to server: Connec… → `docker compose up -d postgres` (as suggested)',
    });
  });

  it('closes a whole-suite failure only with a whole run, a single-file failure with its own file too', () => {
    put('s1', [
      failure('`pytest` fails: ImportError: cannot import name x', 'fail:test', [
        'error: ImportError: cannot import name x',
        'command: `pytest`',
      ]),
    ]);
    const [whole] = active();
    put('s2', [], {
      resolutions: [
        passed('purpose:test', 'pytest tests/test_a.py', clock + 1, {
          target: 'tests/test_a.py',
          canonical: 'pytest',
        }),
      ],
    });
    expect(store.observations.get(whole?.id ?? '')?.type).toBe('failed_attempt');
    put('s3', [], {
      resolutions: [
        passed('purpose:test', 'python -m pytest', clock + 1, {
          canonical: 'python -m pytest',
          fix: 'run `pip install -e .` first',
        }),
      ],
    });
    expect(store.observations.get(whole?.id ?? '')).toMatchObject({ type: 'gotcha', status: 'active' });
  });

  it('stores a transcript in time order: a failure, the run that fixed it, then a new failure of the same purpose stays open', () => {
    const t = clock;
    clock += 10_000;
    store.transaction(() =>
      storeKnowledge(
        store,
        {
          projectId,
          sessionId: 'backfilled',
          source: 'transcript',
          memories: [
            {
              draft: failure(
                '`mix test` fails: ** (UndefinedFunctionError) function Repo.get/2 is undefined',
                'fail:test',
                [
                  'error: ** (UndefinedFunctionError) function Repo.get/2 is undefined (module Repo is not available)',
                  'command: `mix test`',
                ],
              ),
              createdAt: t + 1,
              provenance: [],
            },
            {
              draft: failure('`mix test` fails: 2 tests, 1 failure', 'fail:test', [
                'error: test/a_test.exs:12: Assertion with == failed',
                'command: `mix test`',
              ]),
              createdAt: t + 5,
              provenance: [],
            },
          ],
          resolutions: [passed('purpose:test', 'mix test', t + 3, { fix: 'run `mix deps.get` first' })],
        },
        { origin: 'transcript', at: t + 6 },
      ),
    );
    expect(active().map((o) => [o.type, o.title])).toEqual([
      ['failed_attempt', '`mix test` fails: 2 tests, 1 failure'],
      [
        'gotcha',
        '`mix test` fails: UndefinedFunctionError: function Repo.get/2 is undefined (module Repo… → run `mix deps.get` first',
      ],
    ]);
  });

  it('grows the one git-hooks convention of a runner, and retires the per-hook ones an older version stored', () => {
    const hooks = (facts: string[], subject: string) =>
      draftOf(`Git hooks (lefthook): ${facts.join('; ')}`, {
        type: 'convention',
        facts,
        subject,
        trust: 'repository',
      });
    const old = put('s1', [hooks(['hook: pre-commit', 'check: lint'], 'rule:git-hook:pre-commit')]).ids[0];
    const [made] = put('s2', [
      hooks(['runner: lefthook', 'pre-commit: lint'], 'rule:git-hooks:lefthook'),
    ]).ids;
    put('s3', [hooks(['runner: lefthook', 'pre-push: build, typecheck'], 'rule:git-hooks:lefthook')]);
    expect(store.observations.get(old as never)?.status).toBe('superseded');
    const now = store.observations.get(made as never);
    expect(now?.title).toBe('Git hooks (lefthook): pre-commit runs lint; pre-push runs build, typecheck');
    expect(now?.pinned).toBe(true);
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
        facts: [
          'committed 3f2a1b9: feat(checkout): add checkout page route (on main)',
          'commit says: The route renders the cart summary before payment.',
          'git status: clean',
        ],
        subject: 'attach:commit',
      }),
    ]);
    // The commit and what its message says the work does go with it; the commit turn's other facts do not.
    expect(active().map((o) => [o.title, o.subtitle, o.facts])).toEqual([
      [
        'Add checkout page route',
        'Checkout page route added',
        [
          'committed 3f2a1b9: feat(checkout): add checkout page route (on main)',
          'commit says: The route renders the cart summary before payment.',
        ],
      ],
    ]);
  });

  it('supersedes an environment fact whose value changed', () => {
    put('s1', [draftOf('node 20.11.0 in this environment', { subject: 'env:version:node' })]);
    put('s2', [draftOf('node 20.11.0 in this environment', { subject: 'env:version:node' })]);
    put('s3', [draftOf('node 22.3.0 in this environment', { subject: 'env:version:node' })]);
    expect(active().map((o) => [o.title, o.seenCount])).toEqual([['node 22.3.0 in this environment', 1]]);
  });

  it('lets a session’s later answer to what it investigated replace the one before it', () => {
    const answer = (title: string) =>
      draftOf(title, { type: 'discovery', subject: 'answer:s1', narrative: `${title} (from the chain)` });
    put('s1', [answer('The demo ran 40 times: 20 on each vault.')]);
    put('s1', [answer('The demo ran 178 times: one deposit per run, 2 failed retries not counted.')]);
    expect(active().map((o) => o.title)).toEqual([
      'The demo ran 178 times: one deposit per run, 2 failed retries not counted.',
    ]);
  });

  it('reads the same words of the user again into the same memory, the fuller reading replacing a plainer one', () => {
    const said = 'said:0badc0de';
    put('s1', [
      draftOf('Never commit directly to main.', {
        type: 'preference',
        subject: said,
        facts: ['said: Never commit directly to main.'],
      }),
    ]);
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
      draftOf('The issue is that CI is running on an older commit that still had the problems.', {
        type: 'discovery',
      }),
      draftOf('npm run check passes locally', { type: 'discovery' }),
      draftOf('Use pnpm, not npm, in CI', { type: 'preference' }),
      draftOf('Fix the lint setup', {
        type: 'bugfix',
        narrative:
          'Moved the Prisma clients out of lint. The issue is that CI is running on an older commit that still had the problems. The lint job now passes.',
      }),
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
    expect(
      active()
        .map((o) => o.title)
        .sort(),
    ).toEqual([
      'Correction: the ci is running on the current commit',
      'Fix the lint setup',
      'Use pnpm, not npm, in CI',
      'npm run check passes locally',
    ]);
    // A memory that only repeats the refuted sentence keeps the rest of its account.
    expect(store.observations.get(made.ids[3] ?? '')?.narrative).toBe(
      'Moved the Prisma clients out of lint. The lint job now passes.',
    );
    expect(store.observations.get(made.ids[0] ?? '')).toMatchObject({
      status: 'invalidated',
      statusReason: 'the user corrected it',
    });
  });
});

describe('the state of a session’s work, kept true as the session goes on', () => {
  let dir: string;
  let store: Store;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'engram-work-state-'));
    store = createStore(openDatabase(join(dir, 'engram.db')));
  });
  afterEach(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  let clock = 1_000;
  const put = (sessionId: string, drafts: ObservationDraft[], extra: Partial<KnowledgeBatch> = {}) =>
    putKnowledge(store, (clock += 1_000), sessionId, drafts, extra);
  const work = (title: string, files: string[], facts: string[] = files.map((f) => `${f}: changed x`)) =>
    draftOf(title, { type: 'change', facts, filesModified: files });

  it('the work as it now stands keeps the cause an earlier version found and what it fixed, not what that version said it did', () => {
    put('s1', [
      draftOf('Fixed: HasUncommittedChanges() = true, want false for a globally ignored file', {
        type: 'bugfix',
        narrative:
          'The issue is `core.excludesfile` needs an absolute path. The test now writes the ignore file into the repository.',
        facts: [
          'cli/git_test.go: changed TestHasUncommittedChanges',
          'fixed: HasUncommittedChanges() = true, want false for a globally ignored file',
          "an earlier version, rejected by the user's correction: The test commits a local .gitignore",
        ],
        filesModified: ['cli/git_test.go'],
      }),
    ]);
    put('s1', [
      draftOf('The test puts the global ignore file outside the repository', {
        type: 'change',
        narrative: 'The ignore file showed as untracked inside the repository.',
        facts: ['cli/git_test.go: changed TestHasUncommittedChanges'],
        filesModified: ['cli/git_test.go'],
      }),
    ]);
    const [now, ...others] = store.observations.ofSession('s1').filter((o) => o.status === 'active');
    expect(others).toEqual([]);
    expect(now?.narrative).toBe(
      'The ignore file showed as untracked inside the repository. The issue is `core.excludesfile` needs an absolute path.',
    );
    // What the earlier version fixed, and the version the user corrected before it, stay its history.
    expect(now?.facts).toEqual(
      expect.arrayContaining([
        'fixed: HasUncommittedChanges() = true, want false for a globally ignored file',
        "an earlier version, rejected by the user's correction: The test commits a local .gitignore",
        'earlier in the session: Fixed: HasUncommittedChanges() = true, want false for a globally ignored file',
      ]),
    );
  });

  it('a later turn on the same files is the work as it now stands: the first version is superseded, its other files kept', () => {
    put('s1', [
      work(
        'All hooks now call the wrapper script by default',
        ['hooks.go', 'settings.json'],
        [
          'created scripts/wrapper.sh (20 lines)',
          'hooks.go: changed InstallHooks',
          'settings.json: changed hooks',
        ],
      ),
    ]);
    put('s1', [
      work(
        'Only `enable --local-dev` installs the wrapper; plain `enable` writes direct commands',
        ['hooks.go'],
        ['hooks.go: changed InstallHooks'],
      ),
    ]);
    const shown = store.observations.ofSession('s1');
    expect(shown.map((o) => o.title)).toEqual([
      'Only `enable --local-dev` installs the wrapper; plain `enable` writes direct commands',
    ]);
    expect(shown[0]?.facts).toEqual(
      expect.arrayContaining([
        'hooks.go: changed InstallHooks',
        'created scripts/wrapper.sh (20 lines)',
        'earlier in the session: All hooks now call the wrapper script by default',
      ]),
    );
    // Another request that happened to edit the same file is its own memory; so is another session's work.
    put('s1', [
      work('The README intro says what the tool does', ['hooks.go'], ['hooks.go: edited (+1 −1 lines)']),
    ]);
    expect(store.observations.ofSession('s1')).toHaveLength(2);
    put('s2', [work('Hooks print their version', ['hooks.go'], ['hooks.go: changed InstallHooks'])]);
    expect(store.observations.ofSession('s2')).toHaveLength(1);
  });

  it('supersedes a finding about code that later work of the session changed, and keeps one it left alone', () => {
    const finding = (title: string, read: string[], facts: string[] = []) =>
      draftOf(title, { type: 'discovery', filesRead: read, facts });
    const [staleId, keptId, plainId] = put('s1', [
      finding('`InstallHooks` always writes go run commands, whatever the localDev flag says', [
        'cmd/cli/hooks.go',
        'cmd/cli/setup.go',
      ]),
      finding(
        'Hooks are installed from setup.go through newEnableCmd',
        ['cmd/cli/setup.go'],
        ['the --local-dev flag is hidden'],
      ),
      finding('The main branch is protected', ['cmd/cli/hooks.go']),
    ]).ids;
    const [madeId] = put('s1', [
      work(
        'Only `enable --local-dev` installs the wrapper',
        ['cmd/cli/hooks.go'],
        ['cmd/cli/hooks.go: changed InstallHooks, main'],
      ),
    ]).ids;
    const status = (id: string | undefined) => store.observations.get(id as never)?.status;
    expect(status(staleId)).toBe('superseded');
    // Through the mutation path: the change log has the supersede.
    const logged = store.changes
      .since(0, 500)
      .filter((c) => c.entityId === staleId)
      .map((c) => c.op);
    expect(logged).toContain('supersede');
    // About code the work did not touch, or naming a changed symbol only as a plain word: still true.
    expect(status(keptId)).toBe('active');
    expect(status(plainId)).toBe('active');
    expect(status(madeId)).toBe('active');
    // Earlier work whose title describes code it did not change stays, marked as changed since.
    const [earlierWork] = put('s1', [
      work(
        '`AreHooksInstalled` only checks the Stop hook; added a probe script',
        ['scripts/probe.sh'],
        ['created scripts/probe.sh (5 lines)'],
      ),
    ]).ids;
    put('s1', [
      work(
        'Detection recognises wrapper hooks',
        ['cmd/cli/hooks.go'],
        ['cmd/cli/hooks.go: changed AreHooksInstalled'],
      ),
    ]);
    expect(store.observations.get(earlierWork as never)).toMatchObject({
      status: 'active',
      // What its title said of that code held before the change: history, not what is now true.
      title:
        'Before `AreHooksInstalled` changed: `AreHooksInstalled` only checks the Stop hook; added a probe script',
      facts: expect.arrayContaining([
        'later in the session: `AreHooksInstalled` in cmd/cli/hooks.go was changed',
      ]),
    });
    // Another session's work does not reach this session's findings.
    put('s2', [finding('`AreHooksInstalled` checks the Stop hook', ['cmd/cli/hooks.go'])]);
    put('s1', [
      work(
        'Detection recognises wrapper hooks',
        ['cmd/cli/hooks.go'],
        ['cmd/cli/hooks.go: changed AreHooksInstalled'],
      ),
    ]);
    expect(store.observations.ofSession('s2')[0]?.status).toBe('active');
  });

  it('the same files edited again with no symbol named either time are the same work; a version the user corrected says so', () => {
    put('s1', [
      work(
        'The test creates a .gitignore, commits it, then checks nothing is reported',
        ['cli/git_test.go'],
        ['cli/git_test.go: edited (+63 −9 lines)'],
      ),
    ]);
    put('s1', [
      draftOf('Correction: the issue was the global git ignore, local ones already worked', {
        type: 'correction',
      }),
    ]);
    put('s1', [
      work(
        'The test sets core.excludesfile to a global ignore file outside the repository',
        ['cli/git_test.go'],
        ['cli/git_test.go: edited (+45 −61 lines)'],
      ),
    ]);
    const works = store.observations.ofSession('s1').filter((o) => o.type === 'change');
    expect(works.map((o) => o.title)).toEqual([
      'The test sets core.excludesfile to a global ignore file outside the repository',
    ]);
    expect(works[0]?.facts).toContain(
      "an earlier version, rejected by the user's correction: The test creates a .gitignore, commits it, then checks nothing is reported",
    );
    // Without a correction between them, two requests editing one file in a body stay two.
    put('s2', [work('Design the handshake', ['src/a.ts'], ['src/a.ts: edited (+1 −1 lines)'])]);
    put('s2', [work('Write the README intro', ['src/a.ts'], ['src/a.ts: edited (+1 −1 lines)'])]);
    expect(store.observations.ofSession('s2')).toHaveLength(2);
    // Other files as well, or a symbol named on one side only: two pieces of work.
    put('s1', [
      work('Add a README section', ['cli/git_test.go', 'README.md'], ['README.md: edited (+4 −0 lines)']),
    ]);
    expect(store.observations.ofSession('s1').filter((o) => o.type === 'change')).toHaveLength(2);
  });

  it("keeps of a manifest's scripts only those no command fact states already", () => {
    put('s1', [
      draftOf('`npm run build` builds the project', {
        type: 'fact',
        facts: ['command: `npm run build`'],
        subject: 'command:build',
      }),
    ]);
    // The command is known through the commands card's entry.
    expect(store.observations.bySubject(projectId, 'commands:.')?.facts).toEqual([
      'build · command: `npm run build`',
    ]);
    const scripts = (names: string[]) =>
      draftOf(`Scripts of shop: ${names.join(', ')}`, {
        type: 'fact',
        narrative: `package.json defines: ${names.map((n) => `\`npm run ${n}\` runs \`x-${n}\``).join('; ')}.`,
        facts: ['source: /shop/package.json', ...names.map((n) => `\`npm run ${n}\` runs \`x-${n}\``)],
        subject: 'env:scripts:/shop/package.json',
      });
    put('s2', [scripts(['build', 'dev'])]);
    const kept = store.observations.bySubject(projectId, 'env:scripts:/shop/package.json');
    expect(kept?.title).toBe('Scripts of shop: dev');
    expect(kept?.facts).toEqual(['source: /shop/package.json', '`npm run dev` runs `x-dev`']);
    put('s3', [
      draftOf('unrelated', {
        type: 'fact',
        subject: 'env:scripts:/other/package.json',
        facts: ['`npm run build` runs `tsc`'],
      }),
    ]);
    expect(store.observations.bySubject(projectId, 'env:scripts:/other/package.json')).toBeNull();
  });

  it('work committed later in the session restates the uncommitted work on the same code it finishes', () => {
    put('s1', [
      work('Stream tokens as strings', ['ai-chat.ts'], ['ai-chat.ts: changed pipeAIStreamToSession']),
    ]);
    put('s1', [
      work(
        'Resolve [object][object] display in streaming',
        ['ai-chat.ts'],
        [
          'ai-chat.ts: changed pipeAIStreamToSession',
          'committed 6722d1d: fix: resolve [object][object] display issue in streaming',
        ],
      ),
    ]);
    const works = store.observations.ofSession('s1');
    expect(works.map((o) => o.title)).toEqual(['Resolve [object][object] display in streaming']);
    expect(works[0]?.facts).toContain('earlier in the session: Stream tokens as strings');
    // Committed work stays history: a later change to the same code is a memory of its own.
    put('s1', [
      work('Buffer SSE events across chunks', ['ai-chat.ts'], ['ai-chat.ts: changed pipeAIStreamToSession']),
    ]);
    expect(store.observations.ofSession('s1')).toHaveLength(2);
  });

  it('takes a file removed later in the session out of the work that made it', () => {
    put('s1', [
      work(
        'Document local development',
        ['docs/local-development.md', 'scripts/wrapper.sh'],
        ['created docs/local-development.md (75 lines)', 'created scripts/wrapper.sh (20 lines)'],
      ),
      work('Add a setup guide', ['docs/SETUP.md'], ['created docs/SETUP.md (52 lines)']),
    ]);
    put('s1', [], {
      removedFiles: [
        { path: 'docs/local-development.md', at: clock + 10 },
        { path: 'docs/SETUP.md', at: clock + 10 },
      ],
    });
    const shown = store.observations.ofSession('s1');
    expect(shown.map((o) => o.title)).toEqual(['Document local development']);
    expect(shown[0]?.facts).toEqual(['created scripts/wrapper.sh (20 lines)']);
    expect(shown[0]?.filesModified).toEqual(['scripts/wrapper.sh']);
  });

  it('tells the work on a file renamed later in the session under its new name', () => {
    put('s1', [
      work(
        'Containerise the agent',
        ['docker/Dockerfile', 'src/agent.ts'],
        ['created docker/Dockerfile (23 lines)', 'src/agent.ts: changed run'],
      ),
    ]);
    put('s1', [], {
      removedFiles: [{ path: 'docker/Dockerfile', at: clock + 10, to: 'docker/Containerfile' }],
    });
    const [shown] = store.observations.ofSession('s1');
    expect(shown?.filesModified).toEqual(['docker/Containerfile', 'src/agent.ts']);
    expect(shown?.facts).toEqual(['created docker/Containerfile (23 lines)', 'src/agent.ts: changed run']);
    expect(shown?.status).toBe('active');
  });

  it('attaches a commit to the work whose files it staged, not to the newest unrelated work', () => {
    put('s1', [work('Parse the SSE stream across chunk boundaries', ['app/ai-chat.ts'])]);
    put('s1', [work('Document the release steps', ['RELEASING.md'])]);
    put('s1', [
      draftOf('Robust SSE parsing', {
        type: 'bugfix',
        facts: ['committed 262f600: fix: robust SSE parsing (on streaming)'],
        filesModified: ['app/ai-chat.ts'],
        subject: 'attach:commit',
      }),
    ]);
    const byTitle = new Map(store.observations.ofSession('s1').map((o) => [o.title, o]));
    expect(byTitle.get('Robust SSE parsing')?.facts).toContain('app/ai-chat.ts: changed x');
    expect(byTitle.get('Document the release steps')?.facts.some((f) => f.startsWith('committed'))).toBe(
      false,
    );
  });

  it('keeps a task list open when a new list is finished but the stored one still had open items', () => {
    const list = (open: string[], done: string[]) =>
      draftOf(`Open tasks (${open.length} of ${open.length + done.length})`, {
        type: 'task',
        facts: [...done.map((d) => `[x] ${d}`), ...open.map((o) => `[ ] ${o}`)],
        subject: 'tasks:s1',
      });
    put('s1', [list(['Add tests for the SSE parser', 'Add backpressure'], ['Fix the auth check'])]);
    put('s1', [], { finishedTasks: [{ subject: 'tasks:s1', at: clock + 10, done: ['Reword the comment'] }] });
    expect(store.observations.bySubject(projectId, 'tasks:s1')?.status).toBe('active');
    // A later list that did one of its items: that one is no longer open, the other still is.
    put('s1', [], {
      finishedTasks: [
        { subject: 'tasks:s1', at: clock + 10, done: ['Add tests for the SSE parser', 'Ship it'] },
      ],
    });
    expect(store.observations.bySubject(projectId, 'tasks:s1')).toMatchObject({
      title: 'Open tasks (1 left of an earlier list): Add backpressure',
      facts: ['[x] Fix the auth check', '[ ] Add backpressure'],
    });
    put('s1', [], {
      finishedTasks: [{ subject: 'tasks:s1', at: clock + 10, done: ['Add backpressure'] }],
    });
    expect(store.observations.bySubject(projectId, 'tasks:s1')).toBeNull();
  });

  it('archives a memory that only says the user gave a link another memory of the session holds', () => {
    const link = (url: string) =>
      draftOf(`The user pointed to ${url}`, {
        type: 'fact',
        facts: [`link: ${url}`],
        subject: `link:${url}`,
        trust: 'user',
      });
    put('s1', [
      link('https://shop.test/donate'),
      link('https://docs.test/api'),
      draftOf('Make the donation form a pop-up like the original page', {
        type: 'change',
        narrative: 'Asked: align the UI with https://shop.test/donate, where the donation form is a pop-up.',
        facts: ['app/views/donate.html.erb: changed form'],
        filesModified: ['app/views/donate.html.erb'],
      }),
    ]);
    // Archived: no longer among the session's memories; a link nothing else holds stays.
    const titles = store.observations.ofSession('s1').map((o) => o.title);
    expect(titles).not.toContain('The user pointed to https://shop.test/donate');
    expect(titles).toContain('The user pointed to https://docs.test/api');
    expect(store.observations.bySubject(projectId, 'link:https://shop.test/donate')).toBeNull();
  });

  it('tells the latest work as tried when the user then says it still does not work', () => {
    put('s1', [work('Add the inflation toggle', ['index.html'])]);
    put('s1', [
      draftOf('The toggle now updates the chart when checked', {
        type: 'bugfix',
        facts: ['script.js: changed init'],
        filesModified: ['script.js'],
      }),
      draftOf('Keep the legend on one row', {
        type: 'preference',
        facts: ['said: keep the legend on one row'],
      }),
    ]);
    put('s1', [], { notFixed: [{ said: "Still doesn't work.", at: clock + 1 }] });
    const byType = (t: string) => store.observations.ofSession('s1').filter((o) => o.type === t);
    expect(byType('change').map((o) => [o.title, o.facts.at(-1)])).toEqual([
      ['Add the inflation toggle', 'index.html: changed x'],
      [
        "Tried: The toggle now updates the chart when checked — the user: “Still doesn't work.”",
        "not fixed: the user said “Still doesn't work.”",
      ],
    ]);
    expect(byType('bugfix')).toEqual([]);
    expect(byType('preference').map((o) => o.title)).toEqual(['Keep the legend on one row']);
  });

  it("takes back an earlier commit's account of a document that the session later stopped saying", () => {
    put('s1', [
      draftOf('Document the Etherscan paths for swaps', {
        type: 'feature',
        narrative: 'The README lists the DEX Trades tab first. It walks through the Swap payload.',
        facts: [
          'committed 7fcc5d7: docs(q2): Etherscan paths',
          'commit says: Three entry points (DEX Trades, Events, Transactions).',
          'commit says: Walks through the Swap event payload.',
        ],
        filesModified: ['q2/README.md'],
      }),
      draftOf('Document the RPC fallback', {
        type: 'feature',
        facts: ['commit says: The DEX Trades tab is not used here.'],
        filesModified: ['q1/README.md'],
      }),
      draftOf('Start from the DEX Trades tab', {
        type: 'preference',
        narrative: 'Stated by the user: “Start from the DEX Trades tab”.',
        facts: ['said: Start from the DEX Trades tab'],
        filesModified: ['q2/README.md'],
      }),
    ]);
    put('s1', [], { droppedText: [{ path: 'q2/README.md', pairs: ['dex trades'], at: clock + 1 }] });
    const byTitle = new Map(store.observations.ofSession('s1').map((o) => [o.title, o]));
    expect(byTitle.get('Document the Etherscan paths for swaps')).toMatchObject({
      narrative: 'It walks through the Swap payload.',
      facts: [
        'committed 7fcc5d7: docs(q2): Etherscan paths',
        'commit says: Walks through the Swap event payload.',
        'later in the session: q2/README.md no longer says “dex trades”',
      ],
    });
    // Another document's account, and the user's own words, stay as they were.
    expect(byTitle.get('Document the RPC fallback')?.facts).toEqual([
      'commit says: The DEX Trades tab is not used here.',
    ]);
    expect(byTitle.get('Start from the DEX Trades tab')?.facts).toEqual([
      'said: Start from the DEX Trades tab',
    ]);
  });

  it('archives a task list rewritten and finished: what the rewrite left out was taken off the plan', () => {
    put('s1', [
      draftOf('Open tasks (4 of 5)', {
        type: 'task',
        facts: [
          '[x] Set up the container',
          '[ ] Implement the agent',
          '[ ] Implement the oracle',
          '[ ] Wire up the scenario run',
          '[ ] Test: can the agent finish the happy path?',
        ],
        subject: 'tasks:s1',
      }),
    ]);
    put('s1', [], {
      finishedTasks: [
        {
          subject: 'tasks:s1',
          at: clock + 10,
          done: [
            'Set up the container',
            'Implement the agent',
            'Implement the oracle',
            'Wire up the scenario run',
            'Build and test the implementation',
          ],
        },
      ],
    });
    expect(store.observations.bySubject(projectId, 'tasks:s1')).toBeNull();
  });

  it('links a gotcha to the work of its turn on the same files, not to other work or other turns', () => {
    const work = (title: string, files: string[], symbol = 'events') =>
      draftOf(title, { type: 'bugfix', facts: [`${files[0]}: changed ${symbol}`], filesModified: files });
    const gotcha = draftOf('`git commit` fails: noAssignInExpressions', {
      type: 'gotcha',
      facts: ['changed: src/sse.ts (events)'],
      filesModified: ['src/sse.ts'],
      subject: 'gotcha:commit:noassigninexpressions',
    });
    put('s1', [work('Send a keep-alive ping', ['src/sse.ts'], 'ping')]);
    put('s1', [work('Robust SSE parsing', ['src/sse.ts']), work('Cart totals', ['src/cart.ts']), gotcha]);
    const byTitle = (t: string) => store.observations.recent(projectId, 50).find((o) => o.title === t);
    const g = byTitle(gotcha.title);
    // The earlier turn's work on the same file is another event; the cart work of its turn is other work.
    expect(byTitle('Send a keep-alive ping')?.status).toBe('active');
    expect(store.graph.around(g?.id ?? '').in).toEqual([
      { from: byTitle('Robust SSE parsing')?.id, kind: 'related', to: g?.id },
    ]);
  });

  it('takes off a task list the items that later work of the session did, by what they name', () => {
    const items = [
      'Set up Docker container with Playwright and VNC',
      'Download/set up TodoMVC in container',
      'Add `retryFetch` to src/net/client.ts',
      'Test: Can agent complete happy-path scenario successfully?',
    ];
    const work = (title: string, facts: string[], filesModified: string[]) =>
      draftOf(title, { type: 'change', facts, filesModified });
    // The list and the work of its own turn: that work came before the list said what is open.
    put('s1', [
      work('Project structure is set up', ['created docker/Dockerfile (30 lines)'], ['docker/Dockerfile']),
      draftOf(`Open tasks (4 of 6): ${items[0]}`, {
        type: 'task',
        facts: items.map((i) => `[ ] ${i}`),
        subject: 'tasks:s1',
      }),
    ]);
    expect(store.observations.bySubject(projectId, 'tasks:s1')?.facts).toHaveLength(4);
    // Another session's work on what the list names does not close this session's items.
    put('s2', [work('Retry fetches', ['src/net/client.ts: added retryFetch'], ['src/net/client.ts'])]);
    expect(store.observations.bySubject(projectId, 'tasks:s1')?.facts).toHaveLength(4);
    put('s1', [
      work(
        'Initial implementation',
        [
          'docker/Dockerfile: edited (+23 −33 lines)',
          'created docker/todomvc/serve.sh (4 lines)',
          'src/net/client.ts: changed parseReply',
        ],
        ['docker/Dockerfile', 'docker/todomvc/serve.sh', 'src/net/client.ts'],
      ),
    ]);
    const list = store.observations.bySubject(projectId, 'tasks:s1');
    // The file `retryFetch` lives in was changed, but not `retryFetch`; the test names nothing.
    expect(list).toMatchObject({
      title: 'Open tasks (2 left): Add `retryFetch` to src/net/client.ts',
      facts: [`[ ] ${items[2]}`, `[ ] ${items[3]}`],
    });
    put('s1', [work('Retry fetches', ['src/net/client.ts: added retryFetch'], ['src/net/client.ts'])]);
    expect(store.observations.bySubject(projectId, 'tasks:s1')?.facts).toEqual([`[ ] ${items[3]}`]);
  });
});
