import { describe, expect, it } from 'vitest';
import { errorClass, errorHeadline, hintOf, isErrorCount, tellingLine } from './diagnostics.ts';
import { stripAnsi } from './terminal-output.ts';

const ESC = '\u001b';
/** Biome's diagnostic as a terminal shows it: colours, a hyperlinked rule name, a code frame. */
const BIOME = [
  `${ESC}[1G${ESC}[0K${ESC}[0msrc/lib/parse.ts${ESC}[0m:${ESC}[0m41${ESC}[0m:${ESC}[0m12 ${ESC}]8;;https://biomejs.dev/linter/rules/no-assign-in-expressions${ESC}\\lint/suspicious/noAssignInExpressions${ESC}]8;;${ESC}\\ ━━━━━━━━━━━━━━━━━━━━━━`,
  '',
  `  ${ESC}[1m${ESC}[31m✖${ESC}[0m ${ESC}[31mThe assignment should not be in an expression.${ESC}[0m`,
  '',
  '    40 │   let m: RegExpExecArray | null;',
  '  > 41 │   while ((m = re.exec(text)) !== null) {',
  '       │          ^^^^^^^^^^^^^^^^^',
  '',
  '  ℹ The use of assignments in expressions is confusing.',
  '',
  'Checked 1 file in 3ms. No fixes applied.',
  'Found 1 error.',
].join('\r\n');

describe('the telling line of a failure', () => {
  it('strips ANSI and VT escapes, hyperlinks and carriage-return overwrites', () => {
    expect(
      stripAnsi(`${ESC}[32mok${ESC}[0m\r\n50%\r100% done\n${ESC}]8;;http://x${ESC}\\link${ESC}]8;;${ESC}\\`),
    ).toBe('ok\n100% done\nlink');
  });

  it("reads a linter's diagnostic with its rule and the offending code, errors before warnings", () => {
    expect(tellingLine(BIOME)).toEqual({
      line: 'lint/suspicious/noAssignInExpressions: The assignment should not be in an expression.',
      rule: 'lint/suspicious/noAssignInExpressions',
      file: 'src/lib/parse.ts',
      snippet: 'while ((m = re.exec(text)) !== null) {',
    });
    const warningFirst =
      'src/a.ts:3:7 lint/correctness/noUnusedVariables ━━━━━━\n\n  ! This variable x is unused.\n\nsrc/b.ts format ━━━━━━━━\n\n  × Formatter would have printed the following content:\n';
    expect(tellingLine(warningFirst).line).toBe(
      'format: Formatter would have printed the following content:',
    );
    expect(
      tellingLine(
        '[lint] $ golangci-lint run ./...\ninternal/db/db_test.go:88:9: os/exec.Command must not be called. use os/exec.CommandContext (noctx)\n\tcmd := exec.Command("git", "init")\n1 issues:\n* noctx: 1\n[lint] ERROR task failed',
      ),
    ).toMatchObject({
      line: 'noctx: os/exec.Command must not be called. use os/exec.CommandContext',
      rule: 'noctx',
    });
    expect(
      tellingLine(
        "/app/src/a.ts\n  3:5  error  'x' is assigned a value but never used  no-unused-vars\n\n✖ 1 problem (1 error, 0 warnings)",
      ),
    ).toMatchObject({
      line: "no-unused-vars: 'x' is assigned a value but never used",
      rule: 'no-unused-vars',
    });
  });

  it('reads an Elixir compile error by its message, not the CompileError that follows', () => {
    const out = [
      'Compiling 4 files (.ex)',
      '     error: undefined function get/2 (expected MyAppWeb.PageLiveTest to define such a function or for it to be imported, but none are available)',
      '     │',
      ' 12 │       {:ok, _view, html} = live(conn, "/pages")',
      '     │       ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^',
      '     │',
      '     └─ test/my_app_web/live/page_live_test.exs:12: MyAppWeb.PageLiveTest."test mounts"/1',
      '',
      '** (CompileError) test/my_app_web/live/page_live_test.exs: cannot compile module MyAppWeb.PageLiveTest (errors have been logged)',
    ].join('\n');
    expect(tellingLine(out, 'test')).toMatchObject({
      line: 'undefined function get/2 (expected MyAppWeb.PageLiveTest to define such a function or for it to be imported, but none are available)',
      file: 'test/my_app_web/live/page_live_test.exs',
      snippet: '{:ok, _view, html} = live(conn, "/pages")',
    });
    expect(errorClass(tellingLine(out, 'test'), 'test')).toBe('setup');
  });

  it('reads compiler errors in both tsc formats, coloured or not, past stack traces', () => {
    expect(
      tellingLine("src/a.ts(3,5): error TS2322: Type 'string' is not assignable to type 'number'.").line,
    ).toBe("TS2322: Type 'string' is not assignable to type 'number'.");
    const pretty = `    at run (/repo/node_modules/x/helper.js:315:18)\n${ESC}[96msrc/chart.tsx${ESC}[0m:${ESC}[93m21${ESC}[0m:${ESC}[93m3${ESC}[0m - ${ESC}[91merror${ESC}[0m${ESC}[90m TS2687: ${ESC}[0mAll declarations of 'x' must have identical modifiers.\n\nFound 1 error.`;
    expect(tellingLine(pretty)).toMatchObject({
      line: "TS2687: All declarations of 'x' must have identical modifiers.",
      rule: 'TS2687',
    });
  });

  it('names the failing test and its first error for a test run', () => {
    expect(
      tellingLine(
        ' FAIL  src/cart.test.ts > applies coupons\nAssertionError: expected 90 to be 81\n Tests  1 failed | 20 passed (21)',
        'test',
      ),
    ).toMatchObject({
      line: 'AssertionError: expected 90 to be 81',
      test: 'src/cart.test.ts > applies coupons',
    });
  });

  it.each([
    [
      'RSpec',
      'Failures:\n\n  1) User is valid\n     Failure/Error: expect(user).to be_valid\n       expected #<User id: nil> to be valid, but got errors: Email is invalid\n\nFinished in 0.2 seconds\n1 example, 1 failure\n\nFailed examples:\n\nrspec ./spec/models/user_spec.rb:5 # User is valid',
      'Failure/Error: expect(user).to be_valid',
      'assertion',
    ],
    [
      'minitest',
      'Run options: --seed 1234\n\n# Running:\n\n..F\n\nFailure:\nUserTest#test_valid [test/models/user_test.rb:8]:\nExpected false to be truthy.\n\n3 runs, 3 assertions, 1 failures, 0 errors, 0 skips',
      'UserTest#test_valid [test/models/user_test.rb:8]: Expected false to be truthy.',
      'assertion',
    ],
    [
      'cargo test',
      "running 2 tests\ntest tests::adds ... ok\ntest tests::subs ... FAILED\n\nfailures:\n\n---- tests::subs stdout ----\nthread 'tests::subs' panicked at src/lib.rs:12:5:\nassertion `left == right` failed\n  left: 1\n right: 2\n\ntest result: FAILED. 1 passed; 1 failed; 0 ignored",
      "thread 'tests::subs' panicked at src/lib.rs:12:5: assertion `left == right` failed",
      'assertion',
    ],
    [
      'go test, build failed',
      '# github.com/acme/x\n./a.go:3:2: undefined: foo\nFAIL\tgithub.com/acme/x [build failed]\nFAIL',
      'undefined: foo',
      'compile',
    ],
    [
      'ExUnit',
      '  1) test greets the world (HelloTest)\n     test/hello_test.exs:5\n     Assertion with == failed\n     code:  assert Hello.hello() == :world\n\nFinished in 0.02 seconds (0.00s async, 0.02s sync)\n1 test, 1 failure',
      'Assertion with == failed',
      'assertion',
    ],
    [
      'pytest, an import error',
      "ImportError while importing test module '/srv/app/tests/test_settle.py'.\nE   ModuleNotFoundError: No module named 'freezegun'\n=========================== short test summary info ============================\nERROR tests/test_settle.py\n1 error in 0.12s",
      "ImportError while importing test module '/srv/app/tests/test_settle.py'.",
      'setup',
    ],
    [
      'ExUnit, a raise in the code under test',
      '  1) test renders the page (ShopWeb.PageLiveTest)\n     test/shop_web/live/page_live_test.exs:5\n     ** (RuntimeError) no :secret_key_base configuration found in ShopWeb.Endpoint.\n     stacktrace:\n       (phoenix 1.8.1) lib/phoenix/endpoint.ex:12: Phoenix.Endpoint.config/1\n\nFinished in 0.1 seconds\n1 test, 1 failure',
      'RuntimeError: no :secret_key_base configuration found in ShopWeb.Endpoint.',
      'setup',
    ],
    [
      'ExUnit, a variable the test does not bind',
      '     error: undefined variable "payload"\n     │\n 104 │       assert payload.total == 1\n     │              ^^^^^^^\n     │\n     └─ test/reviews_test.exs:104:14: ReviewsTest."test counts"/1\n\n== Compilation error in file test/reviews_test.exs ==',
      'undefined variable "payload"',
      // The code's own mistake, not a missing import or setting (as `undefined function` is).
      'compile',
    ],
  ])('tells a failed %s run by its first error, and what kind it is', (_runner, output, line, cls) => {
    const t = tellingLine(output, 'test');
    expect(t.line).toBe(line);
    expect(errorClass(t, 'test')).toBe(cls);
  });

  it('skips exit codes, npm echo lines, banners and host tags in a plain error', () => {
    expect(
      errorHeadline('Exit code 2\n> shop@1.0.0 build\n> tsc\n\nsrc/a.ts(3,5): error TS2322: Type string'),
    ).toBe('src/a.ts(3,5): error TS2322: Type string');
    expect(
      errorHeadline('<tool_use_error>String to replace not found in file.\nString: foo</tool_use_error>'),
    ).toBe('String to replace not found in file.');
    expect(
      errorHeadline(
        '╭──────────────────────╮\n│ 🥊 lefthook  hook: pre-commit │\n╰──────────────────────╯\n┃  lint ❯\nThe following paths are ignored by one of your .gitignore files:\nnode_modules\nexit status 1',
      ),
    ).toBe('The following paths are ignored by one of your .gitignore files: node_modules');
  });

  it("reads a shell script's own error by its message, the script as its file", () => {
    const t = tellingLine(
      'Exit code 1\n.claude/scripts/entire-wrapper.sh: line 16: CLAUDE_PROJECT_DIR: unbound variable',
    );
    expect(t.line).toBe('CLAUDE_PROJECT_DIR: unbound variable');
    expect(t.file).toBe('.claude/scripts/entire-wrapper.sh');
    expect(errorClass(t, 'other')).toBe('setup');
  });

  it("reads RuboCop's and mypy's lines, and takes a run that failed on warnings by its first warning", () => {
    const rubocop =
      'Inspecting 12 files\n..C\n\nOffenses:\n\napp/models/user.rb:3:5: C: Style/StringLiterals: Prefer single-quoted strings.\n\n12 files inspected, 1 offense detected';
    expect(tellingLine(rubocop)).toMatchObject({
      line: 'Style/StringLiterals: Prefer single-quoted strings.',
      rule: 'Style/StringLiterals',
    });
    const mypy =
      'src/bill.py:14: error: Incompatible return value type (got "str", expected "int")  [return-value]\nFound 1 error in 1 file (checked 9 source files)';
    const t = tellingLine(mypy);
    expect(t).toMatchObject({ rule: 'return-value' });
    expect(errorClass(t, 'typecheck')).toBe('compile');
  });

  it('classes an error: a wrong result, the setup, a rule, the compiler, a crash', () => {
    expect(errorClass({ line: 'AssertionError: expected 90 to be 81', rule: '' }, 'test')).toBe('assertion');
    expect(errorClass({ line: 'tests/x.py::test_dates: ValueError: bad month', rule: '' }, 'test')).toBe(
      'assertion',
    );
    expect(errorClass({ line: 'ReferenceError: structuredClone is not defined', rule: '' }, 'test')).toBe(
      'setup',
    );
    expect(errorClass({ line: 'connect ECONNREFUSED 127.0.0.1:5432', rule: '' }, 'test')).toBe('setup');
    expect(errorClass({ line: 'noctx: os/exec.Command must not be called', rule: 'noctx' }, 'lint')).toBe(
      'rule',
    );
    expect(errorClass({ line: 'TS2769: No overload matches this call.', rule: 'TS2769' }, 'build')).toBe(
      'compile',
    );
    expect(errorClass({ line: 'panic: runtime error: index out of range', rule: '' }, 'run')).toBe('runtime');
  });

  it('finds the command the output suggests', () => {
    expect(
      hintOf('fatal: no upstream\nTo push the current branch, use\n\n    git push --set-upstream origin x\n'),
    ).toBe('git push --set-upstream origin x');
  });
});

describe('a wrapper’s verdict is not what went wrong', () => {
  it('takes the failing step’s own first error, printed before the build tool’s verdict', () => {
    const docker = [
      ' => CACHED [linux/arm64/v8 2/7] COPY package*.json ./                     0.0s',
      ' => ERROR [linux/arm64 3/7] RUN npm ci                                    158.6s',
      '------',
      ' > [linux/arm64 3/7] RUN npm ci:',
      '158.5 npm error Exit handler never called!',
      '158.5 npm error This is an error with npm itself. Please report this error at:',
      '------',
      'Error: unknown (2): failed to solve: process "/bin/sh -c npm ci" did not complete successfully: exit code: 1',
    ].join('\n');
    expect(errorHeadline(docker)).toBe('npm error Exit handler never called!');
    const make = [
      'gcc -c main.c',
      'main.c:3: fatal error: missing.h: No such file',
      'make: *** [Makefile:4: main.o] Error 1',
    ].join('\n');
    expect(errorHeadline(make)).toBe('main.c:3: fatal error: missing.h: No such file');
    // A verdict with nothing before it stays the headline.
    expect(errorHeadline('Error: Process completed with exit code 2.')).toBe(
      'Error: Process completed with exit code 2.',
    );
  });
});

describe("Elixir's checkers behind a pre-commit script", () => {
  // A pre-commit script that echoes its sections with `\n` written out, around Credo's report and
  // Dialyzer's default format (the warning's name after the place, its message on the next line).
  const HOOK = [
    String.raw`Pre-commit validation failed:\n\n[CREDO]\nChecking 88 source files (this might take a while) ...`,
    '',
    '  Refactoring opportunities',
    '┃ ',
    '┃ [F] → Function is too complex (cyclomatic complexity is 13, max is 9).',
    '┃       lib/app_web/controllers/hooks_controller.ex:144:7 #(AppWeb.HooksController.tool_call)',
    '',
    String.raw`Use ` +
      '`mix credo explain`' +
      String.raw` to explain issues.\n\n[DIALYZER]\nFinding suitable PLTs`,
    'Total errors: 1, Skipped: 0, Unnecessary Skips: 0',
    'lib/app_web/controllers/trace_helpers.ex:57:13:pattern_match',
    'The pattern can never match the type.',
    String.raw`\n\nFix these issues before committing.`,
  ].join('\n');

  it("reads Dialyzer's warning and Credo's issue, not the script's progress lines", () => {
    // Dialyzer's error before Credo's advice.
    expect(tellingLine(HOOK)).toEqual({
      line: 'pattern_match: The pattern can never match the type.',
      rule: 'pattern_match',
      file: 'lib/app_web/controllers/trace_helpers.ex',
      snippet: '',
    });
    const credoOnly = HOOK.split('\n').slice(0, 7).join('\n');
    expect(tellingLine(credoOnly)).toMatchObject({
      line: 'refactor: Function is too complex (cyclomatic complexity is 13, max is 9).',
      rule: 'refactor',
      file: 'lib/app_web/controllers/hooks_controller.ex',
    });
    // `--format short` puts the message on the same line.
    expect(
      tellingLine('lib/app_web/live/sub_live.ex:25:guard_fail The guard clause can never succeed.'),
    ).toMatchObject({ line: 'guard_fail: The guard clause can never succeed.', rule: 'guard_fail' });
  });

  it('takes no linter advice for the failure when the output counts errors it cut off', () => {
    // The host showed the first lines only: Dialyzer's count, not its errors.
    const cut = [...HOOK.split('\n').slice(0, 9), '[Output truncated: showing 30 of 256 lines]'].join('\n');
    const t = tellingLine(cut);
    expect(t.line).toBe('Total errors: 1, Skipped: 0, Unnecessary Skips: 0');
    expect(isErrorCount(t.line)).toBe(true);
    // A count beside the errors it counts: the error.
    expect(isErrorCount(tellingLine(HOOK).line)).toBe(false);
  });

  it('splits lines a script printed as a written-out `\\n`, but not a Windows path', () => {
    const format = String.raw`Pre-commit validation failed:\n\n[FORMAT] Code is not formatted.\nRun 'mix format' to fix.\n\nFix these issues before committing.`;
    expect(errorHeadline(format)).toBe('Pre-commit validation failed: [FORMAT] Code is not formatted.');
    expect(errorHeadline(String.raw`Error: cannot open C:\new\data.txt`)).toBe(
      String.raw`Error: cannot open C:\new\data.txt`,
    );
  });
});
