import { describe, expect, it } from 'vitest';
import type { ObservationDraft, QueuedEvent, SummaryDraft } from '../core/model.ts';
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

const distil = (events: QueuedEvent[], previousSummary: SummaryDraft | null = null) =>
  createHeuristicDistiller().distilTurn({ projectRoot: ROOT, events, previousSummary });
const ofType = (obs: ObservationDraft[], type: string) => obs.filter((o) => o.type === type);

describe('heuristic distiller: one turn', () => {
  it('turns failing test → edit → passing test into a bugfix and a fixed error', () => {
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
    expect(r.observations.map((o) => o.type)).toEqual(['bugfix', 'error']);
    const [main, error] = r.observations;
    expect(main).toMatchObject({
      title: 'The cart total is wrong when a coupon is applied.',
      subtitle: 'The cart total is wrong when a coupon is applied. Fix it.',
      filesModified: ['src/cart.ts'],
      filesRead: ['src/cart.ts'],
    });
    expect(main?.facts).toEqual([
      'src/cart.ts: changed applyCoupon',
      'test `npm test`: passed (21 passed)',
      'fixed: AssertionError: expected 90 to be 81',
    ]);
    expect(main?.narrative).toMatch(/^Fixed applyCoupon .*percentage coupons/);
    expect(main?.concepts).toEqual(expect.arrayContaining(['cart', 'coupon', 'typescript', 'npm']));
    expect(error).toMatchObject({
      title: 'Fixed error: AssertionError: expected 90 to be 81',
      facts: ['fixed: `npm test` → AssertionError: expected 90 to be 81'],
    });
    expect(error?.narrative).toMatch(/met and fixed.*Fixed by changing src\/cart\.ts/);
    expect(r.summary).toMatchObject({
      request: 'The cart total is wrong when a coupon is applied. Fix it.',
      filesEdited: ['src/cart.ts'],
      filesRead: ['src/cart.ts'],
      nextSteps: '',
    });
    expect(r.summary?.learned).toBe('fixed: AssertionError: expected 90 to be 81');
    expect(r.summary?.completed).toMatch(
      /^changed src\/cart\.ts; tests pass \(21 passed\)\. Fixed applyCoupon/,
    );
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
        stop('Added a limiter middleware (100 requests/minute) and registered it in createApp.'),
      ),
    );
    expect(r.observations).toHaveLength(1);
    const [main] = r.observations;
    expect(main).toMatchObject({
      type: 'feature',
      title: 'Add rate limiting to the API using express-rate-limit',
      filesModified: ['src/middleware/rate-limit.ts', 'src/app.ts'],
    });
    expect(main?.facts).toEqual([
      'created src/middleware/rate-limit.ts (3 lines): limiter',
      'src/app.ts: changed createApp',
      'typecheck `npx tsc --noEmit`: passed',
      'dependencies added: express-rate-limit',
    ]);
    expect(main?.concepts).toEqual(
      expect.arrayContaining(['rate', 'limiting', 'express-rate-limit', 'typescript']),
    );
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
    expect(main?.concepts).toEqual(expect.arrayContaining(['getuser', 'fetchuser', 'python', 'typescript']));
  });

  it('makes a read-only question a discovery with the files read and searches made', () => {
    const r = distil(
      turn(
        prompt('How does the session middleware decide a token expired?'),
        tool(
          'Grep',
          { pattern: 'expiresAt', path: abs('src') },
          { mode: 'files_with_matches', numFiles: 1, filenames: [abs('src/session.ts')] },
        ),
        read('src/session.ts', 'export function checkSession() {}'),
        read('/etc/hosts'),
        stop(
          'It compares expiresAt with Date.now() in checkSession and refreshes tokens within 5 minutes of expiry.',
        ),
      ),
    );
    expect(r.observations).toEqual([
      {
        type: 'discovery',
        title: 'How does the session middleware decide a token expired?',
        subtitle: '',
        narrative:
          'It compares expiresAt with Date.now() in checkSession and refreshes tokens within 5 minutes of expiry.',
        facts: [],
        concepts: ['session', 'middleware', 'decide', 'token', 'typescript'],
        filesRead: ['src/session.ts', '/etc/hosts'],
        filesModified: [],
      },
    ]);
    expect(r.summary?.investigated).toBe('read src/session.ts, /etc/hosts; grep expiresAt in src');
  });

  it('titles a commit turn with the commit message and records hash and push', () => {
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
        type: 'change',
        title: 'feat: cache user lookups',
        subtitle: 'commit and push',
        facts: ['committed: feat: cache user lookups', 'pushed to the remote'],
      }),
    ]);
    expect(r.summary?.completed).toMatch(/^committed "feat: cache user lookups"; pushed/);
  });

  it('adds a commit observation beside the work it commits', () => {
    const r = distil(
      turn(
        prompt('Add a /health endpoint and commit it'),
        edit(
          'src/routes.ts',
          "router.get('/', home);",
          "router.get('/', home);\nrouter.get('/health', health);",
        ),
        bash(
          'git commit -am "Add health endpoint"',
          '[feature/health 0c0ffee] Add health endpoint\n 1 file changed',
        ),
        stop('Added GET /health.'),
      ),
    );
    expect(r.observations.map((o) => [o.type, o.title])).toEqual([
      ['feature', 'Add a /health endpoint and commit it'],
      ['change', 'Add health endpoint'],
    ]);
    expect(r.observations[1]).toMatchObject({
      narrative: 'Committed "Add health endpoint" (0c0ffee on feature/health) with changes to src/routes.ts.',
      facts: ['committed: Add health endpoint (0c0ffee)', 'src/routes.ts: edited (+2 −1 lines)'],
      filesModified: ['src/routes.ts'],
    });
  });

  it('keeps pending todos and an unresolved error as a task, a failed attempt and next steps', () => {
    const r = distil(
      turn(
        prompt('Migrate the build to esbuild'),
        tool('TodoWrite', {
          todos: [
            { content: 'Replace webpack config', status: 'pending', activeForm: 'Replacing webpack config' },
            { content: 'Update CI', status: 'pending', activeForm: 'Updating CI' },
          ],
        }),
        write(
          'build.mjs',
          "import { build } from 'esbuild';\nawait build({ entryPoints: ['src/index.ts'] });\n",
        ),
        tool('TodoWrite', {
          todos: [
            {
              content: 'Replace webpack config',
              status: 'completed',
              activeForm: 'Replacing webpack config',
            },
            { content: 'Update CI', status: 'pending', activeForm: 'Updating CI' },
            { content: 'Fix source maps', status: 'in_progress', activeForm: 'Fixing source maps' },
          ],
        }),
        bashFail(
          'npm run build',
          'Exit code 1\n✘ [ERROR] Could not resolve "./legacy"\n\n    src/index.ts:3:7:\n1 error',
        ),
        stop('Partly done; the build still fails on ./legacy.'),
      ),
    );
    expect(r.observations.map((o) => o.type)).toEqual(['feature', 'failed_attempt', 'task']);
    const task = ofType(r.observations, 'task')[0];
    expect(task).toMatchObject({
      title: 'Open tasks (2 of 3): Fix source maps',
      facts: ['[x] Replace webpack config', '[ ] Update CI', '[ ] Fix source maps (in progress)'],
    });
    const failed = ofType(r.observations, 'failed_attempt')[0];
    expect(failed?.title).toBe('Failed: `npm run build` — ✘ [ERROR] Could not resolve "./legacy"');
    expect(failed?.narrative).toMatch(
      /^Tried and failed: `npm run build` \(✘ \[ERROR\] Could not resolve "\.\/legacy"\)\. Still failing/,
    );
    expect(r.observations[0]?.facts).toContain(
      'build `npm run build`: failed (✘ [ERROR] Could not resolve "./legacy")',
    );
    expect(r.summary?.nextSteps).toBe(
      'Update CI; Fix source maps; resolve: ✘ [ERROR] Could not resolve "./legacy"',
    );
  });

  it('does not make a task observation when every todo is done', () => {
    const r = distil(
      turn(
        prompt('Tidy the README'),
        edit('README.md', '## Install\nnpm i', '## Install\n\nnpm install shop'),
        tool('TodoWrite', { todos: [{ content: 'Tidy README', status: 'completed', activeForm: 'x' }] }),
        stop('README tidied.'),
      ),
    );
    expect(ofType(r.observations, 'task')).toEqual([]);
    expect(r.observations[0]?.facts).toEqual(['README.md: changed Install']);
  });

  it('records subagent findings once, titled from the task description', () => {
    const findings =
      'Payments are retried in src/payments/retry.ts with exponential backoff.\n\n- 3 attempts, base delay 200 ms\n- Retries only on 5xx and timeouts\n- Idempotency key reused across attempts';
    const r = distil(
      turn(
        prompt('Where are failed payments retried?'),
        { kind: 'subagent_stop', agentId: 'a1b2c3', agentType: 'Explore', lastMessage: findings },
        tool(
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
        ),
        stop('They are retried in src/payments/retry.ts (3 attempts with exponential backoff).'),
      ),
    );
    expect(r.observations.map((o) => [o.type, o.title])).toEqual([
      ['discovery', 'Where are failed payments retried?'],
      ['discovery', 'Find payment retry logic'],
    ]);
    expect(r.observations[1]).toMatchObject({
      subtitle: 'Explore subagent',
      narrative: expect.stringMatching(/^Payments are retried in src\/payments\/retry\.ts/),
      facts: [
        '3 attempts, base delay 200 ms',
        'Retries only on 5xx and timeouts',
        'Idempotency key reused across attempts',
      ],
    });
    expect(r.observations[1]?.concepts).toEqual(expect.arrayContaining(['subagent', 'explore', 'payment']));
    expect(r.summary?.learned).toBe(
      'Find payment retry logic: Payments are retried in src/payments/retry.ts with exponential backoff.',
    );
    expect(r.summary?.notes).toBe('subagents used: Find payment retry logic');
  });

  it('calls a stated choice a decision', () => {
    const r = distil(
      turn(
        prompt('Which queue library should we use for the mailer?'),
        read('package.json'),
        stop('I went with BullMQ instead of Agenda because it is maintained and we already run Redis.'),
      ),
    );
    expect(r.observations[0]).toMatchObject({
      type: 'decision',
      title: 'Which queue library should we use for the mailer?',
    });
    expect(r.summary?.learned).toMatch(/^decided: I went with BullMQ instead of Agenda/);
  });

  it('keeps a compaction summary without its analysis or the host boilerplate', () => {
    const r = distil(
      turn(
        { kind: 'pre_compact', trigger: 'manual', instructions: '' },
        {
          kind: 'subagent_stop',
          agentId: 'acompact-1f2e',
          agentType: '',
          lastMessage: '<analysis>thinking</analysis><summary>Worked on carts.</summary>',
        },
        { kind: 'session_start', source: 'compact' },
        {
          kind: 'post_compact',
          trigger: 'manual',
          summary:
            '<analysis>thinking aloud</analysis>\n<summary>1. Primary Request: fix the cart totals.\n2. Pending: coupons.</summary>',
        },
      ),
    );
    expect(r.observations).toEqual([
      expect.objectContaining({
        type: 'discovery',
        title: 'Compacted context summary',
        narrative: '1. Primary Request: fix the cart totals. 2. Pending: coupons.',
      }),
    ]);
    expect(r.summary?.notes).toBe('context was compacted');
  });

  it('reads a failure hidden behind a pipe and a fix with the same command', () => {
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
    expect(r.observations.map((o) => [o.type, o.title])).toEqual([
      ['bugfix', 'Make the parser tests pass'],
      ['error', 'Fixed error: FAILED tests/test_parser.py::test_dates - ValueError: bad month'],
    ]);
    expect(r.observations[0]?.facts).toEqual([
      'src/parser.py: changed parse_date',
      'test `pytest tests/test_parser.py 2>&1 | tail -5`: passed (12 passed)',
      'fixed: FAILED tests/test_parser.py::test_dates - ValueError: bad month',
    ]);
  });

  it('keeps scrubber markers as they are', () => {
    const r = distil(
      turn(
        prompt('Set API_KEY=[REDACTED:api_key] in the deploy script'),
        edit('deploy.sh', 'export API_KEY=', 'export API_KEY=[REDACTED:api_key]'),
        stop('Set API_KEY=[REDACTED:api_key] in deploy.sh.'),
      ),
    );
    expect(r.observations[0]).toMatchObject({
      title: 'Set API_KEY=[REDACTED:api_key] in the deploy script',
      narrative: 'Set API_KEY=[REDACTED:api_key] in deploy.sh.',
    });
    expect(r.observations[0]?.concepts.join(' ')).not.toMatch(/redacted/);
  });
});
