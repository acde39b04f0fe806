/**
 * What a command is for, by the tool it runs: test runners, typecheckers, linters, formatters (a check
 * when asked only to check), bundlers — named by their own executable.
 */
import { positional, purposeOfTask, type Judged, type Purpose } from './purpose-names.ts';

const TEST_TOOLS = new Set(
  (
    'vitest jest mocha ava tap karma jasmine pytest py.test nose2 tox nox behave unittest phpunit pest ' +
    'rspec minitest ctest nextest gotestsum ginkgo bats busted playwright cypress wdio testcafe detox'
  ).split(' '),
);
export const E2E_TOOLS = new Set('playwright cypress wdio testcafe detox nightwatch'.split(' '));
const TYPECHECK_TOOLS = new Set(
  'tsc vue-tsc svelte-check mypy pyright basedpyright pytype flow srb steep'.split(' '),
);
const LINT_TOOLS = new Set(
  (
    'eslint oxlint xo standard stylelint knip depcheck markdownlint ruff flake8 pylint pycodestyle ' +
    'pydocstyle bandit golangci-lint staticcheck revive rubocop standardrb shellcheck hadolint ' +
    'actionlint yamllint tflint ktlint detekt swiftlint phpstan psalm credo clippy-driver'
  ).split(' '),
);
const FORMAT_TOOLS = new Set(
  'prettier gofmt goimports gofumpt black isort autopep8 yapf rustfmt shfmt clang-format dprint php-cs-fixer'.split(
    ' ',
  ),
);
const BUILD_TOOLS = new Set('webpack esbuild rollup tsup parcel cmake ninja bazel turbo'.split(' '));

/** A tool known by its executable's name, or null. */
export function byToolName(head: string, w: string[]): Judged | null {
  const sub = positional(w, 1)[0] ?? '';
  const rest = w.slice(1);
  const has = (re: RegExp) => rest.some((x) => re.test(x));
  if (head === 'prettier' || head === 'dprint' || head === 'biome' || head === 'ruff' || head === 'deno') {
    if (head === 'prettier')
      return { purpose: has(/^(?:--check|-c|--list-different|-l)$/) ? 'lint' : 'format', tool: 'prettier' };
    if (head === 'biome')
      return sub === 'format'
        ? { purpose: has(/^--(?:write|fix|apply)/) ? 'format' : 'lint', tool: 'biome format' }
        : { purpose: 'lint', tool: `biome ${sub}`.trim() };
    if (head === 'ruff')
      return {
        purpose: sub === 'format' && !has(/^--(?:check|diff)$/) ? 'format' : 'lint',
        tool: `ruff ${sub}`.trim(),
      };
    if (head === 'dprint')
      return { purpose: sub === 'check' ? 'lint' : 'format', tool: `dprint ${sub}`.trim() };
    const deno: Record<string, Purpose> = {
      test: 'test',
      lint: 'lint',
      fmt: 'format',
      check: 'typecheck',
      run: 'run',
      compile: 'build',
      task: 'other',
    };
    if (sub === 'task')
      return {
        purpose: purposeOfTask(positional(w, 2)[0] ?? ''),
        tool: 'deno task',
        task: positional(w, 2)[0] ?? '',
      };
    return { purpose: deno[sub] ?? 'other', tool: `deno ${sub}`.trim() };
  }
  if (FORMAT_TOOLS.has(head)) {
    const checking = has(/^(?:--check|-l|--list|--diff|-d)$/) && !has(/^-w$|^--write$/);
    return { purpose: checking ? 'lint' : 'format', tool: head };
  }
  if (TEST_TOOLS.has(head)) {
    if (head === 'cypress' && sub === 'open') return { purpose: 'run', tool: 'cypress open' };
    if (head === 'playwright' && sub !== 'test' && sub !== '')
      return { purpose: sub === 'install' ? 'install' : 'other', tool: `playwright ${sub}` };
    if (head === 'tox' || head === 'nox') {
      const env = rest[rest.findIndex((x) => x === '-e' || x === '-s') + 1];
      if (env && rest.some((x) => x === '-e' || x === '-s'))
        return {
          purpose: purposeOfTask(env) === 'other' ? 'test' : purposeOfTask(env),
          tool: head,
          task: env,
        };
    }
    return { purpose: 'test', tool: head };
  }
  if (TYPECHECK_TOOLS.has(head))
    return {
      purpose: head === 'tsc' && has(/^--?(?:watch|w)$/) ? 'run' : 'typecheck',
      tool: head === 'srb' ? 'srb tc' : head,
    };
  if (LINT_TOOLS.has(head)) return { purpose: 'lint', tool: head };
  if (BUILD_TOOLS.has(head)) return { purpose: 'build', tool: head };
  return null;
}
