import { describe, expect, it } from 'vitest';
import { isStanding } from '../knowledge.ts';
import { isRequirement } from './mood.ts';
import { prompt, say } from './test-entries.test-support.ts';
import { extractUserWords } from './user-words.ts';

const kinds = (xs: ReturnType<typeof extractUserWords>) => xs.map((x) => [x.draft.type, x.draft.title]);

describe('what the user requires of what they are building', () => {
  it('tells a requirement from an expectation, an actor’s instruction, a step, a wish for now and a question', () => {
    const table: [string, boolean][] = [
      ['it should remember lower bounds and upper bounds', true],
      ['the page must load without a network connection', true],
      ['so what we need is a super simple beautiful clean pixel art inspired randomization page', true],
      ["it's important, i need to be able to reason about its randomness", true],
      ['the export should never include draft posts', true],
      ['it should work now', false],
      ['Each subagent should do a web search first.', false],
      ['you should run the tests before committing', false],
      ['I need you to run the tests', false],
      ['I need to see the logs', false],
      ['we need to fix the login bug', false],
      ["i don't think we need a Dockerfile", false],
      ['should it remember the bounds?', false],
      ['run the tests', false],
      ['we merged that PR. we need a new one', false],
    ];
    expect(table.map(([s]) => [s, isRequirement(s)])).toEqual(table);
  });

  it('keeps the requirements of a first request typed line by line as the project’s preference', () => {
    const found = extractUserWords([
      prompt(
        [
          'hi!',
          'this will be a new project',
          'hosted at dice.example.org',
          'so what we need is a super simple clean pixel art dice page',
          'it should',
          '1. remember the lower and upper bounds',
          '2. have a button for ROLL',
          'nothing else for now',
        ].join('\n'),
      ),
      say('Done. Single `index.html` with the bounds in localStorage.'),
    ]);
    expect(kinds(found)).toEqual([
      ['preference', 'what we need is a super simple clean pixel art dice page'],
    ]);
    expect(found[0]?.draft.narrative).toContain('remember the lower and upper bounds');
    // The list under its lead-in is one statement, not a bare "it should".
    expect(found[0]?.draft.facts).toContain(
      'said: it should: remember the lower and upper bounds; have a button for ROLL',
    );
    expect(found[0]?.draft.facts).not.toContain('said: it should');
    expect(found[0]?.draft.trust).toBe('user');
    expect(found[0] && isStanding(found[0].draft)).toBe(true);
  });

  it('keeps a requirement stated beside a doubt, which alone would be no correction', () => {
    const found = extractUserWords([
      prompt('make a page that picks a random number between two bounds'),
      say('Done. It uses Math.random() for the roll and keeps the bounds in localStorage.'),
      prompt(
        "aha, already super beautiful\ncan you add some sfx?\nalso, forgot, is it truly random? it's important, i need to be able to reason about its randomness",
      ),
      say('Good question. Math.random() is a PRNG; I switched to crypto.getRandomValues().'),
    ]);
    expect(kinds(found)).toEqual([
      ['preference', "it's important, i need to be able to reason about its randomness"],
    ]);
  });

  it('is not a question, a thanks, an approval, a one-off instruction or the assistant’s line quoted back', () => {
    expect(
      extractUserWords([
        prompt('make a page that picks a random number between two bounds'),
        say('Done. The page should now keep the bounds between visits. Want me to commit it?'),
        prompt('does it remember the bounds when I reload?'),
        say('Yes, they are kept in localStorage.'),
        prompt('"The page should now keep the bounds between visits" ok nice'),
        say('Yes.'),
        prompt('THANKS!! it works perfectly, even hosted now'),
        say('Glad it works! Want me to init the repo and commit?'),
        prompt('yes please'),
        say('Committed.'),
        prompt('run the tests'),
        say('All 12 tests pass.'),
        prompt(
          "its just super beautiful\ni will host it on render.com now\ni don't think we need a Dockerfile",
        ),
        say('No Dockerfile needed: use a Static Site.'),
      ]),
    ).toEqual([]);
  });
});
