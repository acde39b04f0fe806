import { describe, expect, it } from 'vitest';
import type { TranscriptEntry } from '../../core/transcript.ts';
import { extractProjectRules, gitHookRuns, mergedGitHookRule } from './project-rules.ts';
import { bash, prompt, say, tool } from './test-entries.test-support.ts';

const ESC = String.fromCharCode(27);
/** A real lefthook pre-commit run (colours kept), as a failing `git commit` prints it. */
const LEFTHOOK = [
  '╭───────────────────────────────────────╮',
  '│ 🥊 lefthook v1.12.3  hook: pre-commit │',
  '╰───────────────────────────────────────╯',
  '┃  biome-fix ❯ ',
  '',
  `${ESC}[34mChecked 4 files in 23ms. No fixes applied.${ESC}[0m`,
  'exit status 1┃  biome-format-check ❯ ',
  '',
  '┃  biome-lint ❯ ',
  '✓ 2613 modules transformed.',
  '  ────────────────────────────────────',
  'summary: (done in 0.99 seconds)       ',
  '✔️ biome-format-check (0.18 seconds)',
  '✔️ biome-lint (0.16 seconds)',
  '🥊 biome-fix (0.34 seconds)',
].join('\n');

describe('rules of the project', () => {
  it('reads the git hook a commit ran, and its checks, from the runner’s own output', () => {
    expect(gitHookRuns(LEFTHOOK)).toEqual([
      {
        hook: 'pre-commit',
        runner: 'lefthook',
        checks: ['biome-fix', 'biome-format-check', 'biome-lint'],
        failed: ['biome-fix'],
      },
    ]);
    expect(
      gitHookRuns(
        'black....................................................................Passed\nruff.....................................................................Failed',
      ),
    ).toEqual([{ hook: 'pre-commit', runner: 'pre-commit', checks: ['black', 'ruff'], failed: ['ruff'] }]);
    expect(gitHookRuns('husky - pre-commit hook exited with code 1 (error)')).toMatchObject([
      { hook: 'pre-commit', runner: 'husky' },
    ]);
    // Output that merely looks alike is no hook run.
    expect(gitHookRuns('✓ built in 48s\n✔ Generated Prisma Client')).toEqual([]);
  });

  it('makes one convention of the git hooks a runner ran, attributed to them, only from commits and pushes', () => {
    const prePush = '│ 🥊 lefthook v1.12.3  hook: pre-push │\n┃  build ❯ \n┃  typecheck ❯ \n';
    const found = extractProjectRules([
      prompt('commit it'),
      bash('git add -A && git commit -m "fix: prisma files"', LEFTHOOK, true),
      bash('cat lefthook-output.txt', LEFTHOOK),
      bash('git push', prePush),
    ]);
    expect(found.map((x) => [x.draft.type, x.draft.title, x.draft.subject])).toEqual([
      [
        'convention',
        'Git hooks (lefthook): pre-commit runs biome-fix, biome-format-check, biome-lint; pre-push runs build, typecheck',
        'rule:git-hooks:lefthook',
      ],
    ]);
    expect(found[0]?.draft.facts).toEqual([
      'source: the git hooks (lefthook)',
      'runner: lefthook',
      'pre-commit: biome-fix, biome-format-check, biome-lint',
      'pre-push: build, typecheck',
    ]);
  });

  it('lists every check a git hook was seen running, across runs', () => {
    const prePush = (job: string) => `│ 🥊 lefthook v1.12.3  hook: pre-push │\n┃  ${job} ❯ \n`;
    const found = extractProjectRules([
      bash('git push', prePush('build'), true),
      bash('git push --force-with-lease', prePush('typecheck')),
    ]);
    expect(found.map((x) => x.draft.title)).toEqual(['Git hooks (lefthook): pre-push runs build, typecheck']);
    // Seen again later (another read): the stored convention grows.
    const stored = found[0]?.draft ?? { facts: [] };
    const later = extractProjectRules([bash('git push', prePush('test'))])[0]?.draft ?? { facts: [] };
    expect(mergedGitHookRule(stored, later)?.title).toBe(
      'Git hooks (lefthook): pre-push runs build, typecheck, test',
    );
    expect(mergedGitHookRule(stored, stored)).toBeNull();
  });

  it('reads a Stop hook that refused to end the turn as a gate of the project, not as the user’s words', () => {
    const feedback: TranscriptEntry = {
      kind: 'hook_feedback',
      uuid: 'h1',
      at: 5,
      event: 'Stop',
      command: '.claude/hooks/require-commit.sh',
      text: 'There are uncommitted changes: commit them before stopping.',
    };
    const found = extractProjectRules([
      prompt('fix the typo'),
      say('Fixed.'),
      feedback,
      { ...feedback, uuid: 'h2' },
    ]);
    expect(found.map((x) => [x.draft.type, x.draft.title])).toEqual([
      ['convention', 'Stop hook: There are uncommitted changes: commit them before stopping.'],
    ]);
    expect(found[0]?.draft.narrative).toContain('`.claude/hooks/require-commit.sh`');
    expect(found[0]?.draft.facts[0]).toBe('source: the Stop hook');
    // A message that opens with headings is titled by the line that states the rule.
    const headed = extractProjectRules([
      {
        ...feedback,
        uuid: 'h3',
        command: '${CLAUDE_PLUGIN_ROOT}/scripts/hooks/stop.sh',
        text: '# Running Quality Checks...\n\n# Uncommitted Changes Detected\n\nCannot exit with unstaged changes, untracked files.\n\n## Untracked Files\n\n- Cargo.lock\n- src/lib.rs',
      },
    ]);
    expect(headed.map((x) => x.draft.title)).toEqual([
      'Stop hook: Cannot exit with unstaged changes, untracked files.',
    ]);
  });

  it('keeps the rules of a CLAUDE.md the assistant read, and a rule it quotes from one', () => {
    const read = tool(
      'Read',
      { file_path: '/w/CLAUDE.md' },
      '     1→# Project\n     2→Some background about the app.\n     3→- Always run `mix format` before committing\n     4→- Never edit files under priv/generated\n     5→- The API lives in lib/api\n     6→- Use `bd` for issue tracking',
    );
    const found = extractProjectRules([
      read,
      say('CLAUDE.md says “never edit files under priv/generated”, so I will change the generator instead.'),
      tool('Read', { file_path: '/w/README.md' }, '- Always be kind'),
    ]);
    expect(found.map((x) => x.draft.title)).toEqual([
      'CLAUDE.md: Always run `mix format` before committing',
      'CLAUDE.md: never edit files under priv/generated',
    ]);
    expect(found[0]?.draft.facts).toEqual([
      'source: /w/CLAUDE.md',
      'rule: Always run `mix format` before committing',
      'rule: Never edit files under priv/generated',
      'rule: Use `bd` for issue tracking',
    ]);
  });

  it('reads a hook that blocked a tool call as a gate', () => {
    const found = extractProjectRules([
      tool(
        'Bash',
        { command: 'git push --force' },
        'PreToolUse:Bash hook error: [./hooks/no-force.sh]: force pushes are not allowed',
        true,
      ),
    ]);
    expect(found.map((x) => x.draft.title)).toEqual([
      'PreToolUse hook blocks Bash: force pushes are not allowed',
    ]);
  });
});
