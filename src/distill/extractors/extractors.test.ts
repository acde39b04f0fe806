import { describe, expect, it } from 'vitest';
import type { TranscriptEntry } from '../../core/transcript.ts';
import { extractAnswers } from './answers.ts';
import { extractCorrections } from './corrections.ts';
import { extractDecisions } from './decisions.ts';
import { extractPreferences } from './preferences.ts';
import { extractProjectFacts } from './project-facts.ts';

let n = 0;
const prompt = (text: string): TranscriptEntry => ({ kind: 'prompt', uuid: `u${++n}`, at: n, text });
const say = (text: string): TranscriptEntry => ({
  kind: 'assistant_text',
  uuid: `a${++n}`,
  at: n,
  messageId: `m${n}`,
  text,
});
const bash = (command: string, text: string, isError = false): TranscriptEntry => ({
  kind: 'tool_call',
  uuid: `t${++n}`,
  at: n,
  id: `id${n}`,
  name: 'Bash',
  input: { command },
  result: { text, isError, structured: null, uuid: `r${n}` },
  sidechain: false,
});
const interrupt = (): TranscriptEntry => ({ kind: 'interrupt', uuid: `i${++n}`, at: n });
const titles = (xs: { draft: { title: string } }[]) => xs.map((x) => x.draft.title);

describe('decisions', () => {
  it('finds stated choices with their reasons, with provenance', () => {
    const entry = say(
      "I'll go with SQLite's FTS5 because it needs no extra server. We could also try Elasticsearch. Using pnpm instead of npm keeps the lockfile consistent with CI. Let me read the file.",
    );
    const found = extractDecisions([entry]);
    expect(titles(found)).toEqual([
      "I'll go with SQLite's FTS5 because it needs no extra server.",
      'Using pnpm instead of npm keeps the lockfile consistent with CI.',
    ]);
    expect(found[0]).toMatchObject({ uuid: entry.uuid, confidence: 0.8, draft: { type: 'decision' } });
  });

  it('reads "since X, I will Y" as a decision with its reason', () => {
    const found = extractDecisions([
      say('Since the API is rate limited, I will batch the requests in groups of 50.'),
    ]);
    expect(titles(found)).toEqual([
      'Since the API is rate limited, I will batch the requests in groups of 50.',
    ]);
  });

  it('ignores questions, offers and hypotheticals', () => {
    const found = extractDecisions([
      say('Should we use Redis instead of Memcached?'),
      say('If you want, I could switch to Vite because it is faster.'),
      say('We might use a queue rather than polling.'),
      say('The build failed because of a missing import.'),
      say("I'll read the config file next."),
    ]);
    expect(found).toEqual([]);
  });

  it('does not take the narration of a step for a decision', () => {
    expect(
      extractDecisions([
        say(
          'Now also replace `Phoenix.ConnTest.build_conn()` with just `build_conn()` since we imported it.',
        ),
        say('Now also rename `checkPostcode` to `isValidPostcode` since it returns a boolean.'),
        say('Next, I will update the router because the page needs a route.'),
        say('Let me use the existing helper since it already handles retries.'),
      ]),
    ).toEqual([]);
    expect(
      titles(
        extractDecisions([
          say('I will remove the legacy registration since the new subscriber already covers it.'),
        ]),
      ),
    ).toEqual(['I will remove the legacy registration since the new subscriber already covers it.']);
  });
});

describe("the user's choices", () => {
  const ask = (text: string, isError = false): TranscriptEntry => ({
    kind: 'tool_call',
    uuid: `q${++n}`,
    at: n,
    id: `id${n}`,
    name: 'AskUserQuestion',
    input: {},
    result: { text, isError, structured: null, uuid: `r${n}` },
    sidechain: false,
  });
  it('keeps what the user chose when asked, and not a bare yes or no', () => {
    const found = extractAnswers([
      ask(
        'User has answered your questions: "Which rig do these beads belong to?"="No rig", "Which tools should we set up?"="Credo + Dialyxir + mix_audit". You can now continue with the user\'s answers in mind.',
      ),
      ask('User has answered your questions: "Should I commit now?"="Yes".'),
    ]);
    expect(found.map((f) => [f.draft.type, f.draft.title])).toEqual([
      ['decision', 'Credo + Dialyxir + mix_audit (Which tools should we set up?)'],
    ]);
    expect(found[0]?.draft.facts).toEqual([
      'question: Which tools should we set up?',
      'chosen: Credo + Dialyxir + mix_audit',
    ]);
  });
});

describe('corrections', () => {
  it('pairs a redirect with the approach it rejected', () => {
    const found = extractCorrections([
      prompt('Add caching to the user lookup'),
      say('I will add Redis as a cache in front of the database.'),
      prompt("No, don't add Redis; use an in-memory LRU map instead."),
    ]);
    expect(found).toHaveLength(1);
    expect(found[0]?.draft).toMatchObject({
      type: 'correction',
      title: "Correction: No, don't add Redis; use an in-memory LRU map instead.",
      facts: [
        'rejected: I will add Redis as a cache in front of the database.',
        "instead: No, don't add Redis; use an in-memory LRU map instead.",
      ],
    });
  });

  it('treats new instructions after an interrupt as a correction of the interrupted command', () => {
    const found = extractCorrections([
      prompt('Clean the build'),
      bash('rm -rf dist node_modules', ''),
      interrupt(),
      prompt('Only delete dist, keep node_modules'),
    ]);
    expect(found[0]?.draft.facts).toEqual([
      'rejected: Bash rm -rf dist node_modules',
      'instead: Only delete dist, keep node_modules',
    ]);
  });

  it('does not take an approval, a new question or a topic change after an interrupt for a correction', () => {
    expect(
      extractCorrections([
        prompt('Plan the beads for the linting setup'),
        say('Here is the plan for your approval.'),
        interrupt(),
        prompt('create the beads'),
        say('Created spotter-0p7.'),
        prompt('go ahead and create the tickets'),
        bash('tail -5 /tmp/claude/tasks/bae407b.output', 'REFUSED JOIN terminal'),
        interrupt(),
        prompt(
          'scrolling back in xterm.js still does not work (maybe because outer web catches it)? websearch xterm.js tmux interactions',
        ),
        say('Two packages would move: packages/ui and'),
        interrupt(),
        prompt('unrelated: which node version does CI use'),
      ]),
    ).toEqual([]);
  });

  it('does not take a slash command for a correction', () => {
    const command: TranscriptEntry = {
      kind: 'prompt',
      uuid: 'c1',
      at: 1,
      text: '/review-pr no tests',
      command: '/review-pr',
    };
    expect(extractCorrections([prompt('Review it'), say('Reviewing.'), command])).toEqual([]);
  });

  it('does not mistake politeness, first prompts or questions for corrections', () => {
    expect(
      extractCorrections([
        prompt("Don't forget to add tests for the parser"), // first prompt: nothing to correct yet
        say('Added tests.'),
        prompt('No worries, that looks great'),
        say('Thanks!'),
        prompt('Actually, that works perfectly'),
        interrupt(),
        prompt('did you push?'),
      ]),
    ).toEqual([]);
  });
});

describe('preferences', () => {
  it('keeps durable rules about tools, style and workflow', () => {
    expect(
      titles(
        extractPreferences([
          prompt('Always use pnpm in this repo. Never commit directly to main.'),
          prompt('From now on, write commit messages in the imperative mood'),
          prompt('I prefer small functions over long ones'),
        ]),
      ),
    ).toEqual([
      'Always use pnpm in this repo.',
      'Never commit directly to main.',
      'From now on, write commit messages in the imperative mood',
      'I prefer small functions over long ones',
    ]);
  });

  it("reads workflow rules as conventions, and never a slash command's arguments as a rule", () => {
    const found = extractPreferences([
      prompt('Implement the checkout epic. One commit per task.'),
      prompt('Always run the linter before committing'),
      { kind: 'prompt', uuid: 'c2', at: 2, text: '/review-pr always approve', command: '/review-pr' },
    ]);
    expect(found.map((f) => [f.draft.type, f.draft.title])).toEqual([
      ['convention', 'One commit per task.'],
      ['convention', 'Always run the linter before committing'],
    ]);
  });

  it('ignores descriptions and questions that merely contain the words', () => {
    expect(
      extractPreferences([
        prompt('The test always fails on CI'),
        prompt('Should we always run lint before tests?'),
        prompt('It never returns null in practice'),
      ]),
    ).toEqual([]);
  });
});

describe('project facts', () => {
  it("records tool versions printed, named by tool; commands are the command facts' job", () => {
    const found = extractProjectFacts([
      bash('npm test', 'Tests: 12 passed'),
      bash('node --version', 'v20.20.2'),
      bash('psql --version', 'psql (PostgreSQL) 16.4', true),
      bash('ls -la', 'total 0'),
    ]);
    expect(found.map((f) => [f.draft.title, f.draft.subject])).toEqual([
      ['node 20.20.2 in this environment', 'env:version:node'],
    ]);
  });
});
