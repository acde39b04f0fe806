/**
 * Annotations for `gold/01-streaming.md` (the streaming worktree of a React Router / Prisma / Biome app:
 * a CI-only failure, a knip audit, a rebase, an SSE regression, PR #17 and its review rounds). Written
 * from the gold items and the transcript.
 */
import type { SessionAnnotation } from './types.ts';

const CI = /\bci\b/;

export const SESSION_01: SessionAnnotation = {
  goldFile: '01-streaming.md',
  label: '01 streaming',
  sessionId: '0fae0449-64d3-4788-8622-d3a47d82c14b',
  items: [
    {
      id: 'A1-1',
      parts: [
        { core: [[['pull/17', '#17', 'pr 17']]], full: [[['pull/17', '#17', 'pr 17']]] },
        { core: [[['6d0e203']]], full: [[['6d0e203'], ['pushed', 'clean', 'up to date']]] },
        { core: [[['#15', 'pull/15', 'pr 15']]], full: [[['#15', 'pull/15', 'pr 15'], ['merged']]] },
      ],
      ask: [
        'what state is the streaming branch in, which PR is open for it?',
        'is the follow-up streaming PR pushed and is anything left uncommitted?',
      ],
    },
    {
      id: 'A1-2',
      parts: [
        {
          core: [
            [['backpressure', 'pull()']],
            [['type guard']],
            [['no tests', 'test coverage', 'missing test', 'tests for streaming', 'untested']],
          ],
          full: [
            [
              ['backpressure', 'pull()', 'type guard'],
              ['test coverage', 'no tests', 'missing test', 'add tests', 'unit tests', 'tests for'],
              [
                'deferred',
                'open',
                'remaining',
                'future',
                'not addressed',
                'todo',
                'pending',
                'still',
                'review',
              ],
            ],
          ],
        },
      ],
      ask: ['what reviewer feedback on the streaming PR have we not addressed yet?'],
    },
    {
      id: 'A1-3',
      parts: [
        {
          core: [
            [
              ['plan-stream', 'plan stream'],
              ['fetch', 'delegat'],
            ],
            [['service directly', 'streamingservice directly', 'streaming service directly']],
          ],
          full: [
            [
              ['plan-stream', 'plan stream'],
              ['directly', 'createsession'],
              ['fetch', 'delegat'],
              ['streaming error', '{}', 'broke', 'broken', 'empty object', 'sse', 'never reach', 'not reach'],
            ],
          ],
        },
      ],
      ask: [
        'why does the plan-stream route create the stream session itself instead of calling /api/stream?',
      ],
    },
    {
      id: 'A1-4',
      parts: [
        {
          core: [
            [
              ['formatssemessage', 'json.stringify', 'stringif'],
              ['sendtosession', 'raw string', 'content string', 'string directly', 'string content'],
            ],
            [['[object object]', '[object][object]']],
          ],
          full: [
            [
              [
                'raw string',
                'content string',
                'string directly',
                'raw content',
                'string content',
                'send the string',
              ],
              ['json.stringify', 'formatssemessage', 'stringif'],
              ['{ content }', '{content}', '[object', 'object wrapper', 'wrapped in an object', 'wrap'],
            ],
          ],
        },
      ],
      ask: [
        'the reviewer says to send { content } in the SSE message, should we change it?',
        'why does the chat show [object Object] when streaming tokens?',
      ],
    },
    {
      id: 'A1-5',
      parts: [
        {
          core: [
            [
              ['pipeaistreamtosession', 'sse pars', 'parse sse', 'ai-chat.ts'],
              ['buffer', 'chunk boundar', 'blank line', 'double-newline', 'double newline', 'event block'],
            ],
          ],
          full: [
            [
              ['chunk boundar', 'blank line', 'double-newline', 'double newline', 'event block', '\\n\\n'],
              ['stream: true', 'textdecoder', 'buffer'],
            ],
          ],
        },
        {
          core: [[['max_buffer_size', '100kb', '100 kb', 'buffer overflow']]],
          full: [[['max_buffer_size', '100kb', '100 kb'], ['buffer']]],
        },
      ],
      ask: ['how does the ai chat handler parse server-sent events that span several chunks?'],
    },
    {
      id: 'A1-6',
      parts: [
        {
          core: [[['once: true', 'one-shot', 'once:true']], [['abort'], ['listener', 'disconnect']]],
          full: [
            [
              ['once: true', 'one-shot', 'once:true', 'once }'],
              ['.catch', 'catch(', 'without await', 'not await', "don't await", 'no await', 'remove await'],
            ],
          ],
        },
        {
          core: [[['requireuser']]],
          full: [
            [
              ['requireuser'],
              [
                'start',
                'beginning',
                'restore',
                'added back',
                'broke',
                'missing',
                'authentication bug',
                'crash',
              ],
            ],
          ],
        },
        { core: [[['cors', 'access-control']]], full: [[['cors', 'access-control-allow']]] },
      ],
      ask: [
        'what happens to the stream session when the browser disconnects?',
        'where does the plan stream action check that the user is logged in?',
      ],
    },
    {
      id: 'A1-7',
      parts: [
        {
          core: [
            [['merge commit', 'refs/pull', '/merge', 'merged into main', 'merge of']],
            [[CI], ['main'], ['auth.server', 'implicit any', 'noimplicitanylet']],
          ],
          full: [
            [
              ['merge commit', 'refs/pull', '/merge', 'merged into main', 'merges our'],
              ['main'],
              ['lint', 'auth.server', 'implicit any', 'error'],
            ],
          ],
        },
        {
          core: [[['rebase'], ['main']]],
          full: [
            [
              ['rebase'],
              ['origin/main', 'on main', 'onto main'],
              ['force-with-lease', 'force push', 'force-push', 'force pushed'],
            ],
          ],
        },
      ],
      ask: [
        "why does the PR's CI fail when the branch is clean locally?",
        'CI complains about lint errors in files we never touched, what is going on?',
      ],
    },
    {
      id: 'A1-8',
      parts: [
        {
          core: [[['already used by worktree']], [['worktree'], ['checkout main', 'git checkout']]],
          full: [
            [['already used by worktree', 'checkout main'], ['origin/main']],
            [['already used by worktree', 'checkout main'], ['worktree'], ['instead', 'use origin', 'fetch']],
          ],
        },
      ],
      ask: ['how do I switch to main from the streaming worktree?'],
    },
    {
      id: 'A1-9',
      parts: [
        {
          core: [
            [
              ['node_modules/@prisma', '@prisma/main', 'prisma files', 'prisma client', 'prisma generated'],
              ['gitignore', 'tracked', 'commit'],
            ],
          ],
          full: [
            [
              ['!node_modules/@prisma', 'node_modules/@prisma/'],
              ['gitignore'],
              ['lefthook', 'build artifact', 'build-artifact'],
            ],
          ],
        },
        {
          core: [[['biome'], ['prisma']]],
          full: [
            [
              ['biome'],
              [
                'reformat',
                'formatting the',
                'formats the',
                'formatting committed',
                'formatting prisma',
                'formatted the',
              ],
              ['node_modules/**', 'exclude', 'files.includes', 'ignor'],
            ],
          ],
        },
      ],
      ask: [
        'why do the generated prisma client files keep showing up as modified after every check?',
        'are the prisma clients in node_modules supposed to be committed?',
      ],
    },
    {
      id: 'A1-10',
      parts: [
        {
          core: [
            [
              ['knip', 'audit:unused'],
              ['@prisma', 'prisma', 'unlisted'],
            ],
          ],
          full: [[['knip'], ['ignoredependencies'], ['@prisma/main', '@prisma/analytics', 'prisma']]],
        },
        {
          core: [[['file:'], ['package.json', 'dependenc']], [['ignoreunlisteddependencies']]],
          full: [[['file:', 'package.json'], ['npm ci'], ['break', 'broke', 'fail']]],
        },
      ],
      ask: ['knip in CI reports the prisma clients as unlisted dependencies, how did we fix that before?'],
    },
    {
      id: 'A1-11',
      parts: [
        {
          core: [
            [
              [
                'noassigninexpressions',
                'assignment in expression',
                'assign in expression',
                'assignment in an expression',
                'assignment should not be in an expression',
              ],
            ],
          ],
          full: [
            [
              [
                'noassigninexpressions',
                'assignment in expression',
                'assignment in an expression',
                'assignment should not be',
              ],
              ['loop', 'while', 'restructur', 'indexof'],
            ],
          ],
        },
      ],
      ask: ['biome rejects the assignment inside my while condition, how should the loop be written?'],
    },
    {
      id: 'A1-12',
      parts: [
        {
          core: [[['streamingservice'], ['unused']], [['nounusedvariables']]],
          full: [
            [
              ['streamingservice', 'nounusedvariables'],
              ['loader'],
              [
                'unused import',
                'not a biome bug',
                'real unused',
                'two different methods',
                'remove',
                'removed',
              ],
            ],
          ],
        },
      ],
      ask: ['biome says streamingService is unused in api.stream.ts, is that a biome bug we should ignore?'],
    },
    {
      id: 'A1-13',
      parts: [
        {
          core: [[['lefthook']], [['pre-commit', 'pre-push']]],
          full: [[['pre-commit'], ['biome', 'lint', 'format'], ['pre-push'], ['build', 'typecheck']]],
        },
        {
          core: [[['no-verify']]],
          full: [
            [
              ['no-verify'],
              [
                '04ef02a',
                '4bdbf8f',
                'paths are ignored',
                'ignored by one of your',
                'pre-commit',
                'lefthook',
                'hook',
              ],
            ],
          ],
        },
      ],
      ask: [
        'what do the git hooks run on commit and on push?',
        'the pre-commit hook fails on node_modules paths, what did we do last time?',
      ],
    },
    {
      id: 'A1-14',
      parts: [
        {
          core: [[['npm run check']]],
          full: [[['npm run check'], [CI, 'db:generate', 'biome check']]],
        },
        { core: [[['npm run typecheck']]], full: [[['npm run typecheck']]] },
        {
          core: [[['npm run format', 'biome format --write']]],
          full: [[['npm run format', 'biome format --write']]],
        },
      ],
      ask: [
        'which command runs the same checks as CI before I push?',
        'how do I typecheck and format this project?',
      ],
    },
    {
      id: 'A1-15',
      parts: [
        {
          core: [[['server.js', 'localhost:3000', 'instrument.server', 'dev server']]],
          full: [[['server.js'], ['3000', 'instrument.server']]],
        },
        {
          core: [[['ci.yml', 'workflows/ci']], [[CI], ['audit:unused']]],
          full: [
            [
              ['ci.yml', 'workflows/ci', CI],
              ['npm ci', 'node 20', '20.x'],
              ['audit:unused', 'npm run check', 'knip'],
            ],
          ],
        },
      ],
      ask: ['how do I start the dev server locally?', 'what exactly does the CI workflow run?'],
    },
    {
      id: 'A1-16',
      parts: [
        {
          core: [[['four uncommitted', '4 uncommitted', 'uncommitted files']]],
          full: [
            [
              ['uncommitted'],
              [
                'before saying',
                'before claiming',
                'before reporting',
                'check git status',
                'git status before',
                'real git state',
              ],
            ],
          ],
        },
      ],
      ask: ['before I tell Jesse everything is committed, what should I check?'],
    },
    {
      id: 'A1-17',
      parts: [
        {
          core: [[['comment'], ['confus', 'misread', 'misunderst']]],
          full: [
            [
              ['comment'],
              ['confus', 'misread', 'misunderst'],
              [/\buser\b/, 'jesse', 'asked', 'prefer', 'wants'],
            ],
          ],
        },
        {
          core: [[['not db:generate', 'linter/formatter']]],
          full: [
            [
              ['formatter', 'linter', 'biome'],
              ['not db:generate', 'rather than db:generate', 'not the db:generate'],
            ],
          ],
        },
        {
          core: [[['final message']], [['token streaming', 'individual token']]],
          full: [[['final message', 'worked before'], ['token']]],
        },
      ],
      ask: ['a reviewer misunderstood the code in the PR again, how does Jesse want that handled?'],
    },
    {
      id: 'A1-18',
      parts: [
        {
          core: [
            [['rebase'], ['conflict']],
            [['ai.server.ts', 'converttools'], ['conflict']],
          ],
          full: [[['rebase'], ['ai.server.ts', 'converttools'], ['settings.local.json']]],
        },
        {
          core: [[['clientchart', 'chartdata', 'chartoptions', 'duplicate interface']]],
          full: [
            [
              ['clientchart', 'chartdata', 'chartoptions'],
              ['duplicate', 'removed', 'remove'],
            ],
          ],
        },
      ],
      ask: ['what broke when we rebased the streaming branch onto main?'],
    },
  ],
  mustNever: [
    {
      id: 'M1-biome-bug',
      what: 'the streamingService warning called a Biome bug: it was a real unused import in the loader (user: "importing it in two different methods?")',
      all: [['biome bug', 'bug in biome', 'not detecting usage', "doesn't detect usage"]],
      unless: ['not a biome bug', 'not a bug'],
    },
    {
      id: 'M1-ci-older-commit',
      what: 'the assistant\'s guess "CI is running on an older commit", refuted by the user (CI ran the current commit merged into main)',
      all: [[CI], ['older commit', 'old commit']],
      unless: ['not an older', 'not on an older', 'not the old', 'refuted', 'wrong'],
    },
    {
      id: 'M1-ci-main-repo',
      what: 'the guess that CI checks out the main repository instead of the worktree (it checks out the PR merge commit)',
      all: [[CI], ['main repository', 'main repo'], ['worktree']],
      unless: ['merge commit', 'refs/pull'],
    },
    {
      id: 'M1-db-generate-diffs',
      what: 'Prisma files dirty because db:generate regenerates them: refuted by the user ("the linter/formatter, not db:generate"); Biome reformatted them',
      all: [['db:generate'], ['regenerat', 'creates formatting diffs', 'creating new diffs']],
      unless: ['not db:generate', 'biome', 'formatter', 'linter'],
    },
    {
      id: 'M1-biome-check-failing',
      what: '`npx biome check <prisma file>` shown as failing / to fix: its "no files processed" was the wanted proof that Biome ignores the file',
      all: [
        ['npx biome check'],
        ['still failing', 'check` fails', 'check fails', 'fix `npx biome', 'fix npx biome'],
      ],
      unless: ['noassigninexpressions', 'assignment'],
    },
    {
      id: 'M1-rebase-failing',
      what: 'the rebase shown as failing / a next step: it completed ("Successfully rebased") and was force-pushed',
      all: [['rebase'], ['still failing', 'fails:', 'fix `git rebase', 'fix git rebase']],
    },
    {
      id: 'M1-checkout-main-open',
      what: '`git checkout main` shown as an open failure / a next step: the user interrupted it and a PR was made from the branch instead',
      all: [
        ['already used by worktree', 'git checkout'],
        ['still failing', 'fix `git checkout', 'fix git checkout'],
      ],
    },
    {
      id: 'M1-properly-committed',
      what: '"the streaming platform is now properly committed": refuted by the user ("I see four uncommitted files?")',
      all: [
        ['properly committed', 'production ready and committed', 'everything is committed', 'all committed'],
      ],
    },
    {
      id: 'M1-double-serialization',
      what: 'a "double JSON serialization" bug stated as real: the reviewer misread the comment; sending the raw string is correct',
      all: [['double json serialization', 'double serialization']],
      unless: ['confus', 'misread', 'not a bug', 'correct', 'verified'],
    },
    {
      id: 'M1-stringify-content',
      what: 'sending JSON.stringify(content) as the fix: reversed within minutes (formatSSEMessage already stringifies)',
      all: [['json.stringify(content)']],
    },
  ],
};
