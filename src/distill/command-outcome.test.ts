import { describe, expect, it } from 'vitest';
import { commandParts } from './canonical-command.ts';
import { judgeParts, predictsFailure, type Exit } from './command-outcome.ts';

const ROOT = '/home/dev/shop';
const judge = (line: string, output: string, exit: Exit, expected = false) =>
  judgeParts(commandParts(line, ROOT), output, exit, expected).map((p) => [p.canonical, p.outcome]);

describe('how each part of a command went', () => {
  it('reads a non-zero exit of a look as its answer, not a failure', () => {
    expect(judge('grep -rn "TODO" src', '', 'failed')).toEqual([['grep -rn TODO src', 'probe']]);
    expect(judge('test -f .env', '', 'failed')).toEqual([['test -f .env', 'probe']]);
    expect(judge('git diff --quiet', '', 'failed')).toEqual([['git diff', 'probe']]);
    expect(judge('ls -la docs/', 'ls: docs/: No such file or directory', 'failed')).toEqual([
      ['ls -la', 'probe'],
    ]);
    expect(judge('git config --global core.excludesfile', '', 'failed')).toEqual([['git config', 'probe']]);
  });

  it('is not a failure when there was nothing to commit, or when a check checked nothing', () => {
    // The commit git printed wins over a later `git status` saying the tree is clean.
    expect(
      judge(
        'git add -A && git commit -m "feat: refs" && git status',
        '[main 99b497c] feat: refs\n 3 files changed\nOn branch main\nnothing to commit, working tree clean',
        'ok',
      ),
    ).toEqual([
      ['git add', 'passed'],
      ['git commit', 'passed'],
      ['git status', 'passed'],
    ]);
    expect(
      judge(
        'git add -A && git commit -m "wip"',
        'On branch main\nnothing to commit, working tree clean',
        'failed',
      ),
    ).toEqual([
      ['git add', 'passed'],
      ['git commit', 'nothing'],
    ]);
    expect(
      judge(
        'npx biome check dist/generated.js',
        'check ━━━━━━━━\n\n  × No files were processed in the specified paths.\n\n  i These paths were provided but ignored:\n  - dist/generated.js',
        'failed',
      ),
    ).toEqual([['npx biome check', 'inconclusive']]);
  });

  it('takes a failure the assistant predicted as expected', () => {
    expect(
      judge('go test ./... -run TestIgnore', '--- FAIL: TestIgnore (0.01s)\nFAIL', 'failed', true),
    ).toEqual([['go test ./...', 'expected']]);
    expect(predictsFailure('Let me revert the fix and verify the new test fails on the old code.')).toBe(
      true,
    );
    expect(predictsFailure('This should fail until the migration runs.')).toBe(true);
    expect(predictsFailure('I expect it to fail with a type error first.')).toBe(true);
    expect(predictsFailure('This should not fail any more.')).toBe(false);
    expect(predictsFailure("Let me check why it fails and what's causing it to fail.")).toBe(false);
    expect(predictsFailure('Now let me run the tests.')).toBe(false);
  });

  it("passes a suite whose tests log the word 'failed', and fails a coloured typecheck", () => {
    expect(
      judge(
        'npm test',
        'request failed, retrying\n Test Files  2 passed (2)\n      Tests  9 passed (9)',
        'ok',
      ),
    ).toEqual([['npm test', 'passed']]);
    expect(
      judge(
        'npx tsc --noEmit 2>&1 | head -20',
        '\u001b[96msrc/a.ts\u001b[0m:\u001b[93m3\u001b[0m:\u001b[93m5\u001b[0m - \u001b[91merror\u001b[0m\u001b[90m TS2322: \u001b[0mType "a" is not assignable to type "b".',
        'ok',
      ),
    ).toEqual([['npx tsc --noEmit', 'failed']]);
    // Piped into `tail`, a linter's status is hidden: its own summary says how it went (Credo's).
    const credo = (found: string) =>
      `Please report incorrect results: https://github.com/rrrene/credo/issues\n\nAnalysis took 0.5 seconds (0.06s to load, 0.4s running 69 checks on 103 files)\n780 mods/funs, ${found}.\n`;
    expect(
      judge('mix credo --strict 2>&1 | tail -20', credo('found 10 software design suggestions'), 'ok'),
    ).toEqual([['mix credo --strict', 'failed']]);
    expect(judge('mix credo --strict 2>&1 | tail -10', credo('found no issues'), 'ok')).toEqual([
      ['mix credo --strict', 'passed'],
    ]);
    expect(judge('bundle exec rubocop | tail -3', '42 files inspected, no offenses detected', 'ok')).toEqual([
      ['bundle exec rubocop', 'passed'],
    ]);
    // Without a pipe the exit status speaks: 0 is a pass, whatever words the output has.
    expect(
      judge('npm run build', '✓ 31 modules transformed.\ndist/assets/error-page.js 1.2 kB', 'ok'),
    ).toEqual([['npm run build', 'passed']]);
  });

  it('finds the part that failed in a chain, and leaves the rest unrun', () => {
    expect(
      judge(
        'mise run fmt && mise run lint',
        '[fmt] $ gofmt -w .\n[lint] $ golangci-lint run ./...\nx_test.go:3:9: os/exec.Command must not be called (noctx)\n1 issues:\n[lint] ERROR task failed',
        'failed',
      ),
    ).toEqual([
      ['mise run fmt', 'passed'],
      ['mise run lint', 'failed'],
    ]);
    expect(
      judge('npm run build && npm test', "src/a.ts(1,1): error TS2304: Cannot find name 'x'.", 'failed'),
    ).toEqual([
      ['npm run build', 'failed'],
      ['npm test', 'not run'],
    ]);
    expect(
      judge(
        'curl -sLo a.zip https://x.dev/a.zip && unzip -q a.zip && cp -r a/vanilla/* web/',
        'cp: a/vanilla/*: No such file or directory',
        'failed',
      ),
    ).toEqual([
      ['curl -sLo a.zip', 'passed'],
      ['unzip a.zip', 'passed'],
      ['cp -r', 'failed'],
    ]);
    expect(
      judge(
        'bash scripts/run.sh --help 2>&1 | head -5',
        'scripts/run.sh: line 16: PROJECT_DIR: unbound variable',
        'ok',
      ),
    ).toEqual([['bash scripts/run.sh --help', 'failed']]);
    // A part that only sets up the shell is quiet when it works: the error printed is the next part's.
    expect(
      judge(
        'source "$HOME/.cargo/env" && npm create tauri-app@latest sticky -- --template vue-ts',
        'Need to install the following packages:\n  create-tauri-app@4.6.2\nerror: IO error: not a terminal: not a terminal\nnpm error code 1',
        'failed',
      ).map(([, outcome]) => outcome),
    ).toEqual(['passed', 'failed']);
    expect(
      judge(
        'conda activate ml && python train.py',
        'Traceback (most recent call last):\n  File "train.py", line 3\nModuleNotFoundError: No module named \'torch\'',
        'failed',
      ).map(([, outcome]) => outcome),
    ).toEqual(['passed', 'failed']);
    // …unless the error names it.
    expect(
      judge(
        'source .venv/bin/activate && pytest',
        'bash: .venv/bin/activate: No such file or directory',
        'failed',
      ).map(([, outcome]) => outcome),
    ).toEqual(['failed', 'not run']);
    expect(judge('npm test', '', 'interrupted')).toEqual([['npm test', 'interrupted']]);
    // A dev server stopped by the host's time limit ran; it did not fail.
    expect(
      judge(
        'npm run dev',
        '  VITE ready in 300 ms\n  Local: http://localhost:5173/\nCommand timed out after 2m 0.0s',
        'failed',
      ),
    ).toEqual([['npm run dev', 'inconclusive']]);
  });
});
