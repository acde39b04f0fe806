import { describe, expect, it } from 'vitest';
import type { CapturedEvent, QueuedEvent, SummaryDraft } from '../core/model.ts';
import { createHeuristicDistiller } from './heuristic-distiller.ts';

const ROOT = '/home/dev/shop';
let seq = 0;
function turn(...events: CapturedEvent[]): QueuedEvent[] {
  return events.map((event) => ({
    seq: ++seq,
    sessionId: 's1',
    projectId: 'prj_x' as never,
    cwd: ROOT,
    transcriptPath: null,
    at: seq * 1000,
    event,
    attempts: 0,
  }));
}
const prompt = (p: string): CapturedEvent => ({ kind: 'prompt', prompt: p });
const stop = (m: string): CapturedEvent => ({ kind: 'stop', lastMessage: m });
const bash = (command: string, stdout = '', stderr = ''): CapturedEvent => ({
  kind: 'tool',
  tool: 'Bash',
  input: { command },
  response: { stdout, stderr, interrupted: false },
});
const bashFail = (command: string, error: string): CapturedEvent => ({
  kind: 'tool_failure',
  tool: 'Bash',
  input: { command },
  error,
  interrupted: false,
});
const read = (file: string): CapturedEvent => ({
  kind: 'tool',
  tool: 'Read',
  input: { file_path: `${ROOT}/${file}` },
  response: {},
});
const edit = (file: string, oldS: string, newS: string): CapturedEvent => ({
  kind: 'tool',
  tool: 'Edit',
  input: { file_path: `${ROOT}/${file}`, old_string: oldS, new_string: newS },
  response: {},
});
const write = (file: string, content: string): CapturedEvent => ({
  kind: 'tool',
  tool: 'Write',
  input: { file_path: `${ROOT}/${file}`, content },
  response: { type: 'create' },
});

const distil = (events: QueuedEvent[], previousSummary: SummaryDraft | null = null) =>
  createHeuristicDistiller().distilTurn({ projectRoot: ROOT, events, previousSummary });

describe('heuristic distiller', () => {
  it('turns failing test → edit → passing test into a bugfix and a fixed error', () => {
    const r = distil(
      turn(
        prompt('The cart total is wrong when a coupon is applied. Fix it.'),
        read('src/cart.ts'),
        bashFail(
          'npm test',
          'Exit code 1\nFAIL src/cart.test.ts\n  AssertionError: expected 90 to be 81\nTests: 1 failed, 20 passed',
        ),
        edit(
          'src/cart.ts',
          'export function applyCoupon(total: number, c: Coupon) {\n  return total - c.amount;\n}',
          'export function applyCoupon(total: number, c: Coupon) {\n  return c.percent ? total * (1 - c.percent) : total - c.amount;\n}',
        ),
        bash('npm test', 'PASS src/cart.test.ts\nTests: 21 passed, 21 total'),
        stop(
          'Fixed applyCoupon in src/cart.ts: percentage coupons were subtracted as amounts. All 21 tests pass.',
        ),
      ),
    );
    const [main, error] = r.observations;
    expect(main).toMatchObject({
      type: 'bugfix',
      title: 'The cart total is wrong when a coupon is applied.',
      filesModified: ['src/cart.ts'],
      filesRead: ['src/cart.ts'],
    });
    expect(main?.facts).toContain('src/cart.ts: changed applyCoupon');
    expect(main?.facts).toContain('test `npm test`: passed (21 passed)');
    expect(main?.narrative).toMatch(/percentage coupons/);
    expect(error).toMatchObject({
      type: 'error',
      title: 'Fixed error: AssertionError: expected 90 to be 81',
    });
    expect(error?.facts[0]).toMatch(/^fixed: `npm test`/);
    expect(r.summary).toMatchObject({
      request: 'The cart total is wrong when a coupon is applied. Fix it.',
      filesEdited: ['src/cart.ts'],
      filesRead: ['src/cart.ts'],
    });
    expect(r.summary?.learned).toMatch(/fixed: AssertionError/);
  });

  it('describes a feature: new file, edited file, dependency added', () => {
    const r = distil(
      turn(
        prompt('Add rate limiting to the API using express-rate-limit'),
        bash('npm install express-rate-limit --save'),
        write(
          'src/middleware/rate-limit.ts',
          'import rateLimit from "express-rate-limit";\nexport const limiter = rateLimit({ windowMs: 60000, max: 100 });\n',
        ),
        edit('src/app.ts', 'app.use(json());', 'app.use(json());\napp.use(limiter);'),
        stop('Added a limiter middleware (100 requests/minute) and registered it in src/app.ts.'),
      ),
    );
    expect(r.observations).toHaveLength(1);
    const [main] = r.observations;
    expect(main?.type).toBe('feature');
    expect(main?.facts).toEqual(
      expect.arrayContaining([
        'src/middleware/rate-limit.ts: created (3 lines)',
        'dependencies added: express-rate-limit',
      ]),
    );
    expect(main?.filesModified).toEqual(['src/middleware/rate-limit.ts', 'src/app.ts']);
    expect(main?.concepts).toEqual(expect.arrayContaining(['rate', 'typescript']));
  });

  it('classifies refactors and records commits with their message', () => {
    const r = distil(
      turn(
        prompt('Rename getUser to fetchUser everywhere'),
        edit(
          'src/users.ts',
          'export async function getUser(id: string) {',
          'export async function fetchUser(id: string) {',
        ),
        bash(
          `git commit -m "$(cat <<'EOF'\nRename getUser to fetchUser\n\nCo-authored-by: x\nEOF\n)"`,
          '[main 1a2b3c4] Rename getUser to fetchUser',
        ),
        stop('Renamed.'),
      ),
    );
    const [main] = r.observations;
    expect(main?.type).toBe('refactor');
    expect(main?.facts).toEqual(
      expect.arrayContaining([
        'src/users.ts: added fetchUser; removed getUser',
        'committed: Rename getUser to fetchUser',
      ]),
    );
    expect(r.summary?.completed).toMatch(/committed "Rename getUser to fetchUser"/);
  });

  it('makes a read-only question a discovery', () => {
    const r = distil(
      turn(
        prompt('How does the session middleware decide a token expired?'),
        read('src/session.ts'),
        { kind: 'tool', tool: 'Grep', input: { pattern: 'expiresAt', path: `${ROOT}/src` }, response: {} },
        stop('It compares expiresAt with Date.now() in checkSession.'),
      ),
    );
    expect(r.observations).toEqual([
      expect.objectContaining({
        type: 'discovery',
        filesRead: ['src/session.ts'],
        filesModified: [],
        narrative: 'It compares expiresAt with Date.now() in checkSession.',
      }),
    ]);
    expect(r.summary?.investigated).toMatch(/read src\/session.ts; grep expiresAt in src/);
  });

  it('keeps open todos and unresolved errors as next steps', () => {
    const r = distil(
      turn(
        prompt('Migrate the build to esbuild'),
        {
          kind: 'tool',
          tool: 'TodoWrite',
          input: {
            todos: [
              { content: 'Replace webpack config', status: 'completed' },
              { content: 'Update CI', status: 'pending' },
              { content: 'Fix source maps', status: 'in_progress' },
            ],
          },
          response: {},
        },
        bashFail('npm run build', 'Exit code 1\n✘ [ERROR] Could not resolve "./legacy"'),
        stop('Partly done; the build still fails on ./legacy.'),
      ),
    );
    const types = r.observations.map((o) => o.type);
    expect(types).toContain('task');
    const task = r.observations.find((o) => o.type === 'task');
    expect(task?.facts).toEqual(['[x] Replace webpack config', '[ ] Update CI', '[~] Fix source maps']);
    const err = r.observations.find((o) => o.type === 'failed_attempt');
    expect(err?.title).toBe('Failed: `npm run build` — ✘ [ERROR] Could not resolve "./legacy"');
    expect(err?.narrative).toMatch(/^Tried and failed: `npm run build`/);
    expect(r.summary?.nextSteps).toMatch(
      /Update CI; Fix source maps; resolve: ✘ \[ERROR\] Could not resolve/,
    );
  });

  it('records subagent findings as discoveries', () => {
    const r = distil(
      turn(
        prompt('Find where payments are retried'),
        {
          kind: 'subagent_stop',
          agentId: 'a1',
          agentType: 'Explore',
          lastMessage:
            'Payments are retried in src/payments/retry.ts with exponential backoff (3 attempts, base 200 ms).',
        },
        stop('See the finding above.'),
      ),
    );
    expect(r.observations.find((o) => o.concepts.includes('subagent'))).toMatchObject({
      type: 'discovery',
      title: expect.stringMatching(/^Subagent finding \(Explore\): Payments are retried/),
    });
  });

  it('keeps the summary part of a compaction answer, not its analysis', () => {
    const r = distil(
      turn({
        kind: 'post_compact',
        trigger: 'manual',
        summary: '<analysis>thinking aloud</analysis>\n<summary>Worked on the cart totals.</summary>',
      }),
    );
    expect(r.observations).toEqual([
      expect.objectContaining({
        title: 'Compacted context summary',
        narrative: 'Worked on the cart totals.',
      }),
    ]);
  });

  it('survives unknown tools, garbage fields and partial turns', () => {
    const weird: CapturedEvent[] = [
      { kind: 'tool', tool: 'mcp__github__create_issue', input: { title: 5 } as never, response: null },
      { kind: 'tool', tool: 'Edit', input: 'not an object', response: 42 },
      { kind: 'tool', tool: 'Bash', input: { command: 17 } as never, response: [] },
      { kind: 'tool', tool: 'Write', input: { file_path: null } as never, response: {} },
      { kind: 'tool_failure', tool: 'Read', input: {}, error: '', interrupted: true },
    ];
    expect(() => distil(turn(...weird))).not.toThrow();
    expect(distil(turn({ kind: 'session_start', source: 'startup' }))).toEqual({
      observations: [],
      summary: null,
    });
    const partial = distil(
      turn(edit('a.py', 'def f():\n  pass', 'def f():\n  return 1\n\ndef g():\n  pass')),
    );
    expect(partial.observations[0]).toMatchObject({
      type: 'change',
      title: 'Edited a.py',
      facts: ['a.py: changed f; added g'],
    });
  });

  it('merges the rolling summary across turns', () => {
    const first = distil(
      turn(prompt('Set up the project'), write('package.json', '{}'), stop('Created package.json.')),
    );
    const second = distil(
      turn(prompt('Now add a README'), write('README.md', '# Shop'), stop('Added README.md.')),
      first.summary,
    );
    expect(second.summary).toMatchObject({
      request: 'Set up the project',
      filesEdited: ['package.json', 'README.md'],
    });
    expect(second.summary?.notes).toMatch(/then: Now add a README/);
    expect(second.summary?.completed).toMatch(/Created package.json.*Added README.md/);
  });

  it('is deterministic and keeps a busy turn to a few observations', () => {
    const events = [
      prompt('Update all the handlers'),
      ...Array.from({ length: 50 }, (_, i) =>
        i % 2
          ? read(`src/h${i}.ts`)
          : edit(`src/h${i}.ts`, `function h${i}() {}`, `function h${i}() { return ${i}; }`),
      ),
      stop('Updated 25 handlers.'),
    ];
    const a = distil(turn(...events));
    seq -= events.length;
    const b = distil(turn(...events));
    expect(a).toEqual(b);
    expect(a.observations.length).toBeLessThanOrEqual(5);
    expect(a.observations[0]?.facts.length).toBeLessThanOrEqual(12);
  });
});
