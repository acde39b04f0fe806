/**
 * Annotations for `gold/06-global-gitignore.md` (the entire CLI: a false "uncommitted changes" on
 * `entire resume` traced to go-git ignoring the global gitignore; the fix, and a test argued with the
 * user). Written from the gold items and the transcript.
 */
import type { SessionAnnotation } from './types.ts';

const command = (...words: string[]) => ({ core: [[words]], full: [[words]] });

export const SESSION_06: SessionAnnotation = {
  goldFile: '06-global-gitignore.md',
  label: '06 global gitignore',
  sessionId: '1c38adc0-5071-4382-9e53-de8c30e2265f',
  items: [
    {
      id: 'B6-1',
      parts: [
        {
          core: [
            [
              ['go-git'],
              [
                'global gitignore',
                'global git ignore',
                '.config/git/ignore',
                'excludesfile',
                'global ignore',
              ],
            ],
            [['uncommitted changes'], ['entire resume', 'clean']],
          ],
          full: [
            [
              ['go-git'],
              [
                'global gitignore',
                'global git ignore',
                '.config/git/ignore',
                'excludesfile',
                'global ignore',
              ],
              ['uncommitted', 'untracked', 'resume'],
            ],
          ],
        },
      ],
      ask: ['entire resume says I have uncommitted changes but git status is clean, why?'],
    },
    {
      id: 'B6-2',
      parts: [
        {
          core: [
            [['hasuncommittedchanges']],
            [['git status --porcelain']],
            [['git cli'], ['go-git'], ['uncommitted']],
          ],
          full: [
            [
              ['hasuncommittedchanges', 'git_operations.go'],
              ['git status --porcelain', 'git cli'],
            ],
          ],
        },
      ],
      ask: ['how does HasUncommittedChanges decide whether the worktree is dirty?'],
    },
    {
      id: 'B6-3',
      parts: [
        {
          core: [
            [['local worktree', 'current worktree']],
            [['go-git'], ['shadow branch', 'in-memory', 'checkpoint']],
          ],
          full: [
            [
              ['git cli'],
              ['worktree'],
              ['go-git'],
              ['shadow', 'in-memory', 'checkpoint', 'without touching', 'checkout'],
            ],
          ],
        },
      ],
      ask: ['should we replace the other go-git calls with the git CLI too?'],
    },
    {
      id: 'B6-4',
      parts: [
        {
          core: [[['testhasuncommittedchanges', 'git_operations_test.go']]],
          full: [
            [
              ['testhasuncommittedchanges', 'git_operations_test.go', 'test'],
              ['excludesfile'],
              ['outside', 'separate', 'tempdir'],
            ],
          ],
        },
      ],
      ask: ['how does the test for the global gitignore bug simulate a global ignore file?'],
    },
    {
      id: 'B6-5',
      parts: [
        {
          core: [
            [
              ['local gitignore', 'local .gitignore'],
              ['already covered', 'already', 'was working', 'fine'],
            ],
          ],
          full: [
            [
              ['local gitignore', 'local .gitignore'],
              ['already covered', 'already', 'was working', 'fine'],
              ['global'],
            ],
          ],
        },
      ],
      ask: ['can the regression test just use a .gitignore in the test repo?'],
    },
    {
      id: 'B6-6',
      parts: [
        {
          core: [[['go-git'], ['core.excludesfile', 'excludesfile']]],
          full: [
            [
              ['go-git'],
              [
                "doesn't respect",
                'does not respect',
                'ignores',
                'not respect',
                "doesn't read",
                'either',
                'does not read',
              ],
              ['excludesfile'],
              ['test is valid', 'test will', 'test would', 'fail if', 'revert', 'regression', 'catch'],
            ],
          ],
        },
      ],
      ask: ['would the new test actually fail if someone switched back to go-git?'],
    },
    {
      id: 'B6-7',
      parts: [
        {
          core: [[['excludesfile'], ['absolute', 'outside', 'untracked itself', 'inside the repo']]],
          full: [[['excludesfile'], ['outside'], ['absolute', 'untracked']]],
        },
      ],
      ask: ['where must the ignore file for core.excludesfile live in the test?'],
    },
    {
      id: 'B6-8',
      parts: [
        {
          core: [[['git stash'], ['test']]],
          full: [[['git stash', 'the stash'], ['test'], ['revert', 'removes', 'removed', 'undid', 'undoes']]],
        },
      ],
      ask: ['how do I check that the new test fails against the old implementation?'],
    },
    {
      id: 'B6-9',
      parts: [
        {
          core: [[['noctx']], [['commandcontext']]],
          full: [[['noctx', 'golangci'], ['commandcontext']]],
        },
      ],
      ask: ['golangci-lint complains about exec.Command in a test, what does it want?'],
    },
    {
      id: 'B6-10',
      parts: [
        command('mise run test', 'go test ./...'),
        {
          core: [[['-run testhasuncommittedchanges', '-run ']]],
          full: [[['mise run test', 'go test'], ['-run ']]],
        },
        {
          core: [[['mise run build']]],
          full: [[['mise run build'], ['rebuild', 'install', 'take effect', 'build the cli']]],
        },
      ],
      ask: [
        'how do I run just one Go test here?',
        'what do I need to do for the fix to reach my installed entire binary?',
      ],
    },
    {
      id: 'B6-11',
      parts: [
        {
          core: [
            [
              [
                'not committed',
                'left uncommitted',
                'changes are uncommitted',
                'uncommitted on main',
                'not yet committed',
                'nothing committed',
              ],
            ],
          ],
          full: [
            [
              [
                'not committed',
                'left uncommitted',
                'changes are uncommitted',
                'uncommitted on main',
                'not yet committed',
                'nothing committed',
              ],
              ['git_operations'],
            ],
          ],
        },
        {
          core: [[['global'], ['cli adding', 'adding this', 'cli adds', 'cli writes', 'who added']]],
          full: [
            [
              ['global'],
              [/\bcli\b/],
              [
                'unanswered',
                'never answered',
                'not answered',
                'open question',
                'no cli code',
                'does not write',
                "doesn't write",
              ],
            ],
          ],
        },
      ],
      ask: ['is the gitignore fix committed yet?', 'does the entire CLI write to my global git ignore?'],
    },
    {
      id: 'B6-12',
      parts: [
        {
          core: [
            [['messed up']],
            [
              ['--global', 'global config', 'global git config'],
              ['only affects', 'temp repo', 'temp test repo', 'repo-local', 'tmpdir'],
            ],
          ],
          full: [
            [
              ['--global', 'global config', 'global git config'],
              [
                'repo-local',
                'temp repo',
                'test repo',
                'only affects',
                'tmpdir',
                't.tempdir',
                "repo's .git/config",
              ],
              ['test'],
              [/\buser\b/, 'asked', 'must not', 'should not', 'never touch', 'messed up', 'worried'],
            ],
          ],
        },
      ],
      ask: ['does running the gitignore test change my global git config?'],
    },
    {
      id: 'B6-13',
      parts: [
        {
          core: [[['970']], [['checkout'], ['deletes untracked']]],
          full: [[['go-git'], ['checkout'], ['untracked'], ['gitcheckout', 'git cli', '970']]],
        },
      ],
      ask: ['why does the gitCheckout test helper shell out to git instead of using go-git?'],
    },
    {
      id: 'B6-14',
      parts: [
        {
          core: [[['cannot find main module']], [['go run'], ['/dev/stdin']]],
          full: [
            [
              ['cannot find main module', '/dev/stdin'],
              ['/tmp/'],
              ['cli module', 'from the cli', 'cli directory', 'go.mod', 'run it from'],
            ],
          ],
        },
      ],
      ask: ['my quick go run script fails with cannot find main module, how did we run those before?'],
    },
  ],
  mustNever: [
    {
      id: 'M6-scratch-commits',
      what: 'commits 6b599e5 / 967fe65 ("init") recorded as the project\'s: they were made in scratch repos under /tmp',
      all: [['6b599e5', '967fe65']],
    },
    {
      id: 'M6-local-gitignore-test',
      what: 'the local-.gitignore test as the regression test: the user rejected it (local ignores already worked) and it was rewritten',
      all: [
        [
          'test creates a `.gitignore`',
          'test creates a .gitignore',
          'test with a local',
          'testing local',
          'catches regressions if someone switches back',
          'catch a regression if someone switched back',
        ],
      ],
      unless: [
        'already covered',
        'rejected',
        'user pushed back',
        'handles local `.gitignore` fine',
        'handles local .gitignore fine',
      ],
    },
    {
      id: 'M6-go-run-open',
      what: 'the ad-hoc `go run /dev/stdin` shown as still failing / a next step: it was redone from /tmp in the cli module and worked',
      all: [
        ['cannot find main module', 'go run'],
        ['still failing', 'fix `go run', 'fix go run'],
      ],
    },
    {
      id: 'M6-gogit-respects-explicit',
      what: "go-git respecting an explicit core.excludesfile: the assistant's guess, refuted by its own standalone check",
      all: [
        ['go-git'],
        [
          'respects core.excludesfile',
          'respects `core.excludesfile`',
          'might actually be respected',
          'respect explicit',
        ],
      ],
      unless: ["doesn't", 'does not', 'not respect', 'ignores', 'either'],
    },
    {
      id: 'M6-verification-rejected',
      what: "a correction saying the user rejected verifying go-git's excludesfile handling: the user paused to restate the cause; the check then ran and confirmed it",
      all: [['rejected'], ['verify go-git', 'excludesfile']],
      types: ['correction'],
    },
    {
      id: 'M6-global-config-touched',
      what: "the test changing the developer's global git config: it writes only the temp repo's .git/config",
      all: [
        ['global git config', 'global config', '~/.gitconfig'],
        ['messed up', 'modifies', 'changes your', 'overwrites'],
      ],
      unless: [/\bnot\b/, "doesn't", 'only', 'without', 'repo-local', 'no,'],
    },
  ],
};
