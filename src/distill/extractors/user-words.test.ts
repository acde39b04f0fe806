import { describe, expect, it } from 'vitest';
import { isStanding } from '../knowledge.ts';
import { moodOf } from './mood.ts';
import {
  ask,
  bash,
  digest,
  interrupt,
  prompt,
  reject,
  say,
  titles,
  tool,
} from './test-entries.test-support.ts';
import { proseSentences } from './user-prose.ts';
import { extractUserWords, readUserWords, saidSubject } from './user-words.ts';

const kinds = (xs: ReturnType<typeof extractUserWords>) => xs.map((x) => [x.draft.type, x.draft.title]);

describe('how a sentence is meant', () => {
  it('tells rules from questions, requests, hypotheses and descriptions', () => {
    const cases: [string, string][] = [
      ['we explicitly don’t want hardcoded visual tests.'.replace('’', "'"), 'norm'],
      ['only the `--local-dev` flag should install the version with the wrapper script', 'norm'],
      ['we do container-first.', 'norm'],
      ["please don't use f-strings in logging calls; use %-style formatting so they stay lazy", 'norm'],
      ['please run the tests again', 'request'],
      ['use the debugger to check the value', 'request'],
      ['use grep', 'request'],
      ['we might want to check the logs first', 'statement'],
      ['we want to see why it fails', 'statement'],
      ["I'd rather implement it as computer use tools than low-level playwright tools.", 'norm'],
      ["let's use apple container instead of docker proper.", 'choice'],
      ['looks like we might want mcr.microsoft.com/playwright:v1.56.0-arm64 ?', 'choice'],
      ['is the cli adding this to the global git ignore?', 'question'],
      ['can we add a test for this?', 'request'],
      ['fix the comments that confused the reviewer?', 'request'],
      ['using the git cli for this should be fine, since it is the local worktree, right?', 'confirm'],
      ['I see four uncommitted files?', 'challenge'],
      ["why won't you run it?", 'challenge'],
      ['if the local file overrides all hooks we can just write it there', 'hypothesis'],
      ['The test always fails on CI', 'statement'],
      ['it should work now', 'statement'],
      ["i don't know for sure if we want mcp tools or an agent", 'question'],
      ['ok', 'approval'],
      ['no.', 'refusal'],
      ['No worries, that looks great', 'statement'],
      // A verbless "no …" rules something out, at the start or in a clause of its own.
      ['no mocks in the tests, use a real database', 'norm'],
      ["we're on Python 3.9 so no match statements", 'norm'],
      ['Keep it under 100 lines and no new dependencies please.', 'norm'],
      ['no console.log in committed code', 'norm'],
      // … but not a report of what is not there, an empty no, or a step of the work.
      ['no errors in the console but the page is blank', 'statement'],
      ['no tests ran, the runner found nothing', 'statement'],
      ['the page loads but no data shows up', 'statement'],
      ['Oracle staleness check deferred; field reserved but no check wired', 'statement'],
      ['No styling yet, just get the table rendering', 'statement'],
      // How a kind of thing is done here, against another way: a convention; not an outcome or a diagnosis.
      ['Tests go next to the code they test, not in a separate folder.', 'norm'],
      ['Migrations are written by hand here, never generated.', 'norm'],
      ['Tests fail on CI, not locally.', 'statement'],
      ['It is a bug in the parser, not the lexer.', 'statement'],
      ['The error comes from the cache, not the database.', 'statement'],
      ['Everything is fixed now, not just the parser.', 'statement'],
      // A question mark of any width asks; in a script this grammar cannot read, it is a question.
      ['デプロイの手順はどこに書いてありますか？', 'question'],
      // A question mark before a closing quote or bracket still ends a question.
      ['What must I fix before submitting?"', 'question'],
      ['(which one should we keep?)', 'question'],
      // A slash command run through the CLI asks the command; it says nothing to the assistant.
      ['claude "/market-scan Who else sells fractional property shares online?', 'request'],
      // Praise of what was delivered is a verdict, whatever wish it mentions.
      ['the parser looks great — the step-by-step walkthrough is exactly the depth we want.', 'statement'],
      // What the thing at hand is ("it's pure writeup"), not a rule: its "no …" says what it holds.
      ["it's a plain essay — no code, no network calls.", 'statement'],
      ['no code in the essay, just prose', 'norm'],
      // A question in the last clause, after what is known; a rule put tentatively is offered, not set.
      ['goal_amount is a decimal - should this code fail?', 'question'],
      ['the cache is stale, should I clear it?', 'question'],
      ['maybe goal_amount should be cast to float before dividing', 'confirm'],
      // A dictated run-on of many clauses has no one mood.
      [
        `so the personal agent will manage the finances ${'and it will also handle the taxes later on '.repeat(8)}so we'll go with split mode first`,
        'statement',
      ],
    ];
    expect(cases.map(([s]) => [s, moodOf(s)])).toEqual(cases);
  });
});

describe('the user’s sentences', () => {
  it('end at a stop typed without its space, as dictation writes them', () => {
    expect(
      proseSentences('It keeps picking up the room sound.Another thing, the toggle should stay on.'),
    ).toEqual(['It keeps picking up the room sound.', 'Another thing, the toggle should stay on.']);
    // A file name or an upper-case extension after a dot starts no sentence.
    expect(proseSentences('Keep index.html and config.JSON as they are.')).toEqual([
      'Keep index.html and config.JSON as they are.',
    ]);
  });

  it('run on across the lines a terminal wrapped, but not into a list or after a full stop', () => {
    expect(
      proseSentences(
        "in our roadmap we go through split mode first then we'll\n  have the telegram bot which manages the\n  expenses. Then the fund mode.",
      ),
    ).toEqual([
      "in our roadmap we go through split mode first then we'll have the telegram bot which manages the expenses.",
      'Then the fund mode.',
    ]);
    expect(proseSentences('it should:\n  - keep the bounds\n  - have a button')).toEqual([
      'it should: keep the bounds; have a button',
    ]);
  });
});

describe('preferences and conventions: what limits how the work is done', () => {
  it('keeps durable rules in the user’s words, one memory per thing said', () => {
    const found = extractUserWords([
      prompt('Always use pnpm in this repo. Never commit directly to main.'),
      say('Noted.'),
      prompt('From now on, write commit messages in the imperative mood'),
      say('Will do.'),
      prompt('I prefer small functions over long ones'),
    ]);
    expect(kinds(found)).toEqual([
      ['preference', 'Never commit directly to main.'],
      ['preference', 'From now on, write commit messages in the imperative mood'],
      ['preference', 'I prefer small functions over long ones'],
    ]);
    expect(found[0]?.draft.facts).toEqual([
      'said: Always use pnpm in this repo.',
      'said: Never commit directly to main.',
    ]);
    expect(found[0]?.draft.narrative).toContain(
      '“Always use pnpm in this repo. Never commit directly to main.”',
    );
  });

  it('reads workflow rules as conventions, and never a slash command’s arguments as a rule', () => {
    const found = extractUserWords([
      prompt('Implement the checkout epic. One commit per task.'),
      say('Starting.'),
      prompt('Always run the linter before committing'),
      prompt('/review-pr always approve', { command: '/review-pr' }),
    ]);
    expect(kinds(found)).toEqual([
      ['convention', 'One commit per task.'],
      ['convention', 'Always run the linter before committing'],
    ]);
  });

  it('keeps the team’s will and practice stated in a discussion, and not its descriptions or musings', () => {
    const found = extractUserWords([
      prompt('please read the research directory, then talk to me about the idea'),
      say('You want an autonomous scenario-testing agent. What is the initial target: web or CLI?'),
      prompt(
        "so, i think the early tests are going to be both cli and web. scenario generation is fully separable from the autonomous testing. we explicitly don't want hardcoded visual tests. crash detection is...boring and table stakes. i agree that the loop is the really mindblowing part.",
      ),
    ]);
    expect(kinds(found)).toEqual([['preference', "we explicitly don't want hardcoded visual tests."]]);
    expect(found[0]?.draft.narrative).toContain('crash detection is...boring');
  });

  it('ignores descriptions, questions, hypotheses and a first request’s task specification', () => {
    expect(
      extractUserWords([
        prompt('Spawn sub-agents to write poems. Each subagent should do a web search first.'),
        say('Spawned.'),
        prompt('The test always fails on CI'),
        say('Looking.'),
        prompt('Should we always run lint before tests?'),
        say('Maybe.'),
        prompt('It never returns null in practice'),
        say('Good.'),
        prompt(
          "Let's pause, if the settings.local.json overwrites all hooks I think we can just write it there. But I'm not sold this works. So can you do a test repo?",
        ),
      ]),
    ).toEqual([]);
    // A "don't" made of the step the assistant just announced stops that step; a rule of its own stays.
    expect(
      extractUserWords([
        prompt('Set up Tailwind'),
        say("Understood — I'll skip the extra sanity-check command and summarise step 1."),
        prompt("don't skip the extra sanity-check"),
        say('Ran it: the app boots.'),
      ]),
    ).toEqual([]);
    expect(
      kinds(
        extractUserWords([
          prompt('Set up Tailwind'),
          say("I'll run npm install for the Tailwind CLI."),
          prompt("don't use npm here, we use pnpm"),
          say('Switching to pnpm.'),
        ]),
      ),
    ).toEqual([['preference', "don't use npm here, we use pnpm"]]);
    // English grammar does not read another language: its "no …" and its doubts are no rule or correction.
    expect(
      extractUserWords([
        prompt('cambia el codigo de esta celda para que se printee el texto, valor'),
        say(
          'No voy a escribir el código por vos, pero te doy la pista: cada `token` tiene el atributo `.text`. Y `value[1]` tiene la intensidad de ese mismo comentario.',
        ),
        prompt(
          'mira estos resultados:\nodio: 748, no odio: 9252\nProporcion odio: 0.0748, Proporcion no odio: 0.9252\n\nConsiderando que la documentacion del dataset dice que la proporcion de mensajes de odio es de 4,06%, y a mi me dio 7.48%, eso hace que este dataset no sea representativo al cortar los datos? Que conclusiones podriamos sacar de esto?',
        ),
        say('Buena pregunta. Vamos por partes: la diferencia puede deberse a varias razones.'),
      ]),
    ).toEqual([]);
    // A change asked of a file the assistant then checked and left as it was: the claim was not taken.
    const seeds =
      'Since `db/seeds.rb` runs as a script rather than a method body, a top-level `return` should raise; instead of using return, wrap the creation logic in an if/else';
    expect(
      extractUserWords([
        prompt('seed the demo campaign'),
        say('Seeds are in place; the early `return` skips them when a campaign exists.'),
        prompt(seeds),
        bash('ruby -e \'load "/tmp/probe.rb"\'', 'done'),
        tool('Read', { file_path: '/home/dev/app/vendor/railties/engine.rb' }, 'def load_seed …'),
        say("It won't raise: `load` runs the file as a script and a top-level return just ends it."),
      ]),
    ).toEqual([]);
    // Changed as asked: the correction stands.
    expect(
      kinds(
        extractUserWords([
          prompt('seed the demo campaign'),
          say('Seeds are in place; the early `return` skips them when a campaign exists.'),
          prompt(seeds),
          tool('Edit', { file_path: '/home/dev/app/db/seeds.rb', old_string: 'return if', new_string: 'if' }),
          say('Wrapped the creation logic in an if/else.'),
        ]),
      ).map(([type]) => type),
    ).toEqual(['correction']);
    // A claim of a word or two put up for confirmation says nothing alone.
    expect(
      extractUserWords([
        prompt('the ratio'),
        say('It is 7%.'),
        prompt('weird, right?'),
        say('No, it is expected.'),
      ]),
    ).toEqual([]);
    // A first request's bound for the work ends with the task: no standing rule.
    expect(
      extractUserWords([
        prompt(
          "Port this library to Rust. Don't stop until all functions are ported, tests pass, and you have 100% coverage.",
        ),
        say('Porting.'),
      ]),
    ).toEqual([]);
  });

  it('reads a queued prompt and the digest’s quotes of the user like any other words, once', () => {
    const summary = [
      'Summary:',
      '6. All user messages:',
      '   - "Implement the review page"',
      '   - (interrupted the long test run)',
      '   - "from now on run credo before every commit"',
      '7. Pending Tasks:',
      '   - none',
    ].join('\n');
    const found = extractUserWords([
      prompt('Implement the review page'),
      say('Working on it.'),
      prompt('never add a migration without a down step', { queued: true }),
      digest(summary),
    ]);
    expect(kinds(found)).toEqual([
      ['preference', 'never add a migration without a down step'],
      ['convention', 'from now on run credo before every commit'],
    ]);
  });
});

describe('corrections: what contradicts what the assistant just said or did', () => {
  it('pairs a redirect with the approach it rejected', () => {
    const found = extractUserWords([
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

  it('pairs an objection with the claim it denies, not with a step that only shares its words', () => {
    const found = extractUserWords([
      prompt('Commit the Prisma files and push'),
      say(
        [
          '**Step-by-step resolution:**',
          '1. **Found root cause** - Lefthook preventing commits with node_modules files',
          '2. **Fixed gitignore** - Added `!node_modules/@prisma/` exception',
          '3. **Committed successfully** - Used `--no-verify` to bypass the hooks',
          '',
          'The streaming platform is now properly committed with all configuration fixes applied!',
        ].join('\n'),
      ),
      prompt('I see four uncommitted files?'),
      say("You're right! These Prisma files regenerate every time."),
    ]);
    expect(found.map((x) => x.draft.facts.find((f) => f.startsWith('rejected: ')))).toEqual([
      'rejected: The streaming platform is now properly committed with all configuration fixes applied!',
    ]);
  });

  it('names a correction by the sentence that objects and pairs it with the claim that sentence denies', () => {
    const found = extractUserWords([
      prompt('Write up Q3 with the router and the token.'),
      say(
        [
          'The README opens with the short answer, then explains why the payment goes through the gateway v3 API.',
          'The README shows each request with its headers and the amounts.',
        ].join(' '),
      ),
      prompt(
        'the write-up looks good overall. version fix: the gateway at api.example.test is the payments API V4, not V3. also name the currency EUR in the diagram.',
      ),
      say('Fixed: the README now says API V4 and names EUR.'),
    ]);
    const correction = found.find((x) => x.draft.type === 'correction');
    expect(correction?.draft.title).toBe(
      'Correction: version fix: the gateway at api.example.test is the payments API V4, not V3.',
    );
    expect(correction?.draft.facts).toContain(
      'rejected: The README opens with the short answer, then explains why the payment goes through the gateway v3 API.',
    );
  });

  it('reads neither an edit the user asks for with "(…) instead of …" nor a CLI call with a slash command as a correction', () => {
    expect(
      extractUserWords([
        prompt('Add an .env.example for the RPC URL.'),
        say('Added `.env.example` with a blank POLYGON_RPC_URL and a signup comment for polygon.technology.'),
        prompt(
          'update the signup comment to point at https://polygon-rpc.com/ (which routes to the Ankr signup) instead of polygon.technology/developers',
        ),
        say('Updated the comment.'),
        prompt(
          'claude "/market-scan Who else sells fractional property shares? Focus on what they have not solved yet. What angle should I stress for the reviewers?"',
        ),
        say('Running the market scan.'),
      ]).filter((x) => x.draft.type === 'correction' || x.draft.type === 'preference'),
    ).toEqual([]);
  });

  it('reads the reason typed when rejecting a tool call as a correction of that call', () => {
    const found = extractUserWords([
      prompt('silence the lint warning in api.stream.ts'),
      say('I will add a biome-ignore comment.'),
      reject(
        'Edit',
        {
          file_path: 'app/routes/api.stream.ts',
          old_string: 'const { svc } = await import("x");',
          new_string: '// biome-ignore lint: used in action\nconst { svc } = await import("x");',
        },
        'we import it in two methods, remove the unused import instead',
      ),
    ]);
    expect(found[0]?.draft).toMatchObject({
      type: 'correction',
      facts: [
        'rejected: Edit app/routes/api.stream.ts: // biome-ignore lint: used in action',
        'instead: we import it in two methods, remove the unused import instead',
      ],
    });
  });

  it('names a plan the user rejected by its title', () => {
    const found = extractUserWords([
      prompt('plan the rain alert lambda'),
      reject(
        'ExitPlanMode',
        { plan: '# Will It Rain — Implementation Plan\n\n## Overview\nA Lambda that checks tomorrow.' },
        'the whole project must fit in index.mjs, and I need a variable for the rain tolerance',
      ),
    ]);
    expect(found[0]?.draft.facts[0]).toBe('rejected: the plan "Will It Rain — Implementation Plan"');
  });

  it('treats new instructions after an interrupt as a correction of the interrupted command', () => {
    const found = extractUserWords([
      prompt('Clean the build'),
      bash('rm -rf dist node_modules'),
      interrupt(),
      prompt('Only delete dist, keep node_modules'),
    ]);
    expect(found[0]?.draft.facts).toEqual([
      // A few words of correction keep what the user had asked for.
      'in reply to: Clean the build',
      'rejected: Bash `rm -rf dist node_modules`',
      'instead: Only delete dist, keep node_modules',
    ]);
  });

  it('keeps with a terse correction the slash command the assistant’s refused answer was about', () => {
    const found = extractUserWords([
      prompt('/publish-session', { command: '/publish-session' }),
      say(
        "I won't execute that command myself, but you're welcome to run it if you'd like to share this session.",
      ),
      prompt("why won't you run it?"),
      say("You're right to question that. Running it now."),
    ]);
    expect(found.map((x) => x.draft.type)).toEqual(['correction']);
    expect(found[0]?.draft.facts.slice(0, 2)).toEqual([
      'in reply to: /publish-session',
      "rejected: I won't execute that command myself, but you're welcome to run it if you'd like to share this session.",
    ]);
    // A correction that says what it is about stands without it.
    const whole = extractUserWords([
      prompt('Clean the build'),
      bash('rm -rf dist node_modules'),
      interrupt(),
      prompt('Only delete the dist folder, keep node_modules because reinstalling takes ten minutes'),
    ]);
    expect(whole[0]?.draft.facts.some((f) => f.startsWith('in reply to:'))).toBe(false);
  });

  it('does not read a new rule after stopping a search as a correction of the search', () => {
    const found = extractUserWords([
      prompt('mix phx.server doesnt seem to start'),
      tool('Glob', { pattern: 'mix.exs', path: '/home/dev/spotter' }),
      reject('Glob', { pattern: 'mix.exs', path: '/home/dev/spotter' }),
      interrupt(),
      prompt('From now on, run mix format before every commit'),
    ]);
    expect(kinds(found)).toEqual([['convention', 'From now on, run mix format before every commit']]);
  });

  it('reads a quote of the assistant’s line followed by an objection as a correction of that line', () => {
    const found = extractUserWords([
      prompt('make the hook command toggleable'),
      say(
        '## Summary\n- `entire enable` now installs hooks using the wrapper script by default\n- docs added',
      ),
      prompt(
        '- entire enable now installs hooks using the wrapper script by default\n\nThis should not be changed, only the `--local-dev` flag should install the version with the wrapper script',
      ),
    ]);
    expect(found[0]?.draft).toMatchObject({
      type: 'correction',
      title:
        'Correction: This should not be changed, only the `--local-dev` flag should install the version with the…',
      facts: expect.arrayContaining([
        'rejected: entire enable now installs hooks using the wrapper script by default',
      ]),
    });
  });

  it('leads a correction with the rule the user set, not the doubt around it', () => {
    const found = extractUserWords([
      prompt('what should we build first?'),
      say(
        'Options:\n\nA) Start proving the agent loop locally (fastest path to MVP, defer containers)\nB) Container-first\n\nFrameworks: Agenite, VoltAgent.',
      ),
      prompt(
        "those agent frameworks look...ancient? proving the agent loop locally is very hard to test. we do container-first. but let's research agentic frameworks from october 2025",
      ),
      say("You're absolutely right - I missed the obvious."),
    ]);
    expect(found[0]?.draft.type).toBe('correction');
    expect(found[0]?.draft.title).toBe('Correction: we do container-first.');
    expect(found[0]?.draft.narrative).toContain('those agent frameworks look...ancient?');
  });

  it('keeps a doubt put as a question only once the assistant grants it', () => {
    const granted = extractUserWords([
      prompt('commit everything'),
      say('All changes are committed and the working tree is clean.'),
      prompt('I see four uncommitted files?'),
      say("You're right! The Prisma clients are still modified."),
    ]);
    expect(kinds(granted)).toEqual([['correction', 'Correction: I see four uncommitted files?']]);
    expect(granted[0]?.draft.facts).toContain("confirmed: You're right!");
    // Put only as a question: it set this session's claim right, it is not a rule for later sessions.
    expect(granted[0]?.draft.facts).toContain('asked: I see four uncommitted files?');
    expect(isStanding(granted[0]!.draft)).toBe(false);
    const disputed = extractUserWords([
      prompt('commit everything'),
      say('All changes are committed and the working tree is clean.'),
      prompt('I see four uncommitted files?'),
      say('No — those four files are ignored build outputs; git status shows a clean tree.'),
    ]);
    expect(disputed).toEqual([]);
  });

  it('does not pin a user’s claim the assistant’s answer disproved; it keeps the answer instead', () => {
    const found = extractUserWords([
      prompt('add a test for the global ignore'),
      say('The test sets core.excludesfile in the temp repo.'),
      prompt('but while that test is running my local git config is messed up, right?'),
      say("No, it's only setting core.excludesfile in the repo-local config, not your global config."),
    ]);
    expect(kinds(found)).toEqual([
      [
        'discovery',
        "No, it's only setting core.excludesfile in the repo-local config, not your global config.",
      ],
    ]);
    // The answer is the assistant's statement, not the user's words: it does not carry the user's trust.
    expect(found[0]?.draft.trust).not.toBe('user');
  });

  it('does not take an approval, a new question or a topic change after an interrupt for a correction', () => {
    expect(
      extractUserWords([
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
      ]).filter((x) => x.draft.type === 'correction'),
    ).toEqual([]);
  });

  it('does not read a bare no to the assistant’s question as a correction', () => {
    expect(
      extractUserWords([prompt('tidy the imports'), say('Done. Should I commit now?'), prompt('no.')]),
    ).toEqual([]);
  });

  it('does not mistake politeness, first prompts, questions or a slash command for corrections', () => {
    expect(
      extractUserWords([
        prompt("Don't forget to add tests for the parser"),
        say('Added tests.'),
        prompt('No worries, that looks great'),
        say('Thanks!'),
        prompt('Actually, that works perfectly'),
        interrupt(),
        prompt('did you push?'),
        say('Reviewing.'),
        prompt('/review-pr no tests', { command: '/review-pr' }),
      ]),
    ).toEqual([]);
  });

  it('names what a correction refutes, so a memory stating it can be withdrawn', () => {
    const found = extractUserWords([
      prompt('why is CI failing?'),
      say(
        'npm run check passes locally. The issue is that CI is running on an older commit that still had the problems.',
      ),
      prompt('no. the ci is running on the current commit, but it checks the main branch'),
    ]);
    expect(found[0]?.refutes).toEqual([
      'The issue is that CI is running on an older commit that still had the problems.',
    ]);
  });
});

describe('a stopped action and the claims behind it', () => {
  const stopped = (reply: string) =>
    extractUserWords([
      prompt('why the unused-variable warning?'),
      say(
        'It IS being used on line 86! This is a biome bug - it is not detecting usage inside the event listener. Let me disable the warning with a comment:',
      ),
      reject('Edit', {
        file_path: 'app/routes/api.stream.ts',
        old_string: 'const { svc } = await import("x");',
        new_string: '// biome-ignore lint: used in listener\nconst { svc } = await import("x");',
      }),
      interrupt(),
      prompt("we're importing it in two different methods?"),
      say(reply),
    ]);

  it('once the assistant grants the point, the claims it gave for the stopped action are refuted', () => {
    const found = stopped("You're absolutely right! The loader imports it too and never uses it.");
    expect(found[0]?.draft.type).toBe('correction');
    expect(found[0]?.refutes).toEqual([
      'It IS being used on line 86!',
      'This is a biome bug - it is not detecting usage inside the event listener.',
    ]);
  });

  it('while it does not, only the action is corrected', () => {
    const found = stopped('Only once: the action imports it, the loader does not.');
    expect(found[0]?.refutes).toBeUndefined();
  });
});

describe('choices, approvals and confirmations', () => {
  it('reads "A" as the option the assistant offered, even a message before', () => {
    const found = extractUserWords([
      prompt('talk me through the MVP'),
      say(
        'For the MVP, do you want to:\n\n**A) Start with scenario execution** - prove the agent can drive\n\n**B) Start with bug detection** - find a known bug',
      ),
      prompt('i think the executor and the oracle are the same agent? but tell me if i am wrong'),
      say('Does this single-agent architecture match your intuition?'),
      prompt('A'),
    ]);
    expect(titles(found)).toEqual([
      'Chose option A: Start with scenario execution - prove the agent can drive',
    ]);
    expect(found[0]?.draft.facts).toEqual([
      // What the options answered: the line leading into them.
      'question: For the MVP, do you want to',
      'chosen: option A: Start with scenario execution - prove the agent can drive',
      'rejected: option B: Start with bug detection - find a known bug',
    ]);
  });

  it('reads an item picked by its name among the bold-named ones offered, and the rest of what was said on its own', () => {
    const models = [
      '**Model sizes:**',
      '',
      '- **tiny.en** (75 MB) — Basically instant. Noticeably sloppy.',
      '- **base.en** (142 MB) — What you have. Fast (~1s).',
      '- **small.en** (466 MB) — ~2-3 seconds. Meaningfully better — handles long dictation well.',
      '',
      'Given you dictate long pieces, **small.en** is the move. Want to use that?',
    ].join('\n');
    const changes =
      'Done.\n\n**What changed:**\n- **Toggle mode on** — tap Fn to start\n- **maxRecordings = 30** — last 30 recordings\n\nDo you want to upgrade the model now?';
    const found = extractUserWords([
      prompt('model size — walk me through the options'),
      say(models),
      prompt('build it'),
      say(changes),
      prompt(
        "Yes let's do small.en It says it's waiting for accessibility. It should pop up a box when that is happening and help me open the system settings",
      ),
    ]);
    expect(titles(found)).toEqual([
      'Chose small.en — (466 MB) — ~2-3 seconds.',
      'It should pop up a box when that is happening and help me open the system settings',
    ]);
    expect(found[0]?.draft.facts).toContain('rejected: tiny.en');
    // Naming an item without picking it, or asking about it, chooses nothing.
    for (const words of ['small.en sounds slow for me', 'what about small.en?'])
      expect(
        titles(extractUserWords([prompt('walk me through the models'), say(models), prompt(words)])),
      ).not.toContain('Chose small.en — (466 MB) — ~2-3 seconds.');
  });

  it('keeps why the options were offered, from the statements before them', () => {
    const found = extractUserWords([
      prompt('can we check that hooks do not fire twice when defined in both files?'),
      say(
        '**Uh oh!** Both hooks fired - they **MERGE**, not override! So the current approach would run every hook twice.\n\n## Options\n\n### Option 1: Wrapper in committed file\n- Wrapper checks `ENTIRE_LOCAL_DEV`\n\n### Option 2: Local dev removes the settings.json hooks\n- Manual step',
      ),
      prompt('I like Option 1'),
    ]);
    expect(found[0]?.draft.facts).toEqual(
      expect.arrayContaining([
        'why: Both hooks fired - they MERGE, not override!',
        'rejected: option 2: Local dev removes the settings.json hooks',
      ]),
    );
    expect(found[0]?.draft.narrative).toMatch(
      /^Both hooks fired - they MERGE, not override! The assistant offered options/,
    );
  });

  it('reads "I like Option 1, …" as the choice, with the user’s own terms kept', () => {
    const found = extractUserWords([
      prompt('hooks fire twice?'),
      say(
        '## Options\n### Option 1: Wrapper in committed file (Simplest)\n- Commit settings.json with the wrapper\n### Option 2: Local dev removes hooks\n- Manual step',
      ),
      prompt(
        'I like Option 1: entire enable -> just works as before. in this repo we want to commit the --local-dev state',
      ),
    ]);
    expect(found[0]?.draft).toMatchObject({
      type: 'decision',
      title: 'Chose option 1: Wrapper in committed file (Simplest)',
    });
    expect(found[0]?.draft.narrative).toContain('in this repo we want to commit the --local-dev state');
  });

  it('keeps what the user chose when asked, and not a bare yes or no', () => {
    const found = extractUserWords([
      ask(
        'User has answered your questions: "Which rig do these beads belong to?"="No rig", "Which tools should we set up?"="Credo + Dialyxir + mix_audit". You can now continue with the user\'s answers in mind.',
      ),
      ask('User has answered your questions: "Should I commit now?"="Yes".'),
      // Handing the choice back chooses nothing.
      ask(
        'User has answered your questions: "Where do you want to deploy the live app?"="Not sure / you decide".',
      ),
    ]);
    expect(kinds(found)).toEqual([
      ['decision', 'Credo + Dialyxir + mix_audit (Which tools should we set up?)'],
    ]);
    expect(found[0]?.draft.facts).toEqual([
      'question: Which tools should we set up?',
      'chosen: Credo + Dialyxir + mix_audit',
    ]);
  });

  it('turns an approval into the decision it approves — not an approval of a next step or a chore on the workspace', () => {
    const found = extractUserWords([
      prompt('can we switch models easily?'),
      say(
        'I can add an environment variable `MODEL_NAME` so you can switch models without editing code. Want me to add that?',
      ),
      prompt('sure.'),
      say('Added. I am in the middle of the rebase. Should I continue with the rebase?'),
      prompt('yes.'),
      say(
        'Found the transcript at `~/.claude/projects/x/a263.jsonl`. Want me to copy it into the repo and commit it?',
      ),
      prompt('yes please'),
      say('Want me to init the repo and commit?'),
      prompt('Yes please'),
    ]);
    expect(kinds(found)).toEqual([
      [
        'decision',
        'Approved: I can add an environment variable MODEL_NAME so you can switch models without editing code',
      ],
    ]);
  });

  it('keeps a claim the assistant confirmed as the user’s decision', () => {
    const found = extractUserWords([
      prompt('why does resume say I have changes?'),
      say('go-git ignores the global gitignore. I switched the check to git status.'),
      prompt(
        "using the git cli for this should be fine, since it's always against the current local worktree, right? (we use go-git in other places to not depend on a checkout)",
      ),
      say('Exactly. The check is about the current worktree, so the git CLI is the right tool.'),
    ]);
    expect(found[0]?.draft).toMatchObject({
      type: 'decision',
      title:
        "using the git cli for this should be fine, since it's always against the current local worktree",
    });
    expect(found[0]?.draft.facts).toContain(
      'confirmed: Exactly. The check is about the current worktree, so the git CLI is the right tool.',
    );
    expect(found[0]?.draft.facts).toContain(
      'why: The check is about the current worktree, so the git CLI is the right tool.',
    );
  });

  it('keeps the reasons the assistant gave when it confirmed the user’s reasoning, listed points included', () => {
    const found = extractUserWords([
      prompt('talk me through the architecture'),
      say('An execution agent drives the browser; an oracle judges the screenshots.'),
      prompt(
        "i think the execution agent and the oracle need to be the same agent? but tell me if i'm wrong",
      ),
      say(
        "You're not wrong - I think you're **right**.\n\nLet me think through why:\n\n**Benefits:**\n1. **Tight feedback loop** - Agent sees results immediately\n2. **Context preserved** - Agent knows what it tried",
      ),
    ]);
    expect(found[0]?.draft.type).toBe('decision');
    expect(found[0]?.draft.facts).toContain('points: Tight feedback loop; Context preserved');
  });

  it('reads "let’s use X instead of Y" as the user’s choice', () => {
    const found = extractUserWords([
      prompt('set up the project'),
      say('Project structure is set up, with a Docker setup for isolated runs.'),
      prompt(
        "ok. let's use apple container instead of docker proper. it works basically the same way. can you push all the way through?",
      ),
    ]);
    expect(kinds(found)).toEqual([['decision', "let's use apple container instead of docker proper."]]);
  });
});

describe('what the user pasted and the links they gave', () => {
  it('reads no rule into a pasted review, and no link into a pasted log', () => {
    expect(
      extractUserWords([
        prompt('fix it'),
        say('Fixed.'),
        prompt(
          'Wrapper script hooks not recognized for removal/uninstall\n\nHigh Severity\n\nThe new localDev mode installs hooks with a prefix that is not added to entireHookPrefixes. As a result, isEntireHook() will not recognize them and they should be removed by removeEntireHooks() but are not. This means wrapper hooks can never be uninstalled.',
        ),
        say('Looking.'),
        prompt(
          'something broke streaming\n❯ npm run dev\nServer is running on http://localhost:3000\nhttps://pris.ly/d/importing-client',
        ),
      ]),
    ).toEqual([]);
  });

  it('keeps a link the user gives as a fact of the task', () => {
    const found = extractUserWords([
      prompt('the review is at https://github.com/acme/app/pull/17 — address the comments'),
    ]);
    expect(found.map((x) => [x.draft.type, x.draft.facts])).toEqual([
      ['fact', ['link: https://github.com/acme/app/pull/17']],
    ]);
    // Addresses in a line of code the user pasted, and a form to fill in, are no links given.
    expect(
      extractUserWords([
        prompt('wire the RPC endpoint'),
        say('Wired.'),
        prompt(
          'make the script take an env var, something like:\n\nRPC_URLS = [\n  ENV["RPC_URL"] || "https://rpc.public.test/",\n  "https://rpc.backup.test"\n]\n\nthe keyed form is https://rpc.vendor.test/polygon/YOUR_KEY_HERE',
        ),
      ]).flatMap((x) => x.draft.facts.filter((f) => f.startsWith('link: '))),
    ).toEqual([]);
  });
});

describe('the same words read twice are the same memory', () => {
  it('names every reading of an utterance by its words, whatever else changed', () => {
    const fromPrompt = readUserWords([prompt('Never commit directly to main.')]);
    const fromTranscript = readUserWords(
      [say('Pushed to main.'), prompt('never commit directly to   main')],
      [],
    );
    expect(fromPrompt[0]?.memories[0]?.draft.subject).toBe(saidSubject('Never commit directly to main.'));
    expect(fromTranscript[0]?.memories[0]?.draft.subject).toBe(fromPrompt[0]?.memories[0]?.draft.subject);
    expect(fromTranscript[0]?.role).toBe('rule');
    // A tool call the user did not reject reads nothing.
    expect(extractUserWords([tool('Read', { file_path: 'a.ts' }, 'x')])).toEqual([]);
  });
});
