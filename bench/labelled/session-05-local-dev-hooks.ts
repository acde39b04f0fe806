/**
 * Annotations for `gold/05-local-dev-hooks.md` (the entire CLI: `entire enable --local-dev` reworked
 * around a wrapper script, a hook-precedence experiment, a `.env` toggle, review-bot findings; nothing
 * committed). Written from the gold items and the transcript.
 */
import type { SessionAnnotation } from './types.ts';

const command = (...words: string[]) => ({ core: [[words]], full: [[words]] });

export const SESSION_05: SessionAnnotation = {
  goldFile: '05-local-dev-hooks.md',
  label: '05 local-dev hooks',
  sessionId: 'e4599950-b028-44fb-a2d5-ca8caffa2c3d',
  items: [
    {
      id: 'B5-1',
      parts: [
        {
          core: [[['--local-dev', 'localdev'], ['wrapper']]],
          full: [
            [
              ['--local-dev', 'localdev'],
              ['wrapper'],
              ['settings.json', 'installhooks', 'hooks.go'],
              ['direct', 'as before', 'plain', 'default', 'from path'],
            ],
          ],
        },
      ],
      ask: [
        'what hook commands does entire enable --local-dev install now, compared to plain entire enable?',
      ],
    },
    {
      id: 'B5-2',
      parts: [
        {
          core: [[['--local-dev'], ['wrapper']]],
          full: [
            [
              ['entire enable'],
              ['as before', 'direct', 'from path', 'default'],
              ['--local-dev'],
              ['wrapper'],
            ],
          ],
        },
        {
          core: [[['this repo', 'cli repo'], ['commit']]],
          full: [
            [
              ['this repo', 'cli repo'],
              ['commit'],
              ['wrapper', '--local-dev'],
              ['user', 'want', 'decid', 'chose', 'option 1'],
            ],
          ],
        },
      ],
      ask: ['should the committed .claude/settings.json in this repo use the wrapper hooks?'],
    },
    {
      id: 'B5-3',
      parts: [
        {
          core: [
            [
              [
                'should not be chnged',
                'should not be changed',
                'only the --local-dev flag',
                'only --local-dev',
              ],
            ],
            [['default'], ['wrapper'], ['should not', 'correct']],
            [['default entire enable'], ['direct']],
          ],
          full: [[['only'], ['--local-dev'], ['wrapper'], ['user', 'correct', 'should not']]],
        },
      ],
      ask: ['can I make the wrapper script the default for entire enable?'],
    },
    {
      id: 'B5-4',
      parts: [
        {
          core: [[['settings.local.json'], ['merge', 'both fired', 'both hooks fired', 'twice']]],
          full: [
            [
              ['settings.local.json'],
              [
                'merge',
                'both fired',
                'both hooks fired',
                'fire twice',
                'run twice',
                'fires twice',
                'fired twice',
              ],
              ['settings.json'],
            ],
          ],
        },
        {
          core: [[['option 1', 'single settings.json', 'one settings.json', 'no settings.local.json']]],
          full: [
            [
              ['merge', 'twice', 'both fired'],
              [
                'option 1',
                'single settings.json',
                'one settings.json',
                'no settings.local.json',
                'single `settings.json`',
              ],
            ],
          ],
        },
      ],
      ask: [
        'if I define a hook in settings.local.json, does it override the one in settings.json?',
        'why not put the local dev hooks in settings.local.json?',
      ],
    },
    {
      id: 'B5-5',
      parts: [
        {
          core: [[['entire-wrapper.sh', 'wrapper'], ['entire_local_dev']]],
          full: [
            [
              ['entire_local_dev'],
              ['go run'],
              ['from path', 'entire binary', 'otherwise', 'else', 'installed'],
              ['sources .env', 'source .env', 'sourcing .env', '.env if it exists', 'sources the .env'],
            ],
          ],
        },
      ],
      ask: ['what does the entire-wrapper.sh hook script do?'],
    },
    {
      id: 'B5-6',
      parts: [
        {
          core: [[['.env'], ['sourc', 'load']]],
          full: [
            [
              ['.env'],
              ['wrapper'],
              ['sourc'],
              ['uncomment', "doesn't source", "doesn't load", 'not loaded', "won't work", 'not source'],
            ],
          ],
        },
      ],
      ask: ['will putting ENTIRE_LOCAL_DEV in a .env file work for the hooks?'],
    },
    {
      id: 'B5-7',
      parts: [
        {
          core: [[['.env.example']]],
          full: [
            [
              ['.env.example'],
              ['commented out', '# entire_local_dev', 'commented'],
              ['default', 'activates nothing', 'safe', 'nothing', 'no local dev'],
            ],
          ],
        },
      ],
      ask: ['if I copy .env.example to .env, does local dev mode turn on?'],
    },
    {
      id: 'B5-8',
      parts: [
        {
          core: [
            [['entirehookprefixes', 'isentirehook', 'removeentirehooks', 'arehooksinstalled']],
            [['wrapper'], ['uninstall', 'force', 'not recognized', 'not recognised']],
          ],
          full: [
            [
              ['wrapper'],
              ['uninstall', 'force', 'remov'],
              ['entirehookprefixes', 'isentirehook', 'arehooksinstalled', 'prefix'],
            ],
          ],
        },
      ],
      ask: ['does entire disable --uninstall remove the wrapper script hooks?'],
    },
    {
      id: 'B5-9',
      parts: [
        {
          core: [
            [
              [
                'not committed',
                'nothing committed',
                'nothing was committed',
                'not yet committed',
                'uncommitted work',
                'left uncommitted',
              ],
            ],
          ],
          full: [
            [
              [
                'not committed',
                'nothing committed',
                'nothing was committed',
                'not yet committed',
                'uncommitted work',
                'left uncommitted',
              ],
            ],
          ],
        },
        {
          core: [[['no unit test', 'no test', 'not tested', 'untested', 'throwaway', 'mise run test']]],
          full: [
            [
              ['test'],
              ['wrapper', 'prefix', 'hooks.go', 'entirehookprefixes'],
              ['no unit test', 'no test', 'never', 'not run', 'missing', 'throwaway', 'untested'],
            ],
          ],
        },
      ],
      ask: ['is the local-dev wrapper work committed and covered by tests?'],
    },
    {
      id: 'B5-10',
      parts: [
        {
          core: [[['test-hook-duplicate']], [['/tmp/claude-hook-test']]],
          full: [
            [
              ['test-hook-duplicate', '/tmp/claude-hook-test'],
              ['delete', 'remove', 'left', 'leftover', 'clean'],
            ],
          ],
        },
        {
          core: [
            [
              [
                'docs/local-development.md',
                'hook-wrapper-migration',
                'setup-local-dev',
                'docs files',
                'new docs',
              ],
              [
                'user removed',
                'user deleted',
                'removed the new docs',
                'deleted the new docs',
                'were removed',
                'were deleted',
                'i removed',
              ],
            ],
          ],
          full: [
            [
              [
                'docs/local-development.md',
                'hook-wrapper-migration',
                'setup-local-dev',
                'docs files',
                'new docs',
              ],
              [
                'user removed',
                'user deleted',
                'removed the new docs',
                'deleted the new docs',
                'were removed',
                'were deleted',
                'i removed',
              ],
            ],
          ],
        },
      ],
      ask: ['are there leftover test files from the hook experiments that need cleaning up?'],
    },
    {
      id: 'B5-11',
      parts: [
        {
          core: [
            [['unbound variable']],
            [['claude_project_dir'], ['not set', 'unset', 'fallback', 'fall back', 'standalone']],
          ],
          full: [
            [
              ['claude_project_dir'],
              ['unbound', 'not set', 'unset', 'standalone', 'outside'],
              ['dirname', 'bash_source', 'fall back', 'fallback', "script's directory", 'script directory'],
            ],
          ],
        },
      ],
      ask: ['running the wrapper script by hand fails with an unbound variable, why?'],
    },
    {
      id: 'B5-12',
      parts: [command('mise run fmt', 'gofmt'), command('mise run lint', 'golangci-lint')],
      ask: ['how do I format and lint the Go code here?'],
    },
    {
      id: 'B5-13',
      parts: [
        { core: [[['setup.go']]], full: [[['setup.go'], ['enable', 'newenablecmd']]] },
        { core: [[['hooks.go']]], full: [[['hooks.go'], ['install']]] },
      ],
      ask: ['where is the enable command defined and where are the Claude hooks installed?'],
    },
    {
      id: 'B5-14',
      parts: [
        {
          core: [[['.claude/.gitignore']], [['settings.local.json'], ['gitignored', 'is in .gitignore']]],
          full: [
            [['.claude/.gitignore'], ['settings.local.json']],
            [['settings.local.json'], ['gitignored']],
          ],
        },
        { core: [[['.env'], ['gitignored', 'gitignore']]], full: [[['.env'], ['gitignored', 'gitignore']]] },
        {
          core: [[['settings.local.json'], ['permissions']]],
          full: [
            [['settings.local.json'], ['permissions'], ['no hooks', 'only permissions', 'without hooks']],
          ],
        },
      ],
      ask: ['which of the .claude settings files are gitignored?'],
    },
    {
      id: 'B5-15',
      parts: [
        {
          core: [
            [
              ['--version', '--help'],
              ['same output', 'both work', 'cannot tell', "can't tell", 'inconclusive', "doesn't tell"],
            ],
          ],
          full: [
            [
              ['--version', '--help'],
              ['same output', 'both work', 'cannot tell', "can't tell", 'inconclusive', "doesn't tell"],
            ],
          ],
        },
      ],
      ask: ['how can I check which mode the wrapper script actually used?'],
    },
    {
      id: 'B5-16',
      parts: [
        {
          core: [[['high severity', 'medium severity', 'review bot', 'review-bot', 'bugbot']]],
          full: [
            [
              ['severity', 'review'],
              ['pasted', 'prompt', 'one by one', 'finding'],
            ],
          ],
        },
      ],
      ask: ['how do the code review findings reach us in this repo?'],
    },
  ],
  mustNever: [
    {
      id: 'M5-local-overrides',
      what: "settings.local.json overriding settings.json (hooks not running twice): the assistant's claim, refuted by the test the user ran (both hooks fired)",
      all: [
        ['settings.local.json'],
        ['overrides', 'overwrites', 'takes precedence', "don't run twice", 'not run twice'],
      ],
      unless: [
        'merge',
        'both fired',
        'both hooks fired',
        'wrong',
        'refuted',
        'does not override',
        "doesn't override",
        'not override',
      ],
    },
    {
      id: 'M5-hoped-result',
      what: 'the hoped-for result of the hook experiment ("only hook-from-settings-local.txt exists") stored instead of the actual one (both fired)',
      all: [['only'], ['hook-from-settings-local']],
      unless: ['both'],
    },
    {
      id: 'M5-wrapper-default',
      what: "`entire enable` installing the wrapper by default: reversed after the user's correction",
      all: [['entire enable'], ['wrapper'], ['by default']],
      unless: ['should not', 'only the --local-dev', 'only --local-dev', 'reverted', 'correct'],
    },
    {
      id: 'M5-local-dev-writes-local',
      what: '`--local-dev` writing .claude/settings.local.json: the edit was rejected and the approach dropped (hooks merge)',
      all: [['--local-dev'], ['writes', 'creates', 'write', 'installs'], ['settings.local.json']],
      unless: ['merge', 'twice', 'dropped', 'no settings.local.json', 'rejected'],
    },
    {
      id: 'M5-all-tests-pass',
      what: '"All tests pass" for the wrapper-prefix fix: no test suite ran; only a throwaway program in /tmp',
      all: [['all tests pass']],
    },
    {
      id: 'M5-just-cp-env',
      what: '"just cp .env.example .env" to turn on local dev: stale, ENTIRE_LOCAL_DEV was then commented out in .env.example',
      all: [['cp .env.example .env'], ['just', 'already has', "that's it", 'probably easier']],
      unless: ['uncomment'],
    },
    {
      id: 'M5-test-env-failing',
      what: 'the wrapper check with /tmp/test-env/.env shown as failing / to fix: the directory was missing, created on the next command',
      all: [['/tmp/test-env'], ['fail', 'no such file', 'fix `']],
    },
    {
      id: 'M5-rm-glob-failing',
      what: '`rm -f /tmp/hook-from-settings*.txt` shown as a failure with a "fix": zsh found nothing to remove, nothing was wrong',
      all: [['no matches found', 'hook-from-settings*']],
    },
    {
      id: 'M5-mise-fmt-failing',
      what: '`mise run fmt` shown as failing / to fix: it never failed (a tool call the user rejected; in #6 the failure was the lint step)',
      all: [['mise run fmt'], ['fails', 'failed', 'fix `mise run fmt', 'fix mise run fmt', 'still failing']],
      unless: ['noctx', 'golangci'],
    },
    {
      id: 'M5-review-as-correction',
      what: 'a pasted review-bot finding stored as the user correcting the assistant, with the assistant\'s "Excellent! The fix is working" as the rejected approach',
      all: [['severity'], ['rejected approach', 'rejected:']],
      types: ['correction'],
    },
    {
      id: 'M5-settings-json-direct',
      what: 'this repo\'s committed settings.json keeping direct `entire` commands "for everyone" with the wrapper in settings.local.json: reversed (hooks merge; the user chose the wrapper in settings.json)',
      all: [['settings.json'], ['direct'], ['for everyone', 'used by everyone']],
    },
  ],
};
