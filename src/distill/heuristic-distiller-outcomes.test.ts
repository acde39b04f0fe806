/**
 * Outcomes by purpose in one turn: what is a failure and what is not, when it is open, what fixed it,
 * which fixed errors are gotchas, and the commands the project is built and checked with.
 */
import { describe, expect, it } from 'vitest';
import type { CapturedEvent, ObservationDraft, QueuedEvent, SummaryDraft } from '../core/model.ts';
import { analyseTurn, type Narration } from './analyse-turn.ts';
import { errorSignature } from './gotchas.ts';
import { createHeuristicDistiller } from './heuristic-distiller.ts';
import { bash, bashFail, edit, prompt, read, ROOT, stop, turn, write } from './queued-events.test-support.ts';

const distil = (
  events: QueuedEvent[],
  narration: Narration[] = [],
  previousSummary: SummaryDraft | null = null,
) => createHeuristicDistiller().distilTurn({ projectRoot: ROOT, events, previousSummary, narration });
const ofType = (obs: ObservationDraft[], type: string) => obs.filter((o) => o.type === type);
/** What the assistant said right after event i of `turn` (event i happens at 1_700_000_000_000 + i s). */
const said = (afterEvent: number, text: string): Narration => ({
  at: 1_700_000_000_000 + afterEvent * 1000 + 500,
  text,
});
const ESC = '\u001b';

describe('what is not a failure', () => {
  it('never stores a rejected call, a probe, nothing to commit, or a failure the assistant predicted', () => {
    const events = turn(
      prompt('Tidy up and commit'),
      // Claude Code's words when the user rejects a call: the command never ran.
      bashFail(
        'mise run fmt',
        "The user doesn't want to take this action right now. STOP what you are doing and wait for the user to tell you how to proceed.",
      ),
      bashFail('grep -rn "legacyAuth" src', 'Exit code 1'),
      bashFail('ls -la docs/adr', 'Exit code 1\nls: docs/adr: No such file or directory'),
      bashFail('git diff --quiet', 'Exit code 1'),
      bashFail(
        'npx vitest run src/auth.test.ts',
        'Exit code 1\n FAIL  src/auth.test.ts > rejects expired tokens\nAssertionError: expected true to be false\n Tests  1 failed (1)',
      ),
      bashFail(
        'git add -A && git commit -m "chore: tidy"',
        'Exit code 1\nOn branch main\nnothing to commit, working tree clean',
      ),
      stop('Nothing needed committing; the new auth test fails as expected until the expiry check lands.'),
    );
    const r = distil(events, [said(4, 'This new test should fail until the expiry check is written.')]);
    expect(ofType(r.observations, 'failed_attempt')).toEqual([]);
    expect(ofType(r.observations, 'gotcha')).toEqual([]);
    expect(r.summary?.nextSteps).toBe('');
    expect(r.resolutions).toEqual([]);
  });

  it("passes a suite whose tests log 'failed', and keeps a coloured typecheck error as a failure", () => {
    const r = distil(
      turn(
        prompt('Run the checks'),
        bash(
          'npm test 2>&1 | tail -8',
          'stdout | src/retry.test.ts\nrequest failed, retrying (1/3)\n\n Test Files  4 passed (4)\n      Tests  31 passed (31)',
        ),
        bash(
          'npx tsc --noEmit 2>&1 | head -20',
          `${ESC}[96msrc/money.ts${ESC}[0m:${ESC}[93m12${ESC}[0m:${ESC}[93m3${ESC}[0m - ${ESC}[91merror${ESC}[0m${ESC}[90m TS2322: ${ESC}[0mType 'number' is not assignable to type 'Money'.\n\nFound 1 error in src/money.ts${ESC}[90m:12${ESC}[0m`,
        ),
        stop('Tests pass; the typecheck finds one error in src/money.ts.'),
      ),
    );
    expect(ofType(r.observations, 'failed_attempt').map((o) => [o.title, o.subject])).toEqual([
      [
        "`npx tsc --noEmit` fails: TS2322: Type 'number' is not assignable to type 'Money'.",
        'fail:typecheck',
      ],
    ]);
    expect(r.summary?.completed).toMatch(/tests pass \(31 passed\)/);
    expect(r.resolutions?.map((x) => x.key)).toEqual(['purpose:test']);
  });

  it("never takes a commit in a scratch repository for the project's", () => {
    const r = distil(
      turn(
        prompt('Check how git treats a global excludes file'),
        bash(
          'cd /tmp/ignore-probe && git init -q && git add . && git commit -qm init',
          '[main (root-commit) 6b599e5] init\n 1 file changed',
        ),
        stop('A global excludes file is read by git but not by go-git.'),
      ),
    );
    expect(r.observations.flatMap((o) => o.facts).filter((f) => f.startsWith('committed'))).toEqual([]);
    expect(r.observations.map((o) => o.title)).not.toContain('Init');
  });
});

describe('open only while the latest run of that purpose fails', () => {
  it('titles work that made a failing test pass by what it fixed when nothing else says what it did', () => {
    const r = distil(
      turn(
        prompt('but is this the same? the bug was with the global ignore file'),
        bashFail(
          'npm test',
          'Exit code 1\n> shop@1.0.0 test\n> vitest run\n\n FAIL  src/ignore.test.ts > global ignore\nAssertionError: expected true to be false\n Tests  1 failed | 20 passed (21)',
        ),
        edit('src/ignore.test.ts', "  const file = '.ignore';", "  const file = join(tmp, '.ignore');"),
        bash('npm test', ' Test Files  6 passed (6)\n      Tests  21 passed (21)'),
        stop('Let me also check the lint:'),
      ),
    );
    // Not "src/ignore.test.ts: edited (+1 −1 lines)": the test it made pass.
    expect(r.observations[0]).toMatchObject({
      type: 'bugfix',
      title: 'Fixed: AssertionError: expected true to be false',
    });
  });

  it('closes a failure with a differently spelled run of the same purpose, and its fix is what changed in between', () => {
    const cart =
      'export function total(items: Item[]) {\n  return items.reduce((s, i) => s + i.price, 0);\n}\n';
    const r = distil(
      turn(
        prompt('Fix the failing tests'),
        bashFail(
          'npm test',
          'Exit code 1\n> shop@1.0.0 test\n> vitest run\n\n FAIL  src/cart.test.ts > totals\nAssertionError: expected 3 to be 4\n Tests  1 failed | 20 passed (21)',
        ),
        // A "fix" that itself failed is never the fix.
        bashFail('npm run seed', 'Exit code 1\nError: connect ECONNREFUSED 127.0.0.1:5432'),
        edit(
          'src/cart.ts',
          '  return items.reduce((s, i) => s + i.price, 0);',
          '  return items.reduce((s, i) => s + i.price * i.qty, 0);',
          cart,
        ),
        // A single file passing does not close the whole suite's failure…
        bash('npx vitest run src/cart.test.ts', ' Test Files  1 passed (1)\n      Tests  5 passed (5)'),
        // …a whole run does, whatever its spelling.
        bash('CI=1 npx vitest run 2>&1 | tail -3', ' Test Files  6 passed (6)\n      Tests  21 passed (21)'),
        stop('`total` now multiplies by quantity; all 21 tests pass.'),
      ),
    );
    expect(ofType(r.observations, 'failed_attempt')).toEqual([]);
    expect(ofType(r.observations, 'gotcha')).toEqual([]); // the code's own bug, fixed: not a pitfall
    expect(r.observations[0]).toMatchObject({ type: 'bugfix' });
    expect(r.observations[0]?.facts).toContain('fixed: AssertionError: expected 3 to be 4');
    expect(r.summary?.nextSteps).toBe('');
    expect(r.resolutions?.find((x) => x.key === 'purpose:test')).toMatchObject({
      target: '',
      // The line the fix wrote, in the code's own words.
      fix: 'in cart.ts `total`: `return items.reduce((s, i) => s + i.price * i.qty, 0);`',
    });
  });

  it('keeps a whole-suite failure open when only one file passed since, and judges each part of a chain', () => {
    const r = distil(
      turn(
        prompt('Run everything'),
        bashFail(
          'npm run build && npm test',
          'Exit code 1\n> shop@1.0.0 build\n> vite build\n✓ built in 1.2s\n> shop@1.0.0 test\n> vitest run\n FAIL  src/a.test.ts > a\nAssertionError: expected 1 to be 2\n Tests  1 failed | 9 passed (10)',
        ),
        bash('npx vitest run src/b.test.ts', ' Tests  3 passed (3)'),
        stop('The build passes; one test still fails.'),
      ),
    );
    expect(ofType(r.observations, 'failed_attempt').map((o) => o.subject)).toEqual(['fail:test']);
    expect(ofType(r.observations, 'fact').map((o) => o.title)).toEqual([
      '`npm run build` builds the project',
      '`npx vitest run` runs the tests',
    ]);
    expect(r.summary?.nextSteps).toBe('fix `npm test`: AssertionError: expected 1 to be 2');
  });
});

describe('gotchas, whole', () => {
  it("takes no formatter or build for the fix of a linter's rule, though the hook's report names the formatter", () => {
    const registry =
      'defmodule App.Registry do\n  def check(id), do: App.Services.Tmux.pane_exists?(id)\nend\n';
    const events = turn(
      prompt('Commit the registry'),
      bashFail(
        'git commit -m "feat: registry"',
        [
          'Exit code 1',
          String.raw`Pre-commit validation failed:\n\n[FORMAT] Code is not formatted.\nRun 'mix format' to fix.\n\n[CREDO]\nChecking 12 source files ...`,
          '  Software Design',
          '┃ ',
          '┃ [D] ↘ Nested modules could be aliased at the top of the invoking module.',
          '┃       lib/app/registry.ex:2:33 #(App.Registry.check)',
        ].join('\n'),
      ),
      edit(
        'lib/app/registry.ex',
        'defmodule App.Registry do\n  def check(id), do: App.Services.Tmux.pane_exists?(id)',
        'defmodule App.Registry do\n  alias App.Services.Tmux\n  def check(id), do: Tmux.pane_exists?(id)',
        registry,
      ),
      bash('mix format'),
      bash('mix compile', 'Compiling 1 file (.ex)'),
      bash('git commit -m "feat: registry"', '[main 2b3c4d5] feat: registry\n 1 file changed'),
      stop('Committed the registry.'),
    );
    const found = ofType(distil(events).observations, 'gotcha');
    expect(found.map((o) => o.title)).toEqual([
      expect.stringMatching(
        /^`git commit` fails: design: Nested modules could be aliased .* → in registry\.ex\b.*alias App\.Services\.Tmux/,
      ),
    ]);
    // The format and the build run between the edit and the commit tidied and checked it: nothing ran first to it.
    expect(found[0]?.facts.filter((f) => f.startsWith('ran first:'))).toEqual([]);
  });

  it("closes a script's failure when the same script passes run from its own folder, and keeps the folder as the fix", () => {
    const events = turn(
      prompt('Check the JS bundle still builds'),
      bashFail(
        'node assets/build.js 2>&1',
        'Exit code 1\n✘ [ERROR] Could not resolve "js/app.js"\n\n1 error\nError: Build failed with 1 error:\nerror: Could not resolve "js/app.js"',
      ),
      bash(`cd ${ROOT}/assets && node build.js 2>&1`, ''),
      stop('The JS build succeeds.'),
    );
    const r = distil(events);
    expect(ofType(r.observations, 'failed_attempt')).toEqual([]);
    expect(ofType(r.observations, 'gotcha').map((o) => o.title)).toEqual([
      '`node assets/build.js` fails: Build failed with 1 error: error: Could not resolve "js/app.js" → run it from assets: `cd assets && node build.js`',
    ]);
  });

  it('takes the edit that touched what failed as the fix, not a command run beside it, unless the failure named that command', () => {
    const testConfig = 'import Config\n\nconfig :logger, level: :warning\n';
    const mixExs = 'defp deps do\n  [\n    {:phoenix, "~> 1.8"}\n  ]\nend\n';
    const events = turn(
      prompt('Add LiveView tests for the session page'),
      bashFail(
        'mix test',
        'Exit code 2\n  1) test renders the session (ShopWeb.SessionLiveTest)\n     test/shop_web/live/session_live_test.exs:12\n     ** (RuntimeError) no :secret_key_base configuration found in ShopWeb.Endpoint.\n\nFinished in 0.4 seconds\n12 tests, 1 failure',
      ),
      edit(
        'config/test.exs',
        'config :logger, level: :warning',
        'config :logger, level: :warning\n\nconfig :shop, ShopWeb.Endpoint,\n  secret_key_base: String.duplicate("test_secret_key_base_", 4)',
        testConfig,
      ),
      edit(
        'mix.exs',
        '    {:phoenix, "~> 1.8"}',
        '    {:phoenix, "~> 1.8"},\n    {:floki, ">= 0.30.0", only: :test}',
        mixExs,
      ),
      bash('mix deps.get', 'Resolving Hex dependencies...\n* Getting floki (Hex package)'),
      bash('mix test', 'Finished in 0.5 seconds\n12 tests, 0 failures'),
      bashFail(
        'git commit -m "test: session page"',
        String.raw`Exit code 1\nPre-commit validation failed:\n\n[FORMAT] Code is not formatted.\nRun 'mix format' to fix.\n\nFix these issues before committing.`,
      ),
      edit('config/test.exs', '  secret_key_base:', '  server: false,\n  secret_key_base:'),
      bash('mix format'),
      bash('git commit -m "test: session page"', '[main 1a2b3c4] test: session page\n 3 files changed'),
      stop('Committed the session page tests.'),
    );
    const gotchas = ofType(distil(events).observations, 'gotcha').map((o) => o.title);
    expect(gotchas).toEqual([
      expect.stringMatching(
        /^`mix test` fails: RuntimeError: no :secret_key_base configuration found in ShopWeb\.Endp… → in test\.exs\b.*: `config :shop, ShopWeb\.Endpoint,`$/,
      ),
      '`git commit` fails: Pre-commit validation failed: [FORMAT] Code is not formatted. → run `mix format` first',
    ]);
  });

  it("keeps no gotcha for a check's format finding fixed by running the formatter: the commands card says how to format", () => {
    const events = turn(
      prompt('Fix the review comments and make sure the checks pass'),
      edit('app/lib/stream.ts', 'let x = 1', 'let x = 2'),
      bashFail(
        'npm run check',
        'Exit code 1\n> check\n> biome check .\n\napp/lib/stream.ts format ━━━━━━━━━━━━━━━━━━━━\n\n  × Formatter would have printed the following content:\n\n    12 │ - const a = {b:1}\n    12 │ + const a = { b: 1 };\n\nChecked 40 files in 12ms. No fixes applied.\nFound 1 error.',
      ),
      bash('npm run format', '> format\n> biome format --write .\n\nFormatted 1 file in 3ms. Fixed 1 file.'),
      bash('npm run check', '> check\n> biome check .\n\nChecked 40 files in 11ms. No fixes applied.'),
      stop('The checks pass.'),
    );
    const r = distil(events);
    expect(ofType(r.observations, 'gotcha')).toEqual([]);
    expect(ofType(r.observations, 'failed_attempt')).toEqual([]);
    // How to format is kept, as a command of the project.
    const format = r.observations.find((o) => o.subject === 'command:format');
    expect(format?.facts).toContain('command: `npm run format`');
  });

  it('is one pitfall on every branch: a new branch with no upstream, pushed from two sessions', () => {
    const pushOn = (branch: string) => {
      const events = turn(
        prompt('Push the work'),
        bashFail(
          'git push',
          `Exit code 128\nfatal: The current branch ${branch} has no upstream branch.\nTo push the current branch and set the remote as upstream, use\n\n    git push --set-upstream origin ${branch}\n`,
        ),
        bash(
          `git push --set-upstream origin ${branch}`,
          `branch '${branch}' set up to track 'origin/${branch}'.`,
        ),
        stop('Pushed.'),
      );
      return createHeuristicDistiller()
        .distilTurn({ projectRoot: ROOT, events, previousSummary: null, narration: [], branch })
        .observations.find((o) => o.type === 'gotcha');
    };
    const first = pushOn('feature-cart');
    const second = pushOn('fix-7-login');
    expect(first?.title).toBe(
      '`git push` fails: The current branch feature-cart has no upstream branch. → `git push --set-upstream origin feature-cart`',
    );
    expect(second?.title).toContain('fix-7-login');
    // Stored under one subject, the second session's memory replaces the first's.
    expect(second?.subject).toBe(first?.subject);
    // A branch's name is left out as a whole name only.
    expect(
      errorSignature("TS2687: All declarations of 'maintainAspectRatio' must be identical", ['main']),
    ).toBe(errorSignature("TS2687: All declarations of 'maintainAspectRatio' must be identical"));
    expect(errorSignature('Your branch main is behind.', ['main'])).toBe(
      errorSignature('Your branch is behind.'),
    );
  });

  it("keeps a tool's rule that stopped a commit: symptom, the offending code, the cause said, the fix with its file and symbol", () => {
    const parser = 'export function events(buf: string) {\n  const out = [];\n  return out;\n}\n';
    const hook = [
      '╭──────────────────────────────────────╮',
      '│ 🥊 lefthook v1.12.3  hook: pre-commit │',
      '╰──────────────────────────────────────╯',
      '┃  lint ❯ ',
      '',
      `${ESC}[0msrc/sse.ts${ESC}[0m:${ESC}[0m9${ESC}[0m:${ESC}[0m10 ${ESC}]8;;https://biomejs.dev/linter/rules/no-assign-in-expressions${ESC}\\lint/suspicious/noAssignInExpressions${ESC}]8;;${ESC}\\ ━━━━━━━━━━`,
      '',
      `  ${ESC}[31m✖${ESC}[0m The assignment should not be in an expression.`,
      '',
      '  >  9 │   while ((i = buf.indexOf("\\n\\n")) !== -1) {',
      '',
      'Found 1 error.',
      'exit status 1',
    ].join('\r\n');
    const r = distil(
      turn(
        prompt('Parse SSE by event blocks'),
        edit(
          'src/sse.ts',
          '  const out = [];',
          '  const out = [];\n  let i;\n  while ((i = buf.indexOf("\\n\\n")) !== -1) {}',
          parser,
        ),
        bashFail('git add -A && git commit -m "feat: parse SSE event blocks"', `Exit code 1\n${hook}`),
        edit(
          'src/sse.ts',
          '  while ((i = buf.indexOf("\\n\\n")) !== -1) {}',
          '  for (let i = buf.indexOf("\\n\\n"); i !== -1; i = buf.indexOf("\\n\\n")) {}',
          parser.replace(
            '  const out = [];',
            '  const out = [];\n  let i;\n  while ((i = buf.indexOf("\\n\\n")) !== -1) {}',
          ),
        ),
        bash(
          'git add -A && git commit -m "feat: parse SSE event blocks"',
          '[main 9f8e7d6] feat: parse SSE event blocks\n 1 file changed',
        ),
        stop('Committed the event-block parser.'),
      ),
      [said(2, 'Biome does not allow assignments inside expressions, so the loop has to be restructured.')],
    );
    const [gotcha] = ofType(r.observations, 'gotcha');
    expect(gotcha?.title).toBe(
      '`git commit` fails: noAssignInExpressions: The assignment should not be in an expression. → in sse.ts `events`: `for (let i = buf.indexOf("\\n\\n"); i !== -1; i…',
    );
    expect(gotcha?.facts).toEqual([
      'error: lint/suspicious/noAssignInExpressions: The assignment should not be in an expression.',
      'rule: lint/suspicious/noAssignInExpressions',
      'code: `while ((i = buf.indexOf("\\n\\n")) !== -1) {`',
      'cause: Biome does not allow assignments inside expressions, so the loop has to be restructured.',
      // Symptom, cause and the fix in the code's own words: the line it wrote.
      'fix: in sse.ts `events`: `for (let i = buf.indexOf("\\n\\n"); i !== -1; i = buf.indexOf("\\n\\n")) {}`',
      'changed: src/sse.ts (events)',
    ]);
    expect(gotcha?.subject).toBe('gotcha:rule:noassigninexpressions the assignment should not be in an exp');
  });

  it('tells a commit the hook stopped once each: the gotcha the failure and its cause, the work memory the work', () => {
    const parser = 'export function events(buf: string) {\n  const out = [];\n  return out;\n}\n';
    const loop = '  while ((i = buf.indexOf("\\n\\n")) !== -1) {}';
    const r = distil(
      turn(
        prompt('The reviewer says SSE parsing breaks across chunk boundaries. Parse by event blocks.'),
        edit('src/sse.ts', '  const out = [];', `  const out = [];\n  let i;\n${loop}`, parser),
        bashFail(
          'git add -A && git commit -m "fix: parse SSE event blocks across chunk boundaries"',
          'Exit code 1\n│ 🥊 lefthook v1.12.3  hook: pre-commit │\n┃  lint ❯\nsrc/sse.ts:3:10 lint/suspicious/noAssignInExpressions ━━━━━━━━━━\n  ✖ The assignment should not be in an expression.\nFound 1 error.\nexit status 1',
        ),
        edit(
          'src/sse.ts',
          loop,
          '  for (let i = buf.indexOf("\\n\\n"); i !== -1; i = buf.indexOf("\\n\\n")) {}',
          parser.replace('  const out = [];', `  const out = [];\n  let i;\n${loop}`),
        ),
        bash(
          'git add -A && git commit -m "fix: parse SSE event blocks across chunk boundaries"',
          '[main 262f600] fix: parse SSE event blocks across chunk boundaries\n 1 file changed',
        ),
        stop(
          'Committed the event-block parser. The parser now splits on blank lines, so events that span chunks are kept whole.',
        ),
      ),
      [
        said(1, 'Parsing by blank-line delimited event blocks keeps events that span chunks whole.'),
        said(2, 'Biome does not allow assignments inside expressions, so the loop has to be restructured.'),
      ],
    );
    const [gotcha] = ofType(r.observations, 'gotcha');
    const [work] = r.observations.filter((o) => o.type === 'bugfix' || o.type === 'feature');
    expect(gotcha?.facts).toContain(
      'cause: Biome does not allow assignments inside expressions, so the loop has to be restructured.',
    );
    expect(work?.facts).toContain(
      'committed 262f600: fix: parse SSE event blocks across chunk boundaries (on main)',
    );
    expect(work?.narrative).not.toMatch(/Biome does not allow/);
    expect(work?.narrative).toMatch(/span chunks/);
  });

  it('keeps an API whose shape surprised: the fix swapped the imported API', () => {
    const agent =
      "import { tool } from '@langchain/core/tools';\n\nexport function tools() {\n  return [tool(click, { schema: {} })];\n}\n";
    const r = distil(
      turn(
        prompt('Build it'),
        bashFail(
          'npm run build',
          "Exit code 2\n> agent@0.1.0 build\n> tsc\n\nsrc/agent.ts(4,11): error TS2769: No overload matches this call.\n  Argument of type '(input: { x: number }) => Promise<string>' is not assignable to parameter of type 'RunnableFunc<unknown, string>'.",
        ),
        edit(
          'src/agent.ts',
          "import { tool } from '@langchain/core/tools';",
          "import { DynamicStructuredTool } from '@langchain/core/tools';\nimport { z } from 'zod';",
          agent,
        ),
        bash('npm run build 2>&1', '> agent@0.1.0 build\n> tsc\n'),
        stop('The build passes.'),
      ),
    );
    expect(ofType(r.observations, 'gotcha').map((o) => o.title)).toEqual([
      '`npm run build` fails: TS2769: No overload matches this call. → use `DynamicStructuredTool` instead of `tool` (@langchain/core/tools); import `z` from zod in a…',
    ]);
  });

  it('keeps a module that could not be found, fixed by dropping its import: the edit says what was done', () => {
    const test =
      "import { renderHook, act } from '@testing-library/react';\nimport { useTodos } from './useTodos';\n\nexport const demo = () => useTodos;\n";
    const r = distil(
      turn(
        prompt('Check it compiles'),
        bashFail(
          'npx tsc --noEmit --skipLibCheck',
          "Exit code 2\nsrc/hooks/useTodos.test.ts(1,33): error TS2307: Cannot find module '@testing-library/react' or its corresponding type declarations.",
        ),
        edit(
          'src/hooks/useTodos.test.ts',
          "import { renderHook, act } from '@testing-library/react';\nimport { useTodos } from './useTodos';",
          "import { useTodos } from './useTodos';",
          test,
        ),
        bash('npx tsc --noEmit --skipLibCheck', ''),
        stop('It compiles.'),
      ),
      [
        said(
          2,
          'Let me fix the test file by removing the testing library import since it is just for demonstration:',
        ),
      ],
    );
    expect(ofType(r.observations, 'gotcha').map((o) => o.title)).toEqual([
      "`npx tsc --noEmit --skipLibCheck` fails: TS2307: Cannot find module '@testing-library/react' or its correspond… → drop the import from @testing-library/react",
    ]);
  });

  it('keeps a changed flag, and inline code that failed but worked as a file; not a typo or progress on new code', () => {
    const r = distil(
      turn(
        prompt('Probe go-git, then commit'),
        bashFail(
          'cd /home/dev/other && go run /dev/stdin <<EOF\npackage main\nfunc main() {}\nEOF',
          'Exit code 1\ngo: cannot find main module, but found .git/config in /home/dev/other\n\tto create a module there, run:\n\tgo mod init',
        ),
        bash(
          "cat > /tmp/probe.go <<'EOF'\npackage main\nfunc main() {}\nEOF\ngo run /tmp/probe.go",
          'IsClean: false',
        ),
        write('src/new.ts', 'export const x: number = 1;\n'),
        bashFail(
          'npx tsc --noEmit',
          "Exit code 2\nsrc/new.ts(1,14): error TS2322: Type 'string' is not assignable to type 'number'.",
        ),
        edit('src/new.ts', 'x: number', 'x: string'),
        bash('npx tsc --noEmit', ''),
        bashFail('npm run tset', 'Exit code 1\nnpm error Missing script: "tset"'),
        bash('npm run test', ' Tests  3 passed (3)'),
        bashFail(
          'git commit -m "feat: x"',
          'Exit code 1\n╭───╮\n│ husky │\n╰───╯\npre-commit: prettier --check failed\nsrc/new.ts: Code style issues found',
        ),
        bash('git commit --no-verify -m "feat: x"', '[main 1a2b3c4] feat: x'),
        stop('Committed.'),
      ),
      // Words about something else are not the cause.
      [said(9, 'The README still needs an install section, which I will write after this.')],
    );
    expect(ofType(r.observations, 'gotcha').map((o) => o.title)).toEqual([
      // It failed in another folder and worked from the project's: that is part of the fix.
      '`go run` fails: go: cannot find main module, but found .git/config in /home/dev/other → `write it to /tmp/probe.go, then go run /tmp/probe.go`, from the projec…',
      // Skipping the hooks got the commit through; it did not fix what the hook found.
      '`git commit` fails: pre-commit: prettier --check failed → skipped the hooks (`git commit --no-verify`), not fixed',
    ]);
    expect(
      ofType(r.observations, 'gotcha')
        .flatMap((o) => o.facts)
        .filter((f) => f.startsWith('cause:')),
    ).toEqual([]);
    expect(ofType(r.observations, 'gotcha')[0]?.facts).toContain(
      "fix: `write it to /tmp/probe.go, then go run /tmp/probe.go`, from the project's folder (shop), not other",
    );
  });
});

describe('gotchas, whole (2)', () => {
  it('takes the fix from the edit in between, never a sentence that only reports the failure again', () => {
    const chart = [
      'export interface ChartData { labels: string[] }',
      'export interface ChartOptions { maintainAspectRatio: boolean }',
      'interface ChartData { labels: string[] }',
      'interface ChartOptions { maintainAspectRatio?: boolean }',
      'export function Chart() { return null; }',
      '',
    ].join('\n');
    const r = distil(
      turn(
        prompt('push it'),
        bashFail(
          'git push --force-with-lease',
          "Exit code 1\npre-push: typecheck\napp/ui/Chart.tsx(4,35): error TS2687: All declarations of 'maintainAspectRatio' must have identical modifiers.\nerror: failed to push some refs",
        ),
        // Three edits (too many to quote a line): the duplicates go, the exported one gains a field.
        edit('app/ui/Chart.tsx', 'interface ChartData { labels: string[] }\n', '', chart),
        edit('app/ui/Chart.tsx', 'interface ChartOptions { maintainAspectRatio?: boolean }\n', ''),
        edit(
          'app/ui/Chart.tsx',
          'export interface ChartData { labels: string[] }',
          'export interface ChartData { labels: string[]; fill?: boolean }',
        ),
        bash(
          'git push --force-with-lease',
          'To github.com:acme/app.git\n + 1a2b3c4...5d6e7f8 streaming -> streaming (forced update)',
        ),
        stop('Pushed.'),
      ),
      [
        said(
          1,
          'Push failed because the TypeScript check failed - there are type errors in Chart.tsx. The problem is duplicate interfaces in Chart.tsx.',
        ),
      ],
    );
    const [gotcha] = ofType(r.observations, 'gotcha');
    expect(gotcha?.facts.filter((f) => /^(?:cause|fix):/.test(f))).toEqual([
      'cause: The problem is duplicate interfaces in Chart.tsx.',
      'fix: in Chart.tsx: removed `ChartData`, `ChartOptions`',
    ]);
  });
});

describe('gotchas, whole (3)', () => {
  it('keeps both halves of a missing dependency’s fix: the line declared, then the install run', () => {
    const mix = 'defp deps do\n  [\n    {:phoenix_live_view, "~> 1.0"}\n  ]\nend\n';
    const r = distil(
      turn(
        prompt('Add the review page test'),
        bashFail(
          'mix test test/web/review_live_test.exs',
          'Exit code 1\n** (RuntimeError) Phoenix LiveView requires lazy_html as a test dependency.\n    (phoenix_live_view 1.1.0) lib/phoenix_live_view/test/dom.ex:12',
        ),
        edit(
          'mix.exs',
          '    {:phoenix_live_view, "~> 1.0"}',
          '    {:phoenix_live_view, "~> 1.0"},\n    {:lazy_html, ">= 0.1.0", only: :test}',
          mix,
        ),
        bash('mix deps.get', 'Resolving Hex dependencies...\n  lazy_html 0.1.8'),
        bash('mix test test/web/review_live_test.exs', 'Finished in 0.3 seconds\n3 tests, 0 failures'),
        stop('The review page test passes.'),
      ),
    );
    expect(ofType(r.observations, 'gotcha').map((o) => o.facts.find((f) => f.startsWith('fix:')))).toEqual([
      'fix: in mix.exs: `{:lazy_html, ">= 0.1.0", only: :test}`; then run `mix deps.get`',
    ]);
  });
});

describe('dead ends, fixes of other failures, and a gate that ran the tests', () => {
  // A missing test runner, tried three ways that all failed, installed some other way; then the
  // coverage gate fails on a test that asserts nothing, fixed by an edit; the project's gate passes.
  const test = 'def test_add():\n    assert True\n';
  const session = () =>
    distil(
      turn(
        prompt('Run just check to run the quality checks. If it fails, fix the issues and try again.'),
        bashFail(
          'just check',
          'Exit code 127\npytest tests/ --cov=src --cov-fail-under=100\nsh: 1: pytest: Permission denied\nerror: Recipe `check` failed on line 2 with exit code 127',
        ),
        bashFail('pip install pytest pytest-cov', 'Exit code 127\n/bin/bash: line 1: pip: command not found'),
        bashFail(
          'python -m pip install pytest pytest-cov',
          'Exit code 1\n/home/dev/venv/bin/python: No module named pip',
        ),
        bashFail(
          '/usr/bin/python3 -m pip install pytest pytest-cov',
          'Exit code 1\n/usr/bin/python3: No module named pip',
        ),
        bash('uv pip install pytest pytest-cov 2>/dev/null || pipx install pytest', ''),
        bashFail(
          'python -m pytest tests/ --cov=src --cov-fail-under=100',
          'Exit code 1\ncollected 1 item\n\ntests/test_math.py .\nERROR: Coverage failure: total of 50 is less than fail-under=100\n============================== 1 passed in 0.02s ==============================',
        ),
        edit('tests/test_math.py', '    assert True', '    assert add(2, 3) == 5', test),
        bash(
          'just check',
          'collected 1 item\n\ntests/test_math.py .\nRequired test coverage of 100% reached. Total coverage: 100.00%\n============================== 1 passed in 0.02s ==============================\npytest tests/ --cov=src --cov-fail-under=100',
        ),
        stop('The quality checks now pass: the test never called `add`; it does now.'),
      ),
      [said(1, 'The command failed due to a permission issue with pytest.')],
    );

  it('keeps no fix that itself failed, and credits no edit with a missing tool it shares nothing with', () => {
    const r = session();
    expect(ofType(r.observations, 'gotcha').map((g) => g.title)).toEqual([]);
  });

  it('counts the gate that ran the suite as a passing test run: nothing is left failing', () => {
    const r = session();
    expect(ofType(r.observations, 'failed_attempt')).toEqual([]);
    expect(r.summary?.nextSteps).toBe('');
    expect(r.summary?.completed).toMatch(/checks: tests passed, gate passed/);
  });

  it('lets the report that the checks now pass name the work: the gate backs it', () => {
    const work = session().observations.find((o) => o.filesModified.includes('tests/test_math.py'));
    expect(work?.title).toBe('The quality checks now pass: the test never called `add`; it does now.');
  });
});

describe('a fix by a larger configuration edit', () => {
  it('names the lines of the edit that are about the error, not the cause restated or every line', () => {
    const config = 'import Config\n\nconfig :app, Oban, testing: :manual\n';
    const r = distil(
      turn(
        prompt('Add the review page test'),
        bashFail(
          'mix test test/web/review_live_test.exs',
          'Exit code 1\n** (RuntimeError) no :secret_key_base configuration found in AppWeb.Endpoint.\n    (phoenix 1.7.0) lib/phoenix/endpoint.ex:12',
        ),
        edit(
          'config/test.exs',
          'config :app, Oban, testing: :manual',
          'config :app, Oban, testing: :manual\n\nconfig :app, AppWeb.Endpoint,\n  http: [port: 4002],\n  server: false,\n  secret_key_base: String.duplicate("test_key_base_", 4)',
          config,
        ),
        bash('mix test test/web/review_live_test.exs', 'Finished in 0.3 seconds\n3 tests, 0 failures'),
        stop('The review page test passes.'),
      ),
      [said(1, "The endpoint isn't configured for the test env.")],
    );
    expect(ofType(r.observations, 'gotcha').map((o) => o.facts.find((f) => f.startsWith('fix:')))).toEqual([
      'fix: in test.exs: `config :app, AppWeb.Endpoint,` … `secret_key_base: String.duplicate("test_key_base_", 4)`',
    ]);
  });
});

describe('what a commit says it does', () => {
  it('keeps the list a commit body gives as facts of the work it commits', () => {
    const r = distil(
      turn(
        prompt('the abort listener leaks, fix it'),
        edit('app/routes/stream.ts', 'await destroySession(id);', 'destroySession(id).catch(log);', 'x\n'),
        bash(
          `git add -A && git commit -m "$(cat <<'EOF'\nfix: abort listener error handling\n\n- Use { once: true } for abort listeners\n- Do not await destroySession; log its failure\nEOF\n)"`,
          '[streaming 63d9067] fix: abort listener error handling\n 1 file changed',
        ),
        stop('Committed.'),
      ),
    );
    const work = r.observations.find((o) => o.facts.some((f) => f.startsWith('committed 63d9067')));
    expect(work?.facts).toEqual(
      expect.arrayContaining([
        'commit says: Use { once: true } for abort listeners',
        'commit says: Do not await destroySession; log its failure',
      ]),
    );
  });
});

describe('a go-ahead is no account of the work', () => {
  it('leaves the narrative empty rather than telling the work by "ok, go"; a real request still tells it', () => {
    const work = (request: string) =>
      distil(
        turn(
          prompt(request),
          edit('src/score.py', 'weight = 1', 'weight = impute(weight)', 'x\n'),
          bash(
            'git commit -am "Impute engagement for low-data engineers"',
            '[main 055abc5] Impute engagement\n 1 file changed',
          ),
          stop(''),
        ),
      ).observations.find((o) => o.facts.some((f) => f.startsWith('committed 055abc5')));
    expect(work('ok 開始')?.narrative).toBe('');
    expect(work('ok go')?.narrative).toBe('');
    expect(work('impute engagement where a person has little data')?.narrative).toBe(
      'impute engagement where a person has little data',
    );
  });
});

describe('what a commit says it does (2)', () => {
  it('tells work the assistant said nothing about by its commit body, not by the request every task shares', () => {
    const commit = (subject: string, body: string[], hash: string) =>
      bash(
        `git add -A && git commit -m "$(cat <<'EOF'\n${subject}\n\n${body.map((l) => `- ${l}`).join('\n')}\nEOF\n)"`,
        `[main ${hash}] ${subject}\n 1 file changed`,
      );
    const r = distil(
      turn(
        prompt('continue implementation'),
        write('lib/app/tracing.ex', 'defmodule App.Tracing do\n  def setup, do: :ok\nend\n'),
        commit(
          'feat: trace LiveView interactions',
          ['Add a telemetry handler for mount and handle_event spans,', 'with the pane id as an attribute'],
          '1a2b3c4',
        ),
        write('lib/app/tail.ex', 'defmodule App.Tail do\n  def start, do: :ok\nend\n'),
        bash(
          'git add -A && git commit -m "feat: tail workers"',
          '[main 5d6e7f8] feat: tail workers\n 1 file changed',
        ),
        stop(''),
      ),
    );
    const traced = r.observations.find((o) => o.facts.some((f) => f.startsWith('committed 1a2b3c4')));
    expect(traced?.narrative).toBe(
      'Add a telemetry handler for mount and handle_event spans, with the pane id as an attribute.',
    );
  });
});

describe("a tracker ticket's status is not the work", () => {
  it('leaves out a sentence that only gives a ticket its status', () => {
    const r = distil(
      turn(
        prompt('Work on the next ready task'),
        write('priv/static/assets/app.css', '.panel { color: #222; }\n'),
        stop(''),
      ),
      [
        said(
          1,
          'spotter-fum.2 is now unblocked. The CSS is not built by esbuild, so the stylesheet is served as it is.',
        ),
      ],
    );
    const [work] = r.observations.filter((o) => o.facts.some((f) => f.includes('app.css')));
    expect(work?.narrative).toBe('The CSS is not built by esbuild, so the stylesheet is served as it is.');
  });

  it("tells work by its report without the report's headings", () => {
    const r = distil(
      turn(
        prompt('Style the panel'),
        write('priv/static/assets/app.css', '.panel { color: #222; }\n'),
        stop('## Panel Styling Complete\n\n### Colours Applied\n- Dark text on the panel for contrast'),
      ),
    );
    const [work] = r.observations.filter((o) => o.facts.some((f) => f.includes('app.css')));
    expect(work?.narrative).toBe('Dark text on the panel for contrast');
  });
});

describe('progress, not pitfalls', () => {
  it('is not a gotcha when the checker fixed what it found itself, and a no-op edit is no fix', () => {
    const r = distil(
      turn(
        prompt('CI says lint fails'),
        bashFail(
          'ruff check .',
          'Exit code 1\nledger/api.py:1:8: F401 [*] `os` imported but unused\nFound 1 error.\n[*] 1 fixable with the `--fix` option.',
        ),
        edit('ledger/api.py', 'import json', 'import json', 'import os\nimport json\n'),
        bash('ruff check . --fix', 'Found 1 error (1 fixed, 0 remaining).'),
        bash('ruff check .', 'All checks passed!'),
        stop('ruff removed the unused import; lint is clean.'),
      ),
    );
    expect(ofType(r.observations, 'gotcha')).toEqual([]);
    expect(ofType(r.observations, 'failed_attempt')).toEqual([]);
  });
});

describe("a linter's own summary when its status is hidden", () => {
  it('keeps the rule Credo reported through `tail` and the alias that met it, and lint passed after', () => {
    const credo = (found: string, issues = '') =>
      `${issues}Please report incorrect results: https://github.com/rrrene/credo/issues\n\nAnalysis took 0.5 seconds (0.06s to load, 0.4s running 69 checks on 103 files)\n780 mods/funs, ${found}.\n`;
    const before = 'defmodule App.Live do\n  def save(x), do: App.Services.Updates.broadcast(x)\nend\n';
    const r = distil(
      turn(
        prompt('Broadcast the counts after each save'),
        bash(
          'mix credo --strict 2>&1 | tail -20',
          credo(
            'found 1 software design suggestion',
            '┃ [D] ↘ Nested modules could be aliased at the top of the invoking module.\n┃       lib/app/live.ex:2:22 #(App.Live.save)\n\n',
          ),
        ),
        edit(
          'lib/app/live.ex',
          'defmodule App.Live do\n  def save(x), do: App.Services.Updates.broadcast(x)',
          'defmodule App.Live do\n  alias App.Services.Updates\n\n  def save(x), do: Updates.broadcast(x)',
          before,
        ),
        bash('mix credo --strict 2>&1 | tail -5', credo('found no issues')),
        stop('Credo is clean.'),
      ),
    );
    const gotchas = ofType(r.observations, 'gotcha');
    expect(gotchas.map((g) => g.title)).toEqual([
      '`mix credo --strict` fails: design: Nested modules could be aliased at the top of the invoking mo… → in live.ex `save`, `App.Live`: `alias App.Services.Updates`',
    ]);
    expect(r.summary?.completed).toContain('lint passed');
    expect(r.summary?.nextSteps).toBe('');
  });
});

describe("the tracker's bookkeeping beside a fix", () => {
  it('takes no ticket closed between the failure and the pass for a step of the fix, and no file name for a command to run', () => {
    const credo = (found: string, issues = '') =>
      `${issues}Analysis took 0.5 seconds (0.06s to load, 0.4s running 69 checks on 103 files)\n780 mods/funs, ${found}.\n`;
    const before = 'defmodule App.Live do\n  def save(x), do: App.Services.Updates.broadcast(x)\nend\n';
    const r = distil(
      turn(
        prompt('Broadcast the counts after each save, then close the ticket'),
        bash(
          'mix credo --strict 2>&1 | tail -20',
          credo(
            'found 1 software design suggestion',
            '┃ [D] ↘ Nested modules could be aliased at the top of the invoking module.\n┃       lib/app/live.ex:2:22 #(App.Live.save)\n\n',
          ),
        ),
        bash('bd close app-12 --reason="Counts broadcast after each save"', '✓ Closed app-12'),
        edit(
          'lib/app/live.ex',
          'defmodule App.Live do\n  def save(x), do: App.Services.Updates.broadcast(x)',
          'defmodule App.Live do\n  alias App.Services.Updates\n\n  def save(x), do: Updates.broadcast(x)',
          before,
        ),
        bash('mix credo --strict 2>&1 | tail -5', credo('found no issues')),
        bashFail(
          'mix test',
          'Exit code 2\n  1) test broadcasts counts (App.LiveTest)\n     ** (RuntimeError) no listener\n\nFinished in 0.1 seconds\n3 tests, 1 failure',
        ),
        stop(
          'The broadcast test fails: the listener is started in `test/support/listener_case.ex`, which this test does not use.',
        ),
      ),
    );
    const [gotcha] = ofType(r.observations, 'gotcha');
    expect(gotcha?.facts.some((f) => f.startsWith('ran first:'))).toBe(false);
    const [open] = ofType(r.observations, 'failed_attempt');
    expect(open?.title).toMatch(/^`mix test` fails/);
    expect(open?.facts.some((f) => f.startsWith('suggested:'))).toBe(false);
  });
});

describe('a fix told by its cause', () => {
  it('says the cause once: the fix is the change at that place', () => {
    const parser =
      'export function events(buf: string) {\n  let i;\n  while ((i = buf.indexOf("\\n\\n")) !== -1) {}\n  return [];\n}\n';
    const hook = [
      'src/sse.ts:3:10 lint/suspicious/noAssignInExpressions ━━━━━━━━━━',
      '  ✖ The assignment should not be in an expression.',
      '  >  3 │   while ((i = buf.indexOf("\\n\\n")) !== -1) {}',
      'Found 1 error.',
    ].join('\n');
    const r = distil(
      turn(
        prompt('Commit the event-block parser'),
        bashFail('git commit -am "feat: parse SSE event blocks"', `Exit code 1\n${hook}`),
        edit('src/sse.ts', '  let i;', '  let at = buf.indexOf("\\n\\n");', parser),
        edit('src/sse.ts', '  while ((i = buf.indexOf("\\n\\n")) !== -1) {}', '  while (at !== -1) {'),
        edit('src/sse.ts', '  return [];', '    at = buf.indexOf("\\n\\n", at + 2);\n  }\n  return [];'),
        bash(
          'git commit -am "feat: parse SSE event blocks"',
          '[main 9f8e7d6] feat: parse SSE event blocks\n 1 file changed',
        ),
        stop('Committed the event-block parser.'),
      ),
      [said(1, 'Biome does not allow assignments inside expressions because they hide a side effect.')],
    );
    const [gotcha] = ofType(r.observations, 'gotcha');
    expect(gotcha?.facts).toContain(
      'cause: Biome does not allow assignments inside expressions because they hide a side effect.',
    );
    expect(gotcha?.facts.find((f) => f.startsWith('fix: '))).toBe('fix: change sse.ts `events`');
    expect(gotcha?.narrative.match(/hide a side effect/g)).toHaveLength(1);
  });
});

describe('a check over several files that failed in one', () => {
  const credo = (found: string, issues = '') =>
    `${issues}Analysis took 0.1 seconds (0.01s to load, 0.07s running 69 checks on 3 files)\n40 mods/funs, ${found}.\n`;
  const finding =
    '┃ [D] ↘ Nested modules could be aliased at the top of the invoking module.\n┃       lib/app/registry.ex:41:5 #(App.Registry.present?)\n\n';
  const three = 'mix credo --strict lib/app/registry.ex lib/app_web/hook_controller.ex lib/app_web/router.ex';

  it('is closed by a pass over that file alone, and a directive that switched the rule off there is told as silenced', () => {
    const before =
      '  defp present?(id) do\n    App.Services.Tmux.exists?(id)\n  rescue\n    _ -> false\n  end\n';
    const r = distil(
      turn(
        prompt('Add the registry'),
        bashFail(`${three} 2>&1`, `Exit code 8\n${credo('found 1 software design suggestion', finding)}`),
        edit(
          'lib/app/registry.ex',
          '  require Logger',
          '  alias App.Services.Tmux\n\n  require Logger',
          before,
        ),
        edit('lib/app/registry.ex', '    App.Services.Tmux.exists?(id)', '    Tmux.exists?(id)', before),
        bashFail(`${three} 2>&1`, `Exit code 8\n${credo('found 1 software design suggestion', finding)}`),
        edit('lib/app/registry.ex', '  alias App.Services.Tmux\n\n', '', before),
        edit(
          'lib/app/registry.ex',
          '    Tmux.exists?(id)',
          '    # credo:disable-for-next-line Credo.Check.Design.AliasUsage\n    App.Services.Tmux.exists?(id)',
          before,
        ),
        bash(
          'mix compile --warnings-as-errors 2>&1 && mix credo --strict lib/app/registry.ex 2>&1',
          credo('found no issues'),
        ),
        stop('Clean compile and clean credo.'),
      ),
    );
    expect(ofType(r.observations, 'failed_attempt')).toEqual([]);
    expect(r.summary?.nextSteps).toBe('');
    expect(ofType(r.observations, 'gotcha').map((g) => g.title)).toEqual([
      expect.stringMatching(
        /^`mix credo --strict` fails: design: Nested modules .* → silenced in registry\.ex: `# credo:disable-f/,
      ),
    ]);
  });

  it('is not told as silenced by a directive written for another finding in another file', () => {
    const r = distil(
      turn(
        prompt('Make the checks pass'),
        bashFail(
          'mix credo --strict 2>&1',
          `Exit code 8\n${credo('found 1 software design suggestion', finding)}`,
        ),
        edit(
          'lib/app/registry.ex',
          '    App.Services.Tmux.exists?(id)',
          '    Tmux.exists?(id)',
          'defmodule App.Registry do\n  alias App.Services.Tmux\n  def present?(id), do: App.Services.Tmux.exists?(id)\nend\n',
        ),
        edit(
          'lib/app/slices.ex',
          '  defp pick(rest, set) do',
          '  @dialyzer {:nowarn_function, pick: 2}\n  defp pick(rest, set) do',
          'defmodule App.Slices do\n  defp pick(rest, set) do\n    rest\n  end\nend\n',
        ),
        bash('mix credo --strict 2>&1', credo('found no issues')),
        stop('Credo is clean.'),
      ),
    );
    const [gotcha] = ofType(r.observations, 'gotcha');
    expect(gotcha?.title).not.toContain('silenced');
  });
});

describe('a check run to see it fail that passed', () => {
  const events = () =>
    turn(
      prompt('Add a regression test for the ignored file'),
      edit(
        'cmd/cli/git_test.go',
        '}\n',
        '}\n\nfunc TestIgnored(t *testing.T) {}\n',
        'package cli\n\nfunc x() {\n}\n',
      ),
      bash(
        'git stash && go test ./cmd/cli -run TestIgnored -v 2>&1 | tail -5',
        'Saved working directory and index state WIP on main: f70f2b9 merge\n=== RUN   TestIgnored\n--- PASS: TestIgnored (0.03s)\nPASS\nok  \tentire.io/cli/cmd/cli\t0.332s',
      ),
      bash(
        'git stash pop',
        'On branch main\nChanges not staged for commit:\n\tmodified:   cmd/cli/git_test.go',
      ),
      stop('The test is in place.'),
    );

  it('keeps what the assistant said of it right after as the lesson', () => {
    const r = distil(events(), [
      said(
        1,
        'Now let me verify it would fail with the old implementation by temporarily reverting and running the test:',
      ),
      said(2, 'The stash reverted the test too. Let me restore and verify differently:'),
    ]);
    const [g] = ofType(r.observations, 'gotcha');
    expect(g?.title).toBe(
      '`git stash && go test ./cmd/cli -run TestIgnored -v` passed where it was meant to fail: The stash reverted the test too.',
    );
    expect(g?.facts).toContain('why: The stash reverted the test too.');
    expect(r.summary?.learned).toContain(
      'passed where it was meant to fail: The stash reverted the test too.',
    );
  });

  it('keeps nothing without a reason said, nor when no failure was predicted', () => {
    const quiet = distil(events(), [
      said(1, 'Now let me verify it would fail with the old implementation:'),
      said(2, 'Hmm, the test passes. Let me restore the stash and look again:'),
    ]);
    expect(ofType(quiet.observations, 'gotcha')).toEqual([]);
    const plain = distil(events(), [
      said(1, 'Let me run the new test:'),
      said(2, 'The stash reverted the test too. Let me restore it:'),
    ]);
    expect(ofType(plain.observations, 'gotcha')).toEqual([]);
  });
});

describe('progress, not pitfalls (2)', () => {
  it('is not a gotcha when a lint rule on the code being written is met by deleting the offending code', () => {
    const r = distil(
      turn(
        prompt('Add the settle helper'),
        write('src/settle.ts', "import { log } from './log';\nexport const settle = (x: number) => x;\n"),
        bashFail(
          'npx eslint src',
          "Exit code 1\n/home/dev/shop/src/settle.ts\n  1:10  error  'log' is defined but never used  no-unused-vars\n\n✖ 1 problem (1 error, 0 warnings)",
        ),
        edit('src/settle.ts', "import { log } from './log';\n", ''),
        bash('npx eslint src', ''),
        stop('Added settle.'),
      ),
    );
    expect(ofType(r.observations, 'gotcha')).toEqual([]);
  });

  it('never takes a sibling call cancelled by a parallel failure for a failure of its own', () => {
    const r = distil(
      turn(
        prompt('check both'),
        bashFail(
          'npm run lint',
          '<tool_use_error>Cancelled: parallel tool call Bash(npm test) errored</tool_use_error>',
        ),
        stop('One of them failed to start.'),
      ),
    );
    expect(ofType(r.observations, 'failed_attempt')).toEqual([]);
  });
});

describe('commands by purpose', () => {
  it('keeps what CI runs as the gate, with what its script runs, and `python -m` as the command', () => {
    const ci =
      'name: CI\non: [push, pull_request]\njobs:\n  build:\n    steps:\n      - uses: actions/checkout@v4\n      - run: npm ci\n      - run: npm run check\n      - name: Unused\n        run: |\n          npm run audit:unused\n';
    const events: CapturedEvent[] = [
      prompt('Why does CI fail?'),
      read('.github/workflows/ci.yml', ci),
      bash(
        'npm run check',
        '\n> check\n> npm run db:generate && biome check . && npm run typecheck\n\nChecked 79 files in 11ms. No fixes applied.',
      ),
      bash('uv run python -m pytest -q tests/', '12 passed in 0.40s'),
      stop('`npm run check` passes locally.'),
    ];
    const r = distil(turn(...events));
    const facts = ofType(r.observations, 'fact');
    expect(facts.map((o) => [o.title, o.subject])).toEqual([
      ['`npm run check` runs the project’s checks — CI runs it', 'command:gate'],
      ['`uv run python -m pytest` runs the tests', 'command:test'],
      ['`npm run audit:unused` lints the code — CI runs it', 'command:lint'],
    ]);
    expect(facts[0]?.facts).toEqual([
      'command: `npm run check`',
      'runs: `npm run db:generate && biome check . && npm run typecheck`',
      'CI runs it: .github/workflows/ci.yml',
    ]);
  });
});

describe('commits as they were made', () => {
  it('does not title work folded into the last commit with that commit’s earlier message', () => {
    const chart =
      'interface ChartData { a: number }\ninterface ChartData { a?: number }\nexport const chart = 1;\n';
    const r = distil(
      turn(
        prompt('The pre-push typecheck fails after the rebase; fix it and push'),
        edit('src/Chart.tsx', 'interface ChartData { a?: number }\n', '', chart),
        bash('npx tsc --noEmit', ''),
        bash(
          'git add . && git commit --amend --no-edit',
          '[streaming 190d0db] fix: properly exclude Prisma files from biome processing\n Date: Fri Sep 19 16:32:38 2025 -0700\n 1 file changed, 1 deletion(-)',
        ),
        stop('Removed the duplicate `ChartData` interface in Chart.tsx; the typecheck passes again.'),
      ),
    );
    const [work] = r.observations.filter((o) => o.facts.some((f) => f.startsWith('committed')));
    expect(work?.title).toBe(
      'Removed the duplicate `ChartData` interface in Chart.tsx; the typecheck passes again.',
    );
    expect(work?.facts).toContain(
      'committed 190d0db (amending the last commit, its message kept): fix: properly exclude Prisma files from biome processing (on streaming)',
    );
    expect(r.summary?.completed).toContain(
      'amended "fix: properly exclude Prisma files from biome processing"',
    );
  });
});

describe('the name of work whose commit did not land', () => {
  it('is the tried commit’s message, not the assistant’s guess about why nothing was committed', () => {
    const events = turn(
      prompt('The coverage files show up as untracked; ignore them'),
      read('.gitignore', '# managed\n.claude/bin/\n'),
      edit('.gitignore', '.claude/bin/\n', '.claude/bin/\n\n# Python\n__pycache__/\n*.pyc\n.coverage\n'),
      bash('git status', 'On branch master\nnothing to commit, working tree clean'),
      bashFail(
        'git add .gitignore && git commit -m "Add Python and coverage files to gitignore"',
        'Exit code 1\nOn branch master\nnothing to commit, working tree clean',
      ),
      stop('The `.gitignore` was already committed (a hook or linter committed it). The task is complete.'),
    );
    const work = distil(events).observations.filter((o) => o.filesModified.includes('.gitignore'));
    expect(work.map((o) => o.title)).toEqual(['Add Python and coverage files to gitignore']);
  });

  it('keeps the report when the tried message says nothing of the work', () => {
    const events = turn(
      prompt('Ignore the coverage files'),
      edit('.gitignore', '.claude/bin/\n', '.claude/bin/\n.coverage\n'),
      bashFail('git commit -am wip', 'Exit code 1\nOn branch master\nnothing to commit, working tree clean'),
      stop('Added `.coverage` to .gitignore.'),
    );
    const work = distil(events).observations.filter((o) => o.filesModified.includes('.gitignore'));
    expect(work.map((o) => o.title)).toEqual(['Added `.coverage` to .gitignore.']);
  });
});

describe('files the work removed', () => {
  it('are named on the work’s memory, relative to the project, whatever spelling the rm used', () => {
    const events = turn(
      prompt('Port it to Rust and delete the Python sources'),
      write('src/lib.rs', 'pub mod dict_utils;\n'),
      bash(`rm -f ${ROOT}/src/__init__.py ${ROOT}/src/dict_utils.py`, ''),
      bash('rm -rf tests', ''),
      bash(
        'git add -A && git commit -m "Port the utilities to Rust"',
        '[main 1b91caa] Port the utilities to Rust',
      ),
      stop('Ported.'),
    );
    const work = distil(events).observations.find((o) => o.filesModified.includes('src/lib.rs'));
    expect(work?.facts).toContain('removed: src/__init__.py, src/dict_utils.py, tests');
  });
});

describe('what a work memory says of the work', () => {
  it('tells it from the commit body or the report, never from the question that offers the next step', () => {
    const licence = distil(
      turn(
        prompt('add an MIT licence'),
        write('LICENSE', 'MIT License\n\nCopyright (c) 2026 Example\n'),
        stop('Done. Want me to init the repo and commit?'),
      ),
    );
    const added = licence.observations.find((o) => o.filesModified.includes('LICENSE'));
    expect(added).toBeDefined();
    expect(added?.narrative).not.toContain('Want me to');
    const committed = distil(
      turn(
        prompt('yes please'),
        bash(
          `git add index.html LICENSE && git commit -m "$(cat <<'EOF'\nInitial commit: dice page\n\nSimple static site to pick who starts.\nSecure RNG, bounds kept in localStorage.\n\nCo-Authored-By: Claude <noreply@anthropic.com>\nEOF\n)"`,
          '[main (root-commit) e2aec0d] Initial commit: dice page\n 2 files changed, 330 insertions(+)',
        ),
        stop('All committed.'),
      ),
    );
    expect(committed.observations.flatMap((o) => o.facts)).toContain(
      'commit says: Simple static site to pick who starts. Secure RNG, bounds kept in localStorage.',
    );
  });
});

describe('what was said while a failure was worked out', () => {
  const CREDO =
    '┃ [D] ↘ Nested modules could be aliased at the top of the invoking module.\n┃       lib/shop_web/live/cart_live.ex:71:30 #(ShopWeb.CartLive.handle_event)\n\nAnalysis took 0.5 seconds\n780 mods/funs, found 1 software design suggestion.';

  it('is not the work’s account: a refuted guess and the code half-way stay out of it', () => {
    const r = distil(
      turn(
        prompt('Broadcast the cart count after each change'),
        write('lib/shop/cart_updates.ex', 'defmodule Shop.CartUpdates do\nend\n'),
        bashFail(
          'mix test 2>&1',
          'Exit code 1\n     error: undefined variable "payload"\n     └─ test/cart_test.exs:12:7',
        ),
        edit(
          'test/cart_test.exs',
          'assert_broadcast("count", payload)',
          'assert_broadcast "count", %{total: 1}',
        ),
        bash('mix test 2>&1', 'Finished in 0.3 seconds\n12 tests, 0 failures'),
        bash('mix credo --strict 2>&1 | tail -20', CREDO),
        edit('lib/shop_web/live/cart_live.ex', 'Shop.CartUpdates.broadcast()', 'CartUpdates.broadcast()'),
        bash('mix credo --strict 2>&1 | tail -5', '780 mods/funs, found no issues.'),
        stop('The cart count is now broadcast by `Shop.CartUpdates` after each change.'),
      ),
      [
        said(2, 'The formatter added parens which breaks the macro because the pattern needs no parens.'),
        said(5, 'The alias is unused because I am still using the fully qualified name.'),
        said(8, 'The cart count is now broadcast by `Shop.CartUpdates` after each change.'),
      ],
    );
    const work = r.observations.find((o) => o.filesModified.includes('lib/shop/cart_updates.ex'));
    expect(work?.narrative).toContain('The cart count is now broadcast by `Shop.CartUpdates`');
    expect(work?.narrative).not.toMatch(/formatter added parens|alias is unused/);
  });

  it('gives a failure its cause from what was said on seeing it, not after the edits that followed', () => {
    const events = (words: string[]) =>
      distil(
        turn(
          prompt('Tidy the cart module'),
          bashFail(
            'npx tsc --noEmit',
            "Exit code 2\nsrc/cart.ts(1,23): error TS2307: Cannot find module './money'.",
          ),
          edit('src/cart.ts', "from './money'", "from './money/index'"),
          edit('src/cart.ts', 'const b = 2;', 'const b = 3;'),
          bash('npx tsc --noEmit', ''),
          stop('Done.'),
        ),
        words.map((w, i) => said(i + 1, w)),
      );
    // Said on seeing it (or with the first change): the cause.
    const seen = ofType(
      events(['The import fails because the money module moved to a folder.']).observations,
      'gotcha',
    )[0];
    expect(seen?.facts).toContain('cause: The import fails because the money module moved to a folder.');
    // Said after a second edit: about the code half-way, not this error.
    const later = ofType(
      events(['', '', 'The import of money is unused because the second edit has not landed yet.'])
        .observations,
      'gotcha',
    )[0];
    expect(later).toBeDefined();
    expect(later?.facts.join(' ')).not.toContain('unused because');
  });
});

describe('a failure whose output counts errors it does not show', () => {
  it('gives no gotcha: a linter’s advice beside the count is not what failed, and the error is unknown', () => {
    const report = [
      'Exit code 1',
      'Pre-commit validation failed:',
      '[CREDO]',
      '┃ [D] ↘ Nested modules could be aliased at the top of the invoking module.',
      '┃       lib/shop/summary.ex:110:10 #(Shop.Summary.call_llm)',
      '895 mods/funs, found 5 software design suggestions.',
      '[DIALYZER]',
      'Total errors: 11, Skipped: 0, Unnecessary Skips: 0',
      '',
      '[Output truncated: showing 30 of 256 lines]',
      'Fix these issues before committing.',
    ].join('\n');
    const r = distil(
      turn(
        prompt('Commit the review page'),
        bashFail('git commit -m "feat: review page"', report),
        edit('lib/shop_web/live/sub_live.ex', 'if record, do: record.cwd, else: nil', 'record.cwd'),
        bash('git commit -m "feat: review page"', '[main 1a2b3c4] feat: review page\n 2 files changed'),
        stop('Committed.'),
      ),
    );
    expect(ofType(r.observations, 'gotcha')).toEqual([]);
  });
});

describe('a tool set up, a push refused', () => {
  it('keeps the step that made a missing tool run, and what git said to do before pushing again', () => {
    const r = distil(
      turn(
        prompt('Scaffold the desktop shell'),
        // The error is npm's, not the shell set-up's in front of it.
        bashFail(
          'source "$HOME/.cargo/env" && npx tauri init --app-name "Sticky Notes" --frontend-dist ../dist',
          'Exit code 1\nnpm error could not determine executable to run\nnpm error A complete log of this run can be found in: /home/dev/.npm/_logs/x.log',
        ),
        bash('npm install -D @tauri-apps/cli@latest', 'added 3 packages, and audited 52 packages in 10s'),
        bash(
          'source "$HOME/.cargo/env" && npx tauri init --app-name sticky-notes --frontend-dist ../dist',
          '',
        ),
        bashFail(
          'git push origin main',
          "Exit code 1\nTo https://example.com/shop.git\n ! [rejected]        main -> main (fetch first)\nerror: failed to push some refs to 'https://example.com/shop.git'\nhint: Updates were rejected because the remote contains work that you do not\nhint: have locally. You may want to first integrate the remote changes\nhint: (e.g., 'git pull ...') before pushing again.",
        ),
        bash(
          'git pull --rebase origin main && git push origin main',
          'Successfully rebased and updated refs/heads/main.\nTo https://example.com/shop.git\n   1a2b3c4..5d6e7f8  main -> main',
        ),
        stop('Scaffolded and pushed.'),
      ),
    );
    expect(ofType(r.observations, 'gotcha').map((o) => o.title)).toEqual([
      '`npx tauri init` fails: npm error could not determine executable to run → run `npm install -D @tauri-apps/cli@latest` first',
      '`git push` fails: rejected: main -> main (fetch first) → run `git pull --rebase origin main` first',
    ]);
  });

  it('keeps nothing when the same tool only worked with other values, or git was not asked for', () => {
    const r = distil(
      turn(
        prompt('Look up the release'),
        bashFail('gh release view v2.0.0', 'Exit code 1\nrelease not found'),
        bash('gh release view v1.9.0', 'title: v1.9.0'),
        bashFail(
          'git push origin main',
          'Exit code 128\nfatal: unable to access the remote: Could not resolve host: example.com',
        ),
        bash('git fetch origin && git push origin main', '   1a2b3c4..5d6e7f8  main -> main'),
        stop('Found v1.9.0 and pushed.'),
      ),
    );
    expect(ofType(r.observations, 'gotcha')).toEqual([]);
  });
});

describe('a tool of its own (an issue tracker’s CLI)', () => {
  const OUT_OF_SYNC =
    "Exit code 1\nError: Database out of sync with JSONL. Run 'bd sync --import-only' to fix.\n\nThe JSONL file has been updated (e.g., after 'git pull').";

  it('keeps its pitfall when its own message named the remedy and the same command then worked', () => {
    const r = distil(
      turn(
        prompt('Pick the next task'),
        bashFail('bd ready', OUT_OF_SYNC),
        bash(
          'bd sync --import-only && bd ready',
          '✓ Import complete\n📋 Ready work (2 issues with no blockers)',
        ),
        stop('Next is shop-12.'),
      ),
    );
    expect(ofType(r.observations, 'gotcha').map((o) => o.title)).toEqual([
      '`bd ready` fails: Database out of sync with JSONL. → run `bd sync --import-only` first',
    ]);
  });

  it('keeps none when the remedy was not named, or another of its commands was all that worked', () => {
    const unnamed = distil(
      turn(
        prompt('Pick the next task'),
        bashFail('bd ready', 'Exit code 1\nError: Database out of sync with JSONL.'),
        bash('bd sync --import-only && bd ready', '📋 Ready work (2 issues with no blockers)'),
        stop('Next is shop-12.'),
      ),
    );
    expect(ofType(unnamed.observations, 'gotcha')).toEqual([]);
    const other = distil(
      turn(
        prompt('Pick the next task'),
        bashFail('bd ready', OUT_OF_SYNC),
        bash('bd sync --import-only', '✓ Import complete'),
        stop('Synced.'),
      ),
    );
    expect(ofType(other.observations, 'gotcha')).toEqual([]);
    // Another of its commands passing is no run of the one that failed.
    expect(
      analyseTurn(
        turn(
          prompt('Pick the next task'),
          bashFail('bd ready', OUT_OF_SYNC),
          bash('bd sync --import-only', '✓'),
        ),
        ROOT,
      ).errors.map((e) => [e.canonical, e.fixed]),
    ).toEqual([['bd ready', false]]);
  });
});

describe('scripts kept in a scratch directory', () => {
  it('are throwaways whatever their names say: no command of the project, no check that passed', () => {
    const r = distil(
      turn(
        prompt('How many deposits went through on devnet?'),
        write('/tmp/check_failed.mjs', 'const rpc = process.env.RPC_URL;\n'),
        bash(
          'node /tmp/check_failed.mjs',
          'PV1xi86y InstructionError [0, Custom 1]\n2hWv5Cvu InstructionError',
        ),
        bash('bash /tmp/build_report.sh', 'wrote /tmp/report.txt'),
        stop('178 deposits succeeded out of 180 attempts; the two failures were InstructionError 1.'),
      ),
    );
    expect(r.observations.filter((o) => o.type === 'fact').map((o) => o.title)).toEqual([]);
    expect(r.summary?.completed ?? '').not.toMatch(/checks? pass|gate|build/);
    // What they found is the turn's answer.
    expect(r.summary?.completed).toContain('178 deposits succeeded out of 180 attempts');
  });
});

describe('the environment a project command runs with', () => {
  it('keeps the variable every run of a command was given, and leaves out colour, locale and secrets', () => {
    const facts = (...events: CapturedEvent[]) =>
      distil(turn(prompt('build it'), ...events))
        .observations.filter((o) => o.subject?.startsWith('command:'))
        .flatMap((o) => o.facts.filter((f) => f.startsWith('command: ')));
    // Plain pnpm refused in this checkout; with the variable the build ran.
    expect(
      facts(
        bashFail(
          'pnpm --version',
          'This project is configured to use yarn because ~/package.json has a "packageManager" field',
        ),
        bash('COREPACK_ENABLE_PROJECT_SPEC=0 pnpm build 2>&1 | tail -60', '✓ Compiled successfully'),
      ),
    ).toEqual(['command: `COREPACK_ENABLE_PROJECT_SPEC=0 pnpm build`']);
    expect(
      facts(
        bash('FORCE_COLOR=0 LANG=C npm test', 'Tests: 3 passed, 3 total'),
        bash('npm test', 'Tests: 3 passed, 3 total'),
      ),
    ).toEqual(['command: `npm test`']);
    expect(facts(bash('NPM_TOKEN=abc123 npm run build', 'built in 2s'))).toEqual([
      'command: `npm run build`',
    ]);
    // The work's note of how its checks went says it the same way.
    const work = distil(
      turn(
        prompt('add the readiness script'),
        write('scripts/ready.mjs', 'console.log(1);\n'),
        bash('COREPACK_ENABLE_PROJECT_SPEC=0 pnpm build 2>&1 | tail -60', '✓ Compiled successfully'),
      ),
    ).observations.find((o) => o.filesModified.includes('scripts/ready.mjs'));
    expect(work?.facts).toContain('build `COREPACK_ENABLE_PROJECT_SPEC=0 pnpm build`: passed');
  });
});

describe('a reply after the commits that leaves the user a choice', () => {
  const report = (last: string) =>
    distil(
      turn(
        prompt('ship TASK-5, then look at TASK-7'),
        write('STATUS.md', '# Status\n\nTASK-5 shipped.\n'),
        bash(
          'git add STATUS.md && git commit -m "docs(status): mark TASK-5 shipped" -m "TASK-5 ships as a script-only demo."',
          '[main 73f00b8] docs(status): mark TASK-5 shipped\n 1 file changed, 3 insertions(+)',
        ),
        stop(last),
      ),
    ).observations.find((o) => o.title.includes('TASK-5'));
  it('tells the committed work, not the recommendation that waits on the user', () => {
    const work = report(
      [
        'Recommendation for TASK-7: multi-currency stays out of this release because converted totals sit on the lines reviewers check.',
        'Want me to (a) update the release notes with that, (b) add the screenshot too, or (c) do something different? I haven’t touched anything yet — your call.',
      ].join('\n\n'),
    );
    expect(work?.narrative).not.toMatch(/multi-currency|converted totals/);
  });
  it('keeps the account of the work when the reply only offers the next chore', () => {
    const work = report(
      'STATUS.md now marks TASK-5 shipped because the demo script is merged. Want me to push it?',
    );
    expect(work?.narrative).toContain(
      'STATUS.md now marks TASK-5 shipped because the demo script is merged.',
    );
  });
});

describe('a failure whose output names no symptom', () => {
  it('keeps no gotcha when the line it ended on is a progress line or a bare "failed"', () => {
    const r = distil(
      turn(
        prompt('the tauri build fails, fix it'),
        bashFail(
          'cargo build 2>&1 | tail -3',
          'Exit code 101\n   Compiling objc2 v0.5.2\n   Compiling objc2-exception-helper v0.1.1',
        ),
        edit(
          'src-tauri/Cargo.toml',
          '[dependencies]\n',
          '[dependencies]\n\n[patch.crates-io]\nalloc-no-stdlib = "=3.0.0"\n',
          '[dependencies]\n',
        ),
        bashFail(
          'cargo build 2>&1 | tail -3',
          'Exit code 101\n   Compiling brotli v8.0.2\n   Compiling tauri v2.1.0',
        ),
      ),
    );
    expect(ofType(r.observations, 'gotcha')).toEqual([]);
  });
});
