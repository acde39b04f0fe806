import { describe, expect, it } from 'vitest';
import type { SummaryDraft } from '../core/model.ts';
import { createHeuristicDistiller } from './heuristic-distiller.ts';
import { bash, bashFail, prompt, read, ROOT, stop, tool, turn, write } from './queued-events.test-support.ts';

describe('rolling session summary', () => {
  it('merges the rolling summary across turns', () => {
    const d = createHeuristicDistiller();
    const first = d.distilTurn({
      projectRoot: ROOT,
      previousSummary: null,
      events: turn(
        prompt('Set up the project'),
        write('package.json', '{\n  "name": "shop"\n}\n'),
        stop('Created package.json for the shop project.'),
      ),
    });
    const second = d.distilTurn({
      projectRoot: ROOT,
      previousSummary: first.summary,
      events: turn(
        prompt('Now add a README'),
        read('package.json'),
        write('README.md', '# Shop\n'),
        tool('TodoWrite', { todos: [{ content: 'Write a usage section', status: 'pending' }] }),
        stop('Added README.md with a title; the usage section is still to do.'),
      ),
    });
    expect(second.summary).toEqual({
      request: 'Set up the project',
      investigated: 'read package.json',
      learned: '',
      completed:
        'changed package.json. Created package.json for the shop project. | changed README.md. Added README.md with a title; the usage section is still to do.',
      nextSteps: 'Write a usage section',
      filesRead: ['package.json'],
      filesEdited: ['package.json', 'README.md'],
      notes: 'then: Now add a README',
    });
    const third = d.distilTurn({
      projectRoot: ROOT,
      previousSummary: second.summary,
      events: turn(prompt('What is left?'), stop('Only the usage section of the README is left to write.')),
    });
    expect(third.summary?.nextSteps).toBe('Write a usage section');
    expect(third.summary?.notes).toBe('then: Now add a README | then: What is left?');
  });

  it('keeps every summary field short and the session beginning when it grows', () => {
    const d = createHeuristicDistiller();
    let summary: SummaryDraft | null = null;
    for (let i = 0; i < 40; i++) {
      summary = d.distilTurn({
        projectRoot: ROOT,
        previousSummary: summary,
        events: turn(
          prompt(`Step ${i}: implement the ${'very '.repeat(30)}long feature number ${i}`),
          read(`src/read-${i}.ts`),
          write(`src/feature-${i}.ts`, `export function feature${i}() {}\n`),
          stop(`Implemented feature ${i}. ${'Details. '.repeat(80)}`),
        ),
      }).summary;
    }
    for (const field of ['request', 'investigated', 'learned', 'completed', 'nextSteps', 'notes'] as const) {
      expect(summary?.[field].length).toBeLessThanOrEqual(600);
    }
    expect(summary?.completed).toMatch(/^changed src\/feature-0\.ts/);
    expect(summary?.completed).toMatch(/Implemented feature 39\./);
    expect(summary?.filesEdited).toHaveLength(30);
    expect(summary?.filesRead).toHaveLength(30);
  });

  it('lists as next steps what the assistant said comes next, open todos and failures still open — never resolved ones', () => {
    const d = createHeuristicDistiller();
    const first = d.distilTurn({
      projectRoot: ROOT,
      previousSummary: null,
      events: turn(
        prompt('Wire the shipping quote into checkout'),
        write('src/checkout/quote.ts', 'export const quote = 1;\n'),
        bashFail(
          'npm run build',
          "Exit code 1\nsrc/checkout/quote.ts(1,1): error TS2304: Cannot find name 'Money'.",
        ),
        stop(
          'The quote is wired in but the build fails on a missing import.\n\nNext: wire it into the payment step.',
        ),
      ),
    });
    expect(first.summary?.nextSteps).toBe(
      "wire it into the payment step; fix `npm run build`: TS2304: Cannot find name 'Money'.",
    );
    const second = d.distilTurn({
      projectRoot: ROOT,
      previousSummary: first.summary,
      events: turn(
        prompt('fix the build'),
        bash('npm run build 2>&1 | tail -3', '✓ built in 2.41s'),
        stop('The build passes.'),
      ),
    });
    expect(second.summary?.nextSteps).toBe('wire it into the payment step');
    const third = d.distilTurn({
      projectRoot: ROOT,
      previousSummary: second.summary,
      events: turn(
        prompt('do the payment step'),
        tool('TodoWrite', { todos: [{ content: 'Wire the quote into payment', status: 'completed' }] }),
        stop('Payment uses the quote.'),
      ),
    });
    expect(third.summary?.nextSteps).toBe('');
  });

  it('does not read plans for the next minute as next steps', () => {
    const r = createHeuristicDistiller().distilTurn({
      projectRoot: ROOT,
      previousSummary: null,
      events: turn(
        prompt('look at the cart'),
        read('src/cart.ts'),
        stop("Let me check the tests next. I'll read the cart module first."),
      ),
    });
    expect(r.summary?.nextSteps).toBe('');
  });
});
