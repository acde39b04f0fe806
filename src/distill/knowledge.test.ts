import { describe, expect, it } from 'vitest';
import type { ObservationDraft } from '../core/model.ts';
import { draftOf } from '../store/store.test-support.ts';
import { isStanding, mergedCommandFact, ruleRelation } from './knowledge.ts';

const d = (type: ObservationDraft['type'], title: string, extra: Partial<ObservationDraft> = {}) =>
  draftOf(title, { type, ...extra });

describe('standing knowledge', () => {
  it('is the rules, the decisions with a reason or made by the user, and how to build, test and run', () => {
    expect(
      [
        d('preference', 'Always use pnpm'),
        d('convention', 'One commit per task'),
        d('correction', 'Correction: use pnpm workspaces instead'),
        d('decision', 'Use an LRU map rather than Redis, since there is one instance'),
        d('decision', 'Credo + Dialyxir (Which tools?)', { facts: ['chosen: Credo + Dialyxir'] }),
        d('fact', '`npm test` runs the tests', { subject: 'command:test' }),
      ].map((x) => isStanding(x)),
    ).toEqual([true, true, true, true, true, true]);
    expect(
      [
        d('decision', 'I will read the config next'),
        d('fact', 'node 20 in this environment', { subject: 'env:version:node' }),
        d('gotcha', '`git push` fails: no upstream → --set-upstream'),
        d('feature', 'Add checkout page route'),
        d('correction', 'Correction: why not run it?', { facts: ['asked: why not run it?'] }),
      ].map((x) => isStanding(x)),
    ).toEqual([false, false, false, false, false]);
    expect(isStanding(d('decision', 'Use Stripe Payment Intents'), { byUser: true })).toBe(true);
  });
});

describe('rules on the same subject', () => {
  it('knows the same claim said again, and a newer claim on the same subject', () => {
    const cents = d('preference', 'Always store prices as integer cents');
    expect(ruleRelation(cents, d('preference', 'always store prices as integer cents.'))).toBe('same');
    expect(
      ruleRelation(
        cents,
        d('preference', 'Store prices as integer cents in a Money type, not plain numbers'),
      ),
    ).toBe('newer');
    expect(
      ruleRelation(
        d('decision', 'Use npm workspaces for packages'),
        d('correction', 'Correction: use pnpm workspaces for packages instead'),
      ),
    ).toBe('newer');
  });

  it('does not take rules that merely share a word for the same subject', () => {
    const pnpm = d('preference', 'Always use pnpm in this repo');
    for (const other of [
      'Never use npx in CI scripts',
      'Always run the linter before committing',
      'Use pnpm workspaces for the monorepo packages',
      'Never commit directly to main',
    ])
      expect(ruleRelation(pnpm, d('preference', other)), other).toBe('other');
    expect(ruleRelation(pnpm, d('feature', 'Always use pnpm in this repo'))).toBe('other');
  });
});

describe('a command fact seen again', () => {
  it('adds what is new (another main command becomes "also"), and nothing when nothing is new', () => {
    const fact = d('fact', '`npm test` runs the tests', {
      narrative: 'In this project, `npm test` runs the tests.',
      facts: ['command: `npm test`'],
    });
    expect(
      mergedCommandFact(fact, d('fact', '`npm test` runs the tests', { facts: ['command: `npm test`'] })),
    ).toBeNull();
    expect(
      mergedCommandFact(
        fact,
        d('fact', '`npx vitest run` runs the tests', {
          facts: ['command: `npx vitest run`', 'one file: `npx vitest run <file>`'],
        }),
      ),
    ).toEqual({
      facts: ['command: `npm test`', 'also: `npx vitest run`', 'one file: `npx vitest run <file>`'],
      narrative: 'In this project, `npm test` runs the tests.',
    });
  });
});
