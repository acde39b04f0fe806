import { describe, expect, it } from 'vitest';
import { failingTests, nothingTested, testSummary } from './test-summary.ts';

const ESC = '\u001b';

describe("a test run judged by its runner's own summary", () => {
  it.each([
    ['jest', 'Tests:       1 failed, 20 passed, 21 total\nSnapshots:   0 total', 20, 1],
    [
      'vitest',
      ' Test Files  1 failed | 3 passed (4)\n      Tests  2 failed | 40 passed (42)\n   Start at  10:12:03',
      40,
      2,
    ],
    [
      'vitest, coloured',
      `${ESC}[2m      Tests ${ESC}[22m ${ESC}[1m${ESC}[32m14 passed${ESC}[39m${ESC}[22m${ESC}[90m (14)${ESC}[39m`,
      14,
      0,
    ],
    [
      'cargo',
      'test result: ok. 12 passed; 0 failed; 0 ignored\ntest result: FAILED. 3 passed; 1 failed; 0 ignored',
      15,
      1,
    ],
    ['ExUnit', 'Finished in 0.4 seconds (0.1s async, 0.3s sync)\n1 doctest, 87 tests, 0 failures', 88, 0],
    ['RSpec', 'Finished in 1.2 seconds\n10 examples, 2 failures, 1 pending', 8, 2],
    ['pytest', '==== 3 passed, 1 failed, 2 warnings in 0.21s ====', 3, 1],
    ['pytest -q', '....F\n1 failed, 4 passed in 0.12s', 4, 1],
    ['unittest', 'Ran 12 tests in 0.031s\n\nFAILED (failures=1, errors=1)', 10, 2],
    ['mocha', '  12 passing (30ms)\n  1 pending\n  1 failing', 12, 1],
    ['minitest', 'Finished in 0.05s\n12 runs, 30 assertions, 1 failures, 0 errors, 0 skips', 11, 1],
    ['node --test (TAP)', '# tests 5\n# suites 1\n# pass 5\n# fail 0', 5, 0],
    ['node --test (spec)', 'ℹ tests 7\nℹ pass 6\nℹ fail 1', 6, 1],
    ['dotnet', 'Passed!  - Failed:     0, Passed:    12, Skipped:     0, Total:    12', 12, 0],
    ['phpunit', 'OK (12 tests, 30 assertions)', 12, 0],
    ['deno', 'FAILED | 4 passed | 1 failed (1s)', 4, 1],
    ['ctest', '92% tests passed, 1 tests failed out of 12', 11, 1],
    [
      'go test',
      'ok  \tgithub.com/x/y\t0.01s\n--- FAIL: TestParse (0.00s)\n    parse_test.go:12: got 3, want 4\nFAIL\nFAIL\tgithub.com/x/z\t0.02s',
      1,
      1,
    ],
    [
      'go test, cached',
      'ok  \tentire.io/cli/cmd/entire/cli\t2.609s\nok  \tentire.io/cli/cmd/entire/cli/agent\t(cached)',
      2,
      0,
    ],
  ])('%s', (_runner, output, passed, failed) => {
    expect(testSummary(output)).toMatchObject({ passed, failed });
  });

  it('passes a suite whose tests log the word "failed": the summary says how it went', () => {
    const output =
      ' stdout | src/retry.test.ts > retries\nrequest failed, retrying (1/3)\nconnection failed: ECONNRESET\n\n ✓ src/retry.test.ts (3 tests) 40ms\n\n Test Files  1 passed (1)\n      Tests  3 passed (3)';
    expect(testSummary(output)).toMatchObject({ runner: 'vitest', passed: 3, failed: 0 });
    const go =
      '=== RUN   TestRetry\n    retry_test.go:20: attempt 1 failed, retrying\n--- PASS: TestRetry (0.10s)\nPASS\nok  \tgithub.com/x/net\t0.12s';
    expect(testSummary(go)).toMatchObject({ runner: 'go', failed: 0 });
  });

  it('knows a run that tested nothing, and names the tests that failed', () => {
    expect(nothingTested('no tests ran in 0.01s')).toBe(true);
    expect(nothingTested('collected 0 items\n\n=== no tests ran in 0.01s ===')).toBe(true);
    expect(nothingTested('Tests  3 passed (3)')).toBe(false);
    expect(
      failingTests(
        '--- FAIL: TestHasUncommittedChanges (0.04s)\nFAIL\n FAIL  src/a.test.ts > adds numbers\nFAILED tests/test_x.py::test_dates - ValueError: bad',
      ),
    ).toEqual(['TestHasUncommittedChanges', 'src/a.test.ts > adds numbers', 'tests/test_x.py::test_dates']);
  });
});
