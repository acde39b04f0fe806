import { describe, expect, it } from 'vitest';
import type { ObservationDraft, QueuedEvent, SummaryDraft } from '../core/model.ts';
import type { Narration } from './analyse-turn.ts';
import { createHeuristicDistiller } from './heuristic-distiller.ts';
import {
  abs,
  bash,
  bashFail,
  edit,
  prompt,
  read,
  ROOT,
  stop,
  tool,
  turn,
  write,
} from './queued-events.test-support.ts';

const distil = (
  events: QueuedEvent[],
  previousSummary: SummaryDraft | null = null,
  narration: Narration[] = [],
) => createHeuristicDistiller().distilTurn({ projectRoot: ROOT, events, previousSummary, narration });
const ofType = (obs: ObservationDraft[], type: string) => obs.filter((o) => o.type === type);
const titles = (obs: ObservationDraft[]) => obs.map((o) => [o.type, o.title]);
/** What the assistant said at a moment of the turn (event i of `turn` happens at 1_700_000_000_000 + i s). */
const said = (afterEvent: number, text: string): Narration => ({
  at: 1_700_000_000_000 + afterEvent * 1000 + 500,
  text,
});

describe('heuristic distiller: outcomes, not logs', () => {
  it('titles a fix by what is now true, with the test failure it fixed as a fact (not a second memory)', () => {
    const cart = 'export function applyCoupon(total: number, c: Coupon) {\n  return total - c.amount;\n}\n';
    const r = distil(
      turn(
        { kind: 'session_start', source: 'startup' },
        prompt('The cart total is wrong when a coupon is applied. Fix it.'),
        read('src/cart.ts', cart),
        bashFail(
          'npm test',
          'Exit code 1\n> shop@1.0.0 test\n> vitest run\n\nFAIL src/cart.test.ts > applies percentage coupons\nAssertionError: expected 90 to be 81\n Tests  1 failed | 20 passed (21)',
        ),
        edit(
          'src/cart.ts',
          '  return total - c.amount;',
          '  return c.percent ? total * (1 - c.percent) : total - c.amount;',
          cart,
        ),
        bash(
          'npm test',
          ' ✓ src/cart.test.ts (21 tests) 12ms\n\n Test Files  1 passed (1)\n      Tests  21 passed (21)',
        ),
        stop(
          'Fixed applyCoupon in src/cart.ts: percentage coupons were subtracted as amounts. All 21 tests pass.',
        ),
      ),
    );
    expect(titles(r.observations)).toEqual([
      ['bugfix', 'Fixed applyCoupon in src/cart.ts: percentage coupons were subtracted as amounts.'],
      ['fact', '`npm test` runs the tests'],
    ]);
    const [main] = r.observations;
    expect(main).toMatchObject({ filesModified: ['src/cart.ts'], filesRead: ['src/cart.ts'] });
    expect(main?.facts).toEqual([
      'src/cart.ts: changed applyCoupon',
      'test `npm test`: passed (21 passed)',
      'fixed: AssertionError: expected 90 to be 81',
    ]);
    expect(main?.narrative).toMatch(/percentage coupons were subtracted as amounts/);
    expect(main?.concepts).toEqual(expect.arrayContaining(['cart', 'typescript', 'npm']));
    expect(r.summary).toMatchObject({
      request: 'The cart total is wrong when a coupon is applied. Fix it.',
      filesEdited: ['src/cart.ts'],
      nextSteps: '',
    });
  });

  it('describes a feature: new file, edited function, dependency installed', () => {
    const app =
      'const app = express();\n\nexport function createApp() {\n  app.use(json());\n  return app;\n}\n';
    const r = distil(
      turn(
        prompt('Add rate limiting to the API using express-rate-limit'),
        bash('npm install express-rate-limit --save', 'added 1 package, and audited 212 packages in 2s'),
        write(
          'src/middleware/rate-limit.ts',
          "import rateLimit from 'express-rate-limit';\n\nexport const limiter = rateLimit({ windowMs: 60_000, max: 100 });\n",
        ),
        edit('src/app.ts', '  app.use(json());', '  app.use(json());\n  app.use(limiter);', app),
        bash('npx tsc --noEmit', ''),
        stop('Added a `limiter` middleware (100 requests/minute) and registered it in createApp.'),
      ),
    );
    const [main] = r.observations;
    expect(main).toMatchObject({
      type: 'feature',
      title: 'Added a `limiter` middleware (100 requests/minute) and registered it in createApp.',
      filesModified: ['src/middleware/rate-limit.ts', 'src/app.ts'],
    });
    expect(main?.facts).toEqual([
      'created src/middleware/rate-limit.ts (3 lines): limiter',
      'src/app.ts: changed createApp',
      'typecheck `npx tsc --noEmit`: passed',
      'dependencies added: express-rate-limit',
    ]);
    expect(titles(r.observations).slice(1)).toEqual([['fact', '`npx tsc --noEmit` type-checks the code']]);
    expect(r.summary?.completed).toMatch(
      /changed src\/middleware\/rate-limit\.ts, src\/app\.ts; typecheck passes; dependencies added: express-rate-limit/,
    );
  });

  it('reads dependency changes off a package.json edit', () => {
    const pkg = '{\n  "name": "shop",\n  "dependencies": {\n    "express": "^4.19.0"\n  }\n}\n';
    const r = distil(
      turn(
        prompt('Upgrade express and add zod'),
        edit(
          'package.json',
          '    "express": "^4.19.0"',
          '    "express": "^5.0.0",\n    "zod": "^4.1.0"',
          pkg,
        ),
        stop('Bumped express to 5 and added zod.'),
      ),
    );
    expect(r.observations[0]?.facts).toEqual([
      'package.json: changed dependencies',
      'dependencies added: zod',
      'dependencies updated: express',
    ]);
  });

  it('classifies a refactor and names what was renamed, added and removed', () => {
    const r = distil(
      turn(
        prompt('Please rename getUser to fetchUser everywhere and extract the cache lookup'),
        tool(
          'MultiEdit',
          {
            file_path: abs('src/users.py'),
            edits: [
              {
                old_string: 'def get_user(uid):\n    return db.get(uid)',
                new_string: 'def fetch_user(uid):\n    return cached(uid) or db.get(uid)',
              },
              { old_string: '', new_string: 'def cached(uid):\n    return CACHE.get(uid)\n' },
            ],
          },
          {},
        ),
        tool(
          'Edit',
          { file_path: abs('src/api.ts'), old_string: 'getUser', new_string: 'fetchUser', replace_all: true },
          {},
        ),
        stop('Renamed and extracted `cached`.'),
      ),
    );
    const [main] = r.observations;
    expect(main?.type).toBe('refactor');
    expect(main?.facts).toEqual([
      'src/users.py: added fetch_user, cached; removed get_user',
      'src/api.ts: renamed getUser → fetchUser',
    ]);
    // The assistant's statement of the result, never the prompt.
    expect(main?.title).toBe('Renamed and extracted `cached`.');
  });

  it('leaves no memory of a turn that only looked, unless its answer states a finding', () => {
    const looked = distil(
      turn(
        prompt('How does the session middleware decide a token expired?'),
        tool('Grep', { pattern: 'expiresAt', path: abs('src') }, { mode: 'files_with_matches', numFiles: 1 }),
        read('src/session.ts', 'export function checkSession() {}'),
        stop(
          'It compares expiresAt with Date.now() in checkSession and refreshes tokens within 5 minutes of expiry.',
        ),
      ),
    );
    expect(looked.observations).toEqual([]);
    expect(looked.summary?.investigated).toBe('read src/session.ts; grep expiresAt in src');
    const found = distil(
      turn(
        prompt('Why are some carts empty after login?'),
        read('src/session.ts', 'export function merge() {}'),
        stop('The root cause is that merge() drops the guest cart when the user already has a saved cart.'),
      ),
    );
    expect(titles(found.observations)).toEqual([
      [
        'discovery',
        'The root cause is that merge() drops the guest cart when the user already has a saved cart.',
      ],
    ]);
    const ranTests = distil(
      turn(prompt('run the tests'), bash('npm test', 'Tests  25 passed (25)'), stop('All 25 tests pass.')),
    );
    expect(titles(ranTests.observations)).toEqual([['fact', '`npm test` runs the tests']]);
  });

  it('titles a commit turn with its commit, once (no second memory for the commit)', () => {
    const r = distil(
      turn(
        prompt('Add a /health endpoint and commit it'),
        edit(
          'src/routes.ts',
          "router.get('/', home);",
          "router.get('/', home);\nrouter.get('/health', health);",
        ),
        bash(
          'git commit -am "feat: add health endpoint"',
          '[feature/health 0c0ffee] feat: add health endpoint\n 1 file changed',
        ),
        stop('Added GET /health.'),
      ),
    );
    expect(titles(r.observations)).toEqual([['feature', 'Add health endpoint']]);
    expect(r.observations[0]?.facts).toEqual([
      'src/routes.ts: edited (+2 −1 lines)',
      'committed 0c0ffee: feat: add health endpoint (on feature/health)',
    ]);
  });

  it('attaches a commit of earlier work to that work (a subject the worker resolves)', () => {
    const r = distil(
      turn(
        prompt('commit and push'),
        bash('git status --short', ' M src/users.ts'),
        bash(
          `git add -A && git commit -m "$(cat <<'EOF'\nfeat: cache user lookups\n\nCo-Authored-By: Claude <noreply@anthropic.com>\nEOF\n)"`,
          '[main 1a2b3c4] feat: cache user lookups\n 1 file changed, 12 insertions(+), 2 deletions(-)',
        ),
        bash('git push', '', 'To github.com:acme/shop.git\n   9f8e7d6..1a2b3c4  main -> main'),
        stop('Committed and pushed.'),
      ),
    );
    expect(r.observations).toEqual([
      expect.objectContaining({
        type: 'feature',
        title: 'Cache user lookups',
        subject: 'attach:commit',
        facts: ['committed 1a2b3c4: feat: cache user lookups (on main)', 'pushed to the remote'],
      }),
    ]);
    expect(r.summary?.completed).toMatch(
      /^State: [^|]*\(pushed\)[^|]* \| committed "feat: cache user lookups"; pushed/,
    );
  });

  it('splits a multi-task turn by commits, one memory per task, finished todo items as its facts', () => {
    const todos = (a: string, b: string, c: string) =>
      tool('TodoWrite', {
        todos: [
          { content: 'Add the orders table', status: a },
          { content: 'Expose GET /orders', status: b },
          { content: 'Document the endpoint', status: c },
        ],
      });
    const r = distil(
      turn(
        prompt('Implement the orders epic: table, endpoint, docs. One commit per task.'),
        todos('in_progress', 'pending', 'pending'),
        write('migrations/001_orders.sql', 'CREATE TABLE orders (id INTEGER PRIMARY KEY);\n'),
        bash('npm test 2>&1 | tail -3', 'Tests  30 passed (30)'),
        bash('npm run lint', '> eslint .'),
        bash('git commit -am "feat(orders): orders table"', '[orders 1111111] feat(orders): orders table'),
        todos('completed', 'in_progress', 'pending'),
        write('src/routes/orders.ts', 'export function listOrders() {}\n'),
        bash('npm test 2>&1 | tail -3', 'Tests  31 passed (31)'),
        bash('npm run lint', '> eslint .'),
        bash('git commit -am "feat(orders): GET /orders"', '[orders 2222222] feat(orders): GET /orders'),
        todos('completed', 'completed', 'in_progress'),
        edit('README.md', '## API', '## API\n\nGET /orders lists orders.'),
        todos('completed', 'completed', 'completed'),
        stop('All three tasks are done.'),
      ),
    );
    expect(titles(r.observations)).toEqual([
      ['feature', 'Orders table'],
      ['feature', 'GET /orders'],
      ['feature', 'Document the endpoint'],
      ['fact', '`npm test` runs the tests'],
      ['fact', '`npm run lint` lints the code'],
      ['convention', 'Before each commit, `npm test` and `npm run lint` pass'],
      ['convention', 'Commit messages follow Conventional Commits (`feat(orders): GET /orders`)'],
    ]);
    expect(r.observations[0]?.facts).toContain('[x] Add the orders table');
    expect(r.observations[1]?.facts).toContain('[x] Expose GET /orders');
    expect(r.observations[2]?.filesModified).toEqual(['README.md']);
    expect(r.finishedTasks).toEqual(['tasks:sess-1']);
    expect(ofType(r.observations, 'task')).toEqual([]);
  });

  it('does not pad: a checklist finished without a commit is one outcome, titled by the report, never per item', () => {
    const todos = (a: string, b: string, c: string) =>
      tool('TodoWrite', {
        todos: [
          { content: 'Add the retry helper', status: a },
          { content: 'Use it in the fetcher', status: b },
          { content: 'Document the retry policy', status: c },
        ],
      });
    const r = distil(
      turn(
        prompt('Make the fetcher retry on 503s'),
        todos('in_progress', 'pending', 'pending'),
        write('src/retry.ts', 'export function withRetry() {}\n'),
        todos('completed', 'in_progress', 'pending'),
        edit('src/fetcher.ts', 'return fetch(url);', 'return withRetry(() => fetch(url));'),
        todos('completed', 'completed', 'in_progress'),
        edit('README.md', '## Fetching', '## Fetching\n\nRequests are retried three times on 503.'),
        todos('completed', 'completed', 'completed'),
        stop('Done. `fetchJson` now retries 503 responses three times through `withRetry` in src/retry.ts.'),
      ),
    );
    const outcomes = r.observations.filter((o) =>
      ['feature', 'bugfix', 'change', 'refactor'].includes(o.type),
    );
    expect(outcomes).toHaveLength(1);
    expect(outcomes[0]?.title).toBe(
      '`fetchJson` now retries 503 responses three times through `withRetry` in src/retry.ts.',
    );
    expect(outcomes[0]?.facts).toEqual(
      expect.arrayContaining([
        '[x] Add the retry helper',
        '[x] Use it in the fetcher',
        '[x] Document the retry policy',
      ]),
    );
  });

  it('keeps the commit of a task whose todo list was long, and what a sweeping commit took in', () => {
    const items = [
      'Research frameworks',
      'Pick LangGraph',
      'Set up the project',
      'Write the first scenario',
      'Build the Playwright layer',
      'Adapt the container setup',
    ];
    const all = (status: string) =>
      tool('TodoWrite', { todos: items.map((content) => ({ content, status })) });
    const r = distil(
      turn(
        prompt('build the MVP and commit it'),
        all('in_progress'),
        write('src/index.ts', 'export const main = () => 1;\n'),
        write('src/agent.ts', 'export class Agent {}\n'),
        all('completed'),
        bash(
          'git add -A && git commit -m "Initial implementation"',
          [
            '[main (root-commit) 6f035fd] Initial implementation',
            ' 412 files changed, 90210 insertions(+)',
            ' create mode 100644 src/index.ts',
            ' create mode 100644 src/agent.ts',
            ...Array.from({ length: 30 }, (_, i) => ` create mode 100644 todomvc-master/examples/e${i}.js`),
            ' create mode 100644 .claude/settings.local.json',
          ].join('\n'),
        ),
        stop('Committed the MVP.'),
      ),
    );
    const facts = r.observations.flatMap((o) => o.facts);
    expect(facts).toContain(
      'committed 6f035fd: Initial implementation (on main) — 412 files changed, among them todomvc-master/ (30 new), src/ (2 new), .claude/settings.local.json',
    );
    expect(facts.filter((f) => f.startsWith('[x] ')).length).toBeGreaterThan(0);
  });

  it('keeps an experiment in a scratch directory out of the project: no outcome for files under /tmp', () => {
    const r = distil(
      turn(
        prompt('Check whether hooks in settings.local.json override settings.json'),
        write('/tmp/claude-hook-test/.claude/settings.json', '{"hooks":{}}\n'),
        write('/private/tmp/claude-hook-test/.claude/settings.local.json', '{"hooks":{}}\n'),
        stop('Both hooks fired: the two files merge, the local one does not override.'),
      ),
    );
    expect(r.observations.filter((o) => o.filesModified.some((f) => f.includes('tmp')))).toEqual([]);
    expect(r.summary?.filesEdited ?? []).toEqual([]);
  });

  it('takes neither a background agent’s launch notice for a finding nor a one-word commit subject for a title', () => {
    const r = distil(
      turn(
        prompt('Write three poems in the background, then make the checker use git status'),
        tool(
          'Task',
          { description: 'Poem about green curry', subagent_type: 'general-purpose', prompt: 'Write a poem' },
          {
            isAsync: true,
            status: 'async_launched',
            agentId: 'a9cad17',
            content: 'Async agent launched successfully. The agent is working in the background.',
          },
        ),
        edit(
          'internal/git.go',
          'return w.Status()',
          'return exec.CommandContext(ctx, "git", "status", "--porcelain").Output()',
        ),
        bash('git add internal/git.go && git commit -m "init"', '[main 6b599e5] init\n 1 file changed'),
        stop(
          '`HasUncommittedChanges` now runs `git status --porcelain`, which honours the global gitignore.',
        ),
      ),
    );
    expect(ofType(r.observations, 'discovery')).toEqual([]);
    const outcome = r.observations.find((o) => o.filesModified.includes('internal/git.go'));
    expect(outcome?.title).toBe(
      '`HasUncommittedChanges` now runs `git status --porcelain`, which honours the global gitignore.',
    );
    expect(outcome?.facts).toContain('committed 6b599e5: init (on main)');
  });

  it('keeps the assistant’s claims only where the turn’s runs back them: no "all tests pass" without a test run, no hopes', () => {
    const unverified = distil(
      turn(
        prompt('Recognise the wrapper hooks on uninstall'),
        edit('hooks.go', 'var prefixes = []string{', 'var prefixes = []string{\n\t"bash wrapper.sh ",'),
        bash('go run /tmp/check.go', 'isEntireHook("bash wrapper.sh stop") = true'),
        stop(
          "The wrapper prefix is now in `entireHookPrefixes`, so `isEntireHook` recognises wrapper hooks. All tests pass and the code is linted! CI should be green now. The implementation is now production-ready. This would catch a regression if someone reverted it. I have built a fully functional uninstall path. The prefix list is now matched before the command is split. If a hook runs from another folder, we'd need to update the prefix list as well.",
        ),
      ),
    );
    const memory = unverified.observations.find((o) => o.filesModified.includes('hooks.go'));
    expect(memory?.narrative).toContain('`isEntireHook` recognises wrapper hooks');
    expect(memory?.narrative).not.toMatch(
      /All tests pass|should be green|production-ready|would catch|fully functional|we'd need/,
    );
    // What is so stays, what might be needed does not.
    expect(memory?.narrative).toContain('The prefix list is now matched before the command is split.');
    expect(unverified.summary?.completed).not.toMatch(/All tests pass|should be green|fully functional/);

    const verified = distil(
      turn(
        prompt('Recognise the wrapper hooks on uninstall'),
        edit('hooks.go', 'var prefixes = []string{', 'var prefixes = []string{\n\t"bash wrapper.sh ",'),
        bash('go test ./...', 'ok  \tgithub.com/acme/cli/hooks\t0.012s'),
        stop(
          'The wrapper prefix is now in `entireHookPrefixes`. All tests pass now that the prefix is listed.',
        ),
      ),
    );
    expect(verified.observations.find((o) => o.filesModified.includes('hooks.go'))?.narrative).toContain(
      'All tests pass now that the prefix is listed.',
    );
  });

  it('takes a failing run the user pasted as a failure of its purpose, open until a run of it passes', () => {
    const pasted =
      '❯ ./run.sh\n🐳 Building container image...\n158.5 npm error Exit handler never called!\nError: failed to solve: process "/bin/sh -c npm ci" did not complete successfully: exit code: 1\n❯ ';
    const r = distil(
      turn(
        prompt(pasted),
        edit('docker/Containerfile', 'RUN npm ci', 'RUN npm install'),
        stop('Switched the container build to `npm install`.'),
      ),
    );
    const failure = r.observations.find((o) => o.type === 'failed_attempt');
    // The Containerfile changed after it and nothing ran it again: it failed, not known to fail still.
    expect(failure?.title).toMatch(/^`\.\/run\.sh` failed, not re-run after the change: /);
    expect(failure?.narrative).toMatch(/npm ci|Exit handler never called/);
    expect(r.summary?.nextSteps).toMatch(/\.\/run\.sh/);
    // Pasted output that shows no failure, or a listing, is not a failure.
    expect(
      distil(turn(prompt('❯ ls docker\nContainerfile  todomvc'), stop('Two entries.'))).observations.filter(
        (o) => o.type === 'failed_attempt',
      ),
    ).toEqual([]);
  });

  it('reports the project files a turn removed, and never a scratch file', () => {
    const r = distil(
      turn(
        prompt('Remove the docs I did not ask for'),
        bash(`rm ${ROOT}/docs/local-development.md docs/SETUP.md /tmp/test-env/.env`, ''),
        stop('Removed both docs files.'),
      ),
    );
    expect(r.removedFiles).toEqual(['docs/local-development.md', 'docs/SETUP.md']);
  });

  it('keeps the open task list (named by session) and the failure still open, and says what is next', () => {
    const r = distil(
      turn(
        prompt('Migrate the build to esbuild'),
        tool('TodoWrite', {
          todos: [
            { content: 'Replace webpack config', status: 'in_progress' },
            { content: 'Update CI', status: 'pending' },
          ],
        }),
        write(
          'build.mjs',
          "import { build } from 'esbuild';\nawait build({ entryPoints: ['src/index.ts'] });\n",
        ),
        tool('TodoWrite', {
          todos: [
            { content: 'Replace webpack config', status: 'completed' },
            { content: 'Update CI', status: 'pending' },
            { content: 'Fix source maps', status: 'in_progress' },
          ],
        }),
        bashFail(
          'npm run build',
          'Exit code 1\n✘ [ERROR] Could not resolve "./legacy"\n\n    src/index.ts:3:7:\n1 error',
        ),
        stop(
          'Partly done; the build still fails on ./legacy.\n\nNext: move src/legacy into packages/legacy.',
        ),
      ),
    );
    expect(titles(r.observations)).toEqual([
      ['feature', 'Replace webpack config'],
      ['failed_attempt', '`npm run build` fails: ✘ [ERROR] Could not resolve "./legacy"'],
      ['task', 'Open tasks (2 of 3): Fix source maps'],
    ]);
    expect(ofType(r.observations, 'task')[0]).toMatchObject({
      subject: 'tasks:sess-1',
      facts: ['[ ] Update CI', '[ ] Fix source maps (in progress)'],
    });
    // Named by its purpose, so a later build passing under any spelling closes it.
    expect(ofType(r.observations, 'failed_attempt')[0]).toMatchObject({ subject: 'fail:build' });
    expect(r.summary?.nextSteps).toBe(
      'Update CI; Fix source maps; move src/legacy into packages/legacy; fix `npm run build`: ✘ [ERROR] Could not resolve "./legacy"',
    );
  });

  it('counts an item as done when an edit after the list was written defines what it names, never an edit before it', () => {
    const browser = [
      "import { chromium, type Page } from 'playwright';",
      'export class PlaywrightComputerUse {',
      '  private page: Page | null = null;',
      '  async initialize(): Promise<void> {',
      '    this.page = await (await chromium.launch()).newPage();',
      '  }',
      '  async click(x: number, y: number): Promise<void> {',
      '    await this.page?.mouse.click(x, y);',
      '  }',
      '  async type(text: string): Promise<void> {',
      '    await this.page?.keyboard.type(text);',
      '  }',
      '  async press(key: string): Promise<void> {',
      '    await this.page?.keyboard.press(key);',
      '  }',
      '  async navigate(url: string): Promise<void> {',
      '    await this.page?.goto(url);',
      '  }',
      '  async screenshot(): Promise<string> {',
      "    return (await this.page?.screenshot())?.toString('base64') ?? '';",
      '  }',
      '}',
      '',
    ].join('\n');
    const list = tool('TodoWrite', {
      todos: [
        { content: 'Build computer-use layer on Playwright', status: 'in_progress' },
        { content: 'Implement click(x,y), type(text), screenshot() primitives', status: 'pending' },
        { content: 'Implement drag(x1,y1,x2,y2) for sliders', status: 'pending' },
        { content: 'Test: Can agent complete happy-path scenario successfully?', status: 'pending' },
      ],
    });
    const r = distil(
      turn(
        prompt('ok'),
        list,
        write('src/computer-use/browser.ts', browser),
        stop('The computer-use layer is in place.'),
      ),
    );
    // Six definitions come before `screenshot` in the file: every one counts, not the first few.
    expect(ofType(r.observations, 'task')[0]?.facts).toEqual([
      '[ ] Build computer-use layer on Playwright (in progress)',
      '[ ] Implement drag(x1,y1,x2,y2) for sliders',
      '[ ] Test: Can agent complete happy-path scenario successfully?',
    ]);
    // The same file written before the list: the list, written after it, says what is open.
    const before = distil(
      turn(
        prompt('ok'),
        write('src/computer-use/browser.ts', browser),
        list,
        stop('The list is up to date.'),
      ),
    );
    expect(ofType(before.observations, 'task')[0]?.facts).toHaveLength(4);
  });

  it('folds a subagent finding into the fix it led to; a research-only turn keeps it once, titled by the finding', () => {
    const findings =
      'Payments are retried in src/payments/retry.ts with exponential backoff.\n\n- 3 attempts, base delay 200 ms\n- Retries only on 5xx and timeouts';
    const task = tool(
      'Task',
      {
        description: 'Find payment retry logic',
        prompt: 'Find where payments are retried',
        subagent_type: 'Explore',
      },
      {
        status: 'completed',
        agentId: 'a1b2c3',
        content: [{ type: 'text', text: findings }],
        totalTokens: 5120,
      },
    );
    const subagentStop = {
      kind: 'subagent_stop' as const,
      agentId: 'a1b2c3',
      agentType: 'Explore',
      lastMessage: findings,
    };
    const research = distil(
      turn(
        prompt('Where are failed payments retried?'),
        subagentStop,
        task,
        stop('In src/payments/retry.ts.'),
      ),
    );
    expect(titles(research.observations)).toEqual([
      ['discovery', 'Payments are retried in src/payments/retry.ts with exponential backoff.'],
    ]);
    expect(research.observations[0]).toMatchObject({
      subtitle: 'Find payment retry logic',
      facts: ['3 attempts, base delay 200 ms', 'Retries only on 5xx and timeouts'],
    });
    const fix = distil(
      turn(
        prompt('Retry payments on 429 as well'),
        task,
        edit('src/payments/retry.ts', 'status >= 500', 'status >= 500 || status === 429'),
        stop('Payments are now retried on 429 too, with the same backoff.'),
      ),
    );
    expect(titles(fix.observations)).toEqual([
      ['change', 'Payments are now retried on 429 too, with the same backoff.'],
    ]);
    expect(fix.observations[0]?.narrative).toMatch(/An Explore subagent found: Payments are retried/);
  });

  it('never makes a memory of a plan written for approval, nor of the compaction summary', () => {
    const r = distil(
      turn(
        prompt('Plan the pnpm migration'),
        write('plan.md', '# Plan\n\n1. Add pnpm-workspace.yaml\n'),
        tool('ExitPlanMode', { plan: '1. Add pnpm-workspace.yaml' }, {}),
        stop('Here is the plan for your approval.'),
      ),
    );
    expect(r.observations).toEqual([]);
    // The plan file the host keeps (`~/.claude/plans/`) is no file of the project's work, nor is its
    // auto memory (`~/.claude/projects/<dir>/memory/`).
    const planned = distil(
      turn(
        prompt('Enrich the renderer'),
        write('/home/dev/.claude/plans/drifting-whisper.md', '# Plan: enrich the renderer\n'),
        write('/home/dev/.claude/projects/-home-dev-shop/memory/MEMORY.md', '- [Renderer](renderer.md)\n'),
        edit(
          'src/renderer.ts',
          'export const render = () => [];',
          'export const render = (opts = {}) => [];',
        ),
        stop('The renderer takes options now.'),
      ),
    );
    expect(planned.summary?.filesEdited).toEqual(['src/renderer.ts']);
    expect(planned.observations.flatMap((o) => o.filesModified)).toEqual(['src/renderer.ts']);
    const compacted = distil(
      turn(
        { kind: 'pre_compact', trigger: 'manual', instructions: '' },
        { kind: 'session_start', source: 'compact' },
        {
          kind: 'post_compact',
          trigger: 'manual',
          summary: '<analysis>x</analysis><summary>1. Fix the cart totals.</summary>',
        },
      ),
    );
    expect(compacted.observations).toEqual([]);
    expect(compacted.summary?.notes).toBe('context was compacted');
  });
});

describe('heuristic distiller: gotchas with their fix', () => {
  it('turns a setup error and what resolved it into a gotcha, using the words said in between', () => {
    const events = turn(
      prompt('Add the LiveView test for the review page'),
      write('test/review_live_test.exs', 'defmodule ReviewLiveTest do\nend\n'),
      bashFail(
        'mix test test/review_live_test.exs 2>&1',
        'Exit code 1\n     error: undefined function get/2 (expected ReviewLiveTest to define such a function or for it to be imported, but none are available)',
      ),
      edit(
        'test/review_live_test.exs',
        'defmodule ReviewLiveTest do',
        'defmodule ReviewLiveTest do\n  import Phoenix.ConnTest',
      ),
      bash('mix test test/review_live_test.exs 2>&1', 'Finished in 0.4 seconds\n5 tests, 0 failures'),
      stop('The review page has a LiveView test now.'),
    );
    const r = distil(events, null, [
      said(
        3,
        'The `live/2` helper needs `Phoenix.ConnTest.get/2` imported. I need to also import `Phoenix.ConnTest`.',
      ),
    ]);
    const [gotcha] = ofType(r.observations, 'gotcha');
    // Symptom → fix (the assistant's words for it, where it was made), keyed by purpose.
    expect(gotcha).toMatchObject({
      title:
        '`mix test` fails: undefined function get/2 → import `Phoenix.ConnTest` (in review_live_test.exs `ReviewLiveTest`)',
      subject: 'gotcha:test:undefined function',
    });
    expect(gotcha?.facts).toEqual([
      'error: error: undefined function get/2 (expected ReviewLiveTest to define such a function or for it to be imported, but none are available)',
      // The cause alone: what the assistant would do about it is the fix, not part of why it failed.
      'cause: The `live/2` helper needs `Phoenix.ConnTest.get/2` imported.',
      'fix: import `Phoenix.ConnTest` (in review_live_test.exs `ReviewLiveTest`)',
      'changed: test/review_live_test.exs (ReviewLiveTest)',
    ]);
    expect(r.summary?.learned).toBe(
      '`mix test`: undefined function get/2 → import `Phoenix.ConnTest` (in review_live_test.exs `ReviewLiveTest`)',
    );
    expect(r.summary?.nextSteps).toBe('');
  });

  it('takes a different flag that worked as the fix, and never lists a resolved failure as open', () => {
    const r = distil(
      turn(
        prompt('push it'),
        bashFail(
          'git push 2>&1',
          'Exit code 128\nfatal: The current branch feature/x has no upstream branch.\nTo push the current branch and set the remote as upstream, use\n\n    git push --set-upstream origin feature/x\n',
        ),
        bash(
          'git push --set-upstream origin feature/x 2>&1',
          "branch 'feature/x' set up to track 'origin/feature/x'.",
        ),
        stop('Pushed.'),
      ),
    );
    expect(titles(r.observations)).toEqual([
      [
        'gotcha',
        '`git push` fails: The current branch feature/x has no upstream branch. → `git push --set-upstream origin feature/x`',
      ],
    ]);
    expect(ofType(r.observations, 'failed_attempt')).toEqual([]);
    expect(r.summary?.nextSteps).toBe('');
  });

  it('is not a gotcha when a test found a bug in the code and the code was fixed', () => {
    const r = distil(
      turn(
        prompt('Make the parser tests pass'),
        bash(
          'pytest tests/test_parser.py 2>&1 | tail -5',
          'FAILED tests/test_parser.py::test_dates - ValueError: bad month\n==== 1 failed, 11 passed in 0.31s ====',
        ),
        edit(
          'src/parser.py',
          '    month = int(parts[1])',
          '    month = int(parts[1].lstrip("0") or 0)',
          'def parse_date(s):\n    parts = s.split("-")\n    month = int(parts[1])\n',
        ),
        bash('pytest tests/test_parser.py 2>&1 | tail -5', '==== 12 passed in 0.30s ===='),
        stop('Dates with a leading zero month parse now.'),
      ),
    );
    expect(titles(r.observations)).toEqual([
      ['bugfix', 'Dates with a leading zero month parse now.'],
      ['fact', '`pytest` runs the tests'],
    ]);
    expect(r.observations[0]?.facts).toEqual([
      'src/parser.py: changed parse_date',
      'test `pytest`: passed (12 passed)',
      'fixed: ValueError: bad month',
    ]);
    expect(r.observations[1]?.facts).toEqual(['command: `pytest`', 'one file: `pytest <file>`']);
  });

  it('reports the commands that ended the turn working, to close failures left open earlier', () => {
    const r = distil(
      turn(
        prompt('Docker is up now, try again'),
        bash('docker compose up -d db', ' ✔ Container shop-db-1  Started'),
        bash('npm run test:integration', 'Tests  3 passed (3)'),
        stop('All 3 integration tests pass.'),
      ),
    );
    // Keyed by purpose (suite and tool), and never "fixed" by the prompt that asked for it.
    expect(r.resolutions).toEqual([
      expect.objectContaining({ key: 'purpose:run:docker compose up', target: '', fix: '' }),
      expect.objectContaining({
        key: 'purpose:test:integration',
        target: '',
        command: 'npm run test:integration',
        fix: 'run `docker compose up -d db` first',
      }),
    ]);
  });
});

describe('heuristic distiller: project knowledge', () => {
  it('keeps one fact per purpose: variants normalised, single files noted, ports kept', () => {
    const r = distil(
      turn(
        prompt('run the cart tests, then start the app'),
        bash('npx vitest run src/cart.test.ts', 'Tests  14 passed (14)'),
        bash('npm test -- src/cart.test.ts 2>&1 | tail -20', 'Tests  14 passed (14)'),
        bash('npm test 2>&1 | tail -5', 'Tests  25 passed (25)'),
        bash('npm test 2>&1 | tail -5', 'Tests  25 passed (25)'),
        bash('npm run dev', '  VITE v5.4.2  ready in 312 ms\n\n  ➜  Local:   http://localhost:5173/'),
        stop('The app is up at http://localhost:5173/.'),
      ),
    );
    expect(r.observations).toEqual([
      expect.objectContaining({
        type: 'fact',
        title: '`npm test` runs the tests',
        subject: 'command:test',
        facts: [
          'command: `npm test`',
          'also: `npx vitest run`',
          'one file: `npx vitest run <file>`',
          'one file: `npm test -- <file>`',
        ],
      }),
      expect.objectContaining({
        type: 'fact',
        title: '`npm run dev` runs the app',
        subject: 'command:run',
        narrative: 'In this project, `npm run dev` runs the app (on port 5173).',
        facts: ['command: `npm run dev`', 'port: 5173'],
      }),
    ]);
  });

  it('keeps scrubber markers as they are', () => {
    const r = distil(
      turn(
        prompt('Set API_KEY=[REDACTED:api_key] in the deploy script'),
        edit('deploy.sh', 'export API_KEY=', 'export API_KEY=[REDACTED:api_key]'),
        stop('deploy.sh now exports API_KEY=[REDACTED:api_key].'),
      ),
    );
    expect(r.observations[0]).toMatchObject({ title: 'deploy.sh now exports API_KEY=[REDACTED:api_key].' });
    expect(r.observations[0]?.concepts.join(' ')).not.toMatch(/redacted/);
  });
});
