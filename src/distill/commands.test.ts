import { describe, expect, it } from 'vitest';
import {
  classifyCommand,
  commitMessage,
  commitOutput,
  errorHeadline,
  outputLooksFailed,
  packagesOf,
  testCounts,
} from './commands.ts';

describe('classifyCommand', () => {
  it.each([
    ['npm test', 'test'],
    ['cd web && npm run test:unit -- --reporter dot 2>&1 | tail -20', 'test'],
    ['npx vitest run src/a.test.ts', 'test'],
    ['pnpm vitest', 'test'],
    ['python -m pytest -x', 'test'],
    ['uv run pytest tests/', 'test'],
    ['go test ./...', 'test'],
    ['cargo test', 'test'],
    ['mix test test/foo_test.exs', 'test'],
    ['mvn -q test', 'test'],
    ['./gradlew test', 'test'],
    ['make test', 'test'],
    ['timeout 60 npm test', 'test'],
    ['CI=1 npm test', 'test'],
    ['bundle exec rspec', 'test'],
    ['npm install && npm test', 'test'],
    ['npx tsc --noEmit', 'typecheck'],
    ['npm run typecheck', 'typecheck'],
    ['npm run lint', 'lint'],
    ['npx eslint .', 'lint'],
    ['npm run build', 'build'],
    ['cargo build --release', 'build'],
    ['make', 'build'],
    ['docker build -t app .', 'build'],
    ['git add -A && git commit -m "x"', 'commit'],
    ['git push -u origin main', 'push'],
    ['npm i -D vitest', 'install'],
    ['npm uninstall lodash', 'uninstall'],
    ['ls -la', 'inspect'],
    ['cat a.txt | grep b', 'inspect'],
    ['git status', 'inspect'],
    ['echo "make sure it works"', 'inspect'],
    ['node migrate.js', 'other'],
  ])('%s → %s', (command, kind) => {
    expect(classifyCommand(command)).toBe(kind);
  });
});

describe('packagesOf', () => {
  it('lists added and removed packages without flags, flag values, files or extras', () => {
    expect(packagesOf('npm i -D vitest@4 @types/node')).toEqual({
      added: ['vitest@4', '@types/node'],
      removed: [],
    });
    expect(packagesOf('pip install -r requirements.txt requests "fastapi[all]"')).toEqual({
      added: ['requests', 'fastapi'],
      removed: [],
    });
    expect(packagesOf('cargo add serde --features derive')).toEqual({ added: ['serde'], removed: [] });
    expect(packagesOf('go get github.com/x/y@v1.2.0')).toEqual({
      added: ['github.com/x/y@v1.2.0'],
      removed: [],
    });
    expect(packagesOf('npm uninstall lodash && npm install')).toEqual({ added: [], removed: ['lodash'] });
    expect(packagesOf('npm test')).toEqual({ added: [], removed: [] });
  });
});

describe('testCounts and outputLooksFailed', () => {
  it.each([
    ['Tests:       1 failed, 20 passed, 21 total', 20, 1],
    [' Test Files  1 failed | 3 passed (4)\n      Tests  2 failed | 40 passed (42)', 40, 2],
    ['test result: ok. 12 passed; 0 failed;\ntest result: FAILED. 3 passed; 1 failed;', 15, 1],
    ['Finished in 0.4 seconds\n87 tests, 0 failures', 87, 0],
    ['10 examples, 2 failures', 8, 2],
    ['==== 3 passed, 1 failed in 0.2s ====', 3, 1],
    ['  12 passing (30ms)\n  1 failing', 12, 1],
    ['# tests 5\n# pass 5\n# fail 0', 5, 0],
    ['Passed!  - Failed:     0, Passed:    12, Skipped:     0', 12, 0],
  ])('%j', (output, passed, failed) => {
    expect(testCounts(output)).toEqual({ passed, failed });
    expect(outputLooksFailed('test', output)).toBe(failed > 0);
  });

  it('reads failure markers when there are no counts', () => {
    expect(outputLooksFailed('test', '--- FAIL: TestParse (0.00s)\nFAIL\tgithub.com/x/y')).toBe(true);
    expect(outputLooksFailed('test', 'ok  \tgithub.com/x/y\t0.01s')).toBe(false);
  });

  it('tells failed builds, typechecks and lints from clean ones', () => {
    expect(
      outputLooksFailed('typecheck', "src/a.ts(3,5): error TS2322: Type 'string' is not assignable"),
    ).toBe(true);
    expect(
      outputLooksFailed('lint', '/src/a.ts\n  3:5  error  x is unused\n\n✖ 1 problem (1 error, 0 warnings)'),
    ).toBe(true);
    expect(
      outputLooksFailed('build', '✓ 31 modules transformed.\ndist/assets/error-page-abc.js  1.2 kB'),
    ).toBe(false);
  });

  it('only suspects other commands when a pipe could hide the exit code', () => {
    const traceback = 'Traceback (most recent call last):\n  File "x.py", line 1\nValueError: bad';
    expect(outputLooksFailed('other', traceback, 'python x.py | tee log')).toBe(true);
    expect(outputLooksFailed('other', traceback, 'python x.py')).toBe(false);
  });
});

describe('errorHeadline', () => {
  it('skips exit codes, npm echo lines and host tags', () => {
    expect(
      errorHeadline('Exit code 2\n> shop@1.0.0 build\n> tsc\n\nsrc/a.ts(3,5): error TS2322: Type string'),
    ).toBe('src/a.ts(3,5): error TS2322: Type string');
    expect(
      errorHeadline('<tool_use_error>String to replace not found in file.\nString: foo</tool_use_error>'),
    ).toBe('String to replace not found in file.');
    expect(errorHeadline('Exit code 1\nFAIL add(2, 3) expected 5, got -1')).toBe(
      'FAIL add(2, 3) expected 5, got -1',
    );
  });
});

describe('commits', () => {
  it('reads the message from -m, heredocs and git output', () => {
    expect(commitMessage('git commit -m "feat: add x" -m "body"')).toBe('feat: add x');
    expect(commitMessage('git commit -m fix-typo')).toBe('fix-typo');
    expect(commitMessage(`git commit -m "$(cat <<'EOF'\nRename getUser\n\nBody\nEOF\n)"`)).toBe(
      'Rename getUser',
    );
    expect(commitMessage('git commit --amend --no-edit')).toBeNull();
    expect(commitOutput('[main (root-commit) abc1234] Initial commit\n 3 files changed')).toEqual({
      branch: 'main',
      hash: 'abc1234',
      subject: 'Initial commit',
    });
  });
});
