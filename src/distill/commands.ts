/**
 * Shell commands that matter: tests, builds, typechecks, lints, commits, pushes, dependency changes;
 * and what their output says about how they went. PostToolUse carries no exit code (a non-zero exit
 * arrives as a failure event), but a piped command (`npm test | tail`) exits 0 whatever happened, so
 * the output is read too.
 */
import { stripHostMarkup } from './text.ts';

export type CommandKind =
  'test' | 'build' | 'typecheck' | 'lint' | 'commit' | 'push' | 'install' | 'uninstall' | 'inspect' | 'other';

/** Highest first: a segment of this kind makes the whole command this kind. */
export const PRIORITY: readonly CommandKind[] = [
  'commit',
  'test',
  'typecheck',
  'lint',
  'build',
  'install',
  'uninstall',
  'push',
  'other',
  'inspect',
];

const WRAPPERS = new Set('sudo time env nice npx bunx exec command nohup timeout'.split(' '));
const TWO_WORD_WRAPPERS =
  /^(?:pnpm (?:exec|dlx)|yarn dlx|uv run|poetry run|pipenv run|bundle exec|python3? -m|npm exec)$/;
const INSPECT = new Set(
  (
    'ls cat head tail grep rg ag find fd pwd echo printf which wc tree file stat du df less more env ' +
    'printenv type whoami date sort uniq cut jq diff realpath dirname basename true sleep cd ps lsof'
  ).split(' '),
);
const PM = new Set(['npm', 'pnpm', 'yarn', 'bun']);
const TEST_TOOLS = new Set(
  'vitest jest mocha ava pytest phpunit rspec tox nox ctest karma tap unittest nextest'.split(' '),
);
const TYPECHECK_TOOLS = new Set(['tsc', 'vue-tsc', 'mypy', 'pyright', 'flow']);
const LINT_TOOLS = new Set(
  (
    'eslint ruff flake8 pylint golangci-lint rubocop biome stylelint shellcheck black oxlint ' +
    'standard xo hadolint'
  ).split(' '),
);
const BUILD_TOOLS = new Set('webpack esbuild rollup tsup parcel make cmake ninja bazel'.split(' '));

/** Split a shell line into simple commands (on `&&`, `||`, `;`, `|`, newlines), roughly. */
function segments(command: string): string[][] {
  return command
    .replace(/<<-?\s*'?(\w+)'?[\s\S]*?\n\s*\1\b/g, ' ') // heredoc bodies are not commands
    .split(/&&|\|\||[;|\n]/)
    .map((s) =>
      s
        .trim()
        .replace(/^[({]\s*/, '')
        .split(/\s+/)
        .filter((w) => w !== ''),
    )
    .filter((words) => words.length > 0);
}

/** The words of a simple command with env assignments and wrappers (`npx`, `uv run`, …) removed. */
function core(words: string[]): string[] {
  let w = words;
  for (let guard = 0; guard < 6 && w.length > 0; guard++) {
    const first = w[0] ?? '';
    if (/^[A-Za-z_]\w*=/.test(first) || WRAPPERS.has(first)) w = w.slice(1);
    else if (TWO_WORD_WRAPPERS.test(`${first} ${w[1] ?? ''}`)) w = w.slice(2);
    else if (/^-|^\d+(?:\.\d+)?[smhd]?$/.test(first)) w = w.slice(1);
    else break;
  }
  return w.map((x, i) => (i === 0 ? (x.split('/').pop() ?? x) : x));
}

function scriptKind(script: string): CommandKind | null {
  if (/^test\b|^t$|^e2e\b|^spec\b/.test(script)) return 'test';
  if (/^(?:typecheck|type-check|check-types|types|tsc)\b/.test(script)) return 'typecheck';
  if (/^(?:lint|format:check|fmt:check|check:lint)\b/.test(script)) return 'lint';
  if (/^(?:build|compile|bundle|dist)\b/.test(script)) return 'build';
  return null;
}

function segmentKind(words: string[]): CommandKind {
  const w = core(words);
  const [head = '', sub = ''] = w;
  const rest = w.slice(1).join(' ');
  if (head === 'git') {
    if (sub === 'commit') return 'commit';
    if (sub === 'push') return 'push';
    return /^(?:status|log|diff|show|branch|remote|rev-parse|ls-files|blame)$/.test(sub)
      ? 'inspect'
      : 'other';
  }
  if (PM.has(head)) {
    if (/^(?:test|t)$/.test(sub)) return 'test';
    if (/^(?:install|i|add|ci)$/.test(sub)) return 'install';
    if (/^(?:uninstall|remove|rm|un|r)$/.test(sub)) return 'uninstall';
    if (sub === 'run' || sub === 'run-script') return scriptKind(w[2] ?? '') ?? 'other';
    return scriptKind(sub) ?? (sub !== '' && sub !== 'exec' ? segmentKind(w.slice(1)) : 'other');
  }
  if (TEST_TOOLS.has(head)) return 'test';
  if (TYPECHECK_TOOLS.has(head)) return 'typecheck';
  if (LINT_TOOLS.has(head)) return 'lint';
  if (head === 'prettier') return /--check|-c\b/.test(rest) ? 'lint' : 'other';
  if (head === 'node' && /--test\b/.test(rest)) return 'test';
  if (head === 'go')
    return sub === 'test'
      ? 'test'
      : sub === 'build'
        ? 'build'
        : sub === 'vet'
          ? 'lint'
          : sub === 'get'
            ? 'install'
            : 'other';
  if (head === 'cargo') {
    if (sub === 'test' || sub === 'nextest') return 'test';
    if (sub === 'build') return 'build';
    if (sub === 'check') return 'typecheck';
    if (sub === 'clippy' || sub === 'fmt') return 'lint';
    return sub === 'add' ? 'install' : sub === 'remove' ? 'uninstall' : 'other';
  }
  if (head === 'mix') {
    if (sub === 'test') return 'test';
    if (sub === 'compile') return 'build';
    if (sub === 'credo' || sub === 'format') return 'lint';
    return sub === 'dialyzer' ? 'typecheck' : 'other';
  }
  if (head === 'mvn' || head === 'mvnw')
    return /\b(?:test|verify)\b/.test(rest)
      ? 'test'
      : /\b(?:package|compile|install)\b/.test(rest)
        ? 'build'
        : 'other';
  if (head === 'gradle' || head === 'gradlew')
    return /\btest\b/.test(rest) ? 'test' : /\bbuild\b/.test(rest) ? 'build' : 'other';
  if (head === 'dotnet' && sub === 'add' && w[2] === 'package') return 'install';
  if (/^python3?$/.test(head) && /\b(?:manage|setup)\.py test\b/.test(rest)) return 'test';
  if (head === 'dotnet' || head === 'deno' || head === 'swift')
    return sub === 'test' ? 'test' : sub === 'build' ? 'build' : 'other';
  if (head === 'rake' || head === 'rails') return /^(?:test|spec)$/.test(sub) ? 'test' : 'other';
  if (head === 'make')
    return /^(?:test|check|tests)$/.test(sub) ? 'test' : /^(?:lint)$/.test(sub) ? 'lint' : 'build';
  if (head === 'playwright' || head === 'cypress') return 'test';
  if (head === 'docker' && (sub === 'build' || sub === 'buildx')) return 'build';
  if (
    (head === 'docker' || head === 'docker-compose') &&
    /\b(?:ps|logs|images|inspect|top|port|config)\b/.test(rest.split(/\s+(?=-)/)[0] ?? '')
  )
    return 'inspect';
  if (head === 'vite' || head === 'next' || head === 'nuxt') return sub === 'build' ? 'build' : 'other';
  if (BUILD_TOOLS.has(head)) return 'build';
  if (
    /^pip3?$/.test(head) ||
    head === 'uv' ||
    head === 'poetry' ||
    head === 'gem' ||
    head === 'bundle' ||
    head === 'composer'
  ) {
    if (/^(?:install|add|require)$/.test(sub) || (head === 'uv' && sub === 'pip' && w[2] === 'install'))
      return 'install';
    if (/^(?:uninstall|remove)$/.test(sub)) return 'uninstall';
    return 'other';
  }
  if (INSPECT.has(head) || (head === 'sed' && /(?:^|\s)-n\b/.test(rest))) return 'inspect';
  return 'other';
}

export function classifyCommand(command: string): CommandKind {
  const kinds = new Set(segments(command).map(segmentKind));
  return PRIORITY.find((k) => kinds.has(k)) ?? 'other';
}

/** The message of a `git commit -m "…"` (also the heredoc form Claude Code uses). */
export function commitMessage(command: string): string | null {
  if (!/\bgit\b[^\n]*\bcommit\b/.test(command)) return null;
  const heredoc = /<<-?\s*'?(\w+)'?\s*\n([\s\S]*?)\n\s*\1\b/.exec(command);
  if (heredoc?.[2]) return heredoc[2].trim().split('\n')[0]?.trim() || null;
  const quoted = /\s(?:-a?m|--message)\s*(?:=\s*)?(["'])((?:(?!\1)[\s\S])*)\1/.exec(command);
  if (quoted?.[2]) return quoted[2].trim().split('\n')[0]?.trim() || null;
  const bare = /\s(?:-a?m|--message)[\s=]+([^\s"'&|;]+)/.exec(command);
  return bare?.[1] ?? null;
}

export interface CommitOutput {
  branch: string;
  hash: string;
  subject: string;
}

/** `[main 1a2b3c4] subject` as git prints it after a commit. */
export function commitOutput(output: string): CommitOutput | null {
  const m = /^\[([^\s\]]+)(?: \(root-commit\))? ([0-9a-f]{7,40})\] (.+)$/m.exec(output);
  return m ? { branch: m[1] ?? '', hash: m[2] ?? '', subject: (m[3] ?? '').trim() } : null;
}

const VALUE_FLAGS =
  /^(?:-r|--requirement|-c|--constraint|-i|--index-url|--extra-index-url|--registry|-w|--workspace|--filter|--features|-F|--target|--prefix|-p|--package|--version|--source|--group|-G)$/;

/** Packages a dependency command adds and removes (flags and their values dropped). */
export function packagesOf(command: string): { added: string[]; removed: string[] } {
  const added = new Set<string>();
  const removed = new Set<string>();
  for (const words of segments(command)) {
    const w = core(words);
    const kind = segmentKind(words);
    if (kind !== 'install' && kind !== 'uninstall') continue;
    const skip = (w[0] === 'uv' && w[1] === 'pip') || w[0] === 'dotnet' ? 3 : 2;
    let skipNext = false;
    for (const word of w.slice(skip)) {
      const token = word.replace(/^["']|["']$/g, '');
      if (skipNext) {
        skipNext = false;
        continue;
      }
      if (VALUE_FLAGS.test(token)) {
        skipNext = true;
        continue;
      }
      if (token === '' || /^[-<>.~/$\d]/.test(token) || token.endsWith('=') || token.includes('://'))
        continue;
      (kind === 'install' ? added : removed).add(token.replace(/\[[\w,.-]*\]$/, ''));
    }
  }
  return { added: [...added].slice(0, 10), removed: [...removed].slice(0, 10) };
}

export interface TestCounts {
  passed: number | null;
  failed: number | null;
}

function lastNumber(output: string, re: RegExp): number | null {
  let value: number | null = null;
  for (const m of output.matchAll(re)) value = Number(m[1]);
  return value;
}

/**
 * Counts from a test runner's summary: jest/vitest ("Tests: 1 failed, 20 passed"), pytest
 * ("3 passed, 1 failed in 0.2s"), mocha ("12 passing"), cargo ("test result: ok. 12 passed; 0 failed"),
 * ExUnit/RSpec ("87 tests, 0 failures"), node --test ("# pass 12"), dotnet ("Failed: 0, Passed: 12").
 */
export function testCounts(output: string): TestCounts {
  const cargo = [...output.matchAll(/test result: \w+\. (\d+) passed; (\d+) failed/g)];
  if (cargo.length > 0) {
    return {
      passed: cargo.reduce((n, m) => n + Number(m[1]), 0),
      failed: cargo.reduce((n, m) => n + Number(m[2]), 0),
    };
  }
  const totals = [...output.matchAll(/(\d+) (?:tests|examples|properties), (\d+) failures?/g)].pop();
  if (totals) return { passed: Number(totals[1]) - Number(totals[2]), failed: Number(totals[2]) };
  return {
    passed:
      lastNumber(output, /(\d+)\s+(?:tests?\s+)?(?:passed|passing)\b/gi) ??
      lastNumber(output, /\bPassed:\s*(\d+)/g) ??
      lastNumber(output, /^# pass (\d+)/gm),
    failed:
      lastNumber(output, /(\d+)\s+(?:tests?\s+)?(?:failed|failing|failures?|errors?)\b/gi) ??
      lastNumber(output, /\bFailed:\s*(\d+)/g) ??
      lastNumber(output, /^# fail (\d+)/gm),
  };
}

/** "12 passed, 1 failed" (or '' when the output shows no counts). */
export function describeCounts(c: TestCounts): string {
  return [c.passed !== null ? `${c.passed} passed` : '', c.failed ? `${c.failed} failed` : '']
    .filter(Boolean)
    .join(', ');
}

const BUILD_FAILURE =
  /(?:^|\s)error(?:\s+TS\d+|\[E\d+\])?:|^\s*\d+:\d+\s+error\b|\[ERROR\]|\bERR!|✖ \d+ problems?|Found [1-9]\d* errors?|\b(?:build|compilation) failed\b|\bFAILED\b|^\*\* \(\w*Error\)/im;
const STRONG_FAILURE =
  /Traceback \(most recent call last\)|^\w*(?:Error|Exception): |command not found|npm ERR!|^fatal: |panicked at|Segmentation fault/m;

/** Whether the output of a command that exited 0 still says it failed. */
export function outputLooksFailed(kind: CommandKind, output: string, command = ''): boolean {
  if (kind === 'test') {
    const c = testCounts(output);
    if (c.failed !== null) return c.failed > 0;
    if (c.passed !== null && c.passed > 0) return false;
    return /^\s*FAIL\b|\bFAILED\b|✕|✗|AssertionError|--- FAIL|panicked at|Traceback \(most recent/m.test(
      output,
    );
  }
  if (kind === 'build' || kind === 'lint' || kind === 'typecheck') {
    // A fixer that reports what it fixed and nothing left ("2 fixed, 0 remaining") succeeded.
    if (/\b0 remaining\b|All checks passed/i.test(output)) return false;
    return BUILD_FAILURE.test(output);
  }
  // Anything else exited 0: only a pipe can hide a failure, and only a strong sign counts.
  return /\|/.test(command) && STRONG_FAILURE.test(output);
}

/** Lines that are never the news: exit codes, npm's script echo, blank decoration. */
const NOISE =
  /^(?:exit code \d+|>\s.*|npm (?:ERR!|error) (?:code|path|errno|A complete log|Lifecycle).*|[-=─━*]{3,}|\s*at .+\(.+:\d+:\d+\)|at .+:\d+:\d+)$/i;

/** The first line of an error text that says what went wrong. */
export function errorHeadline(text: string): string {
  const lines = stripHostMarkup(text)
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !NOISE.test(l));
  const telling =
    lines.find((l) =>
      /\b\w*(?:Error|Exception)\b:|^error\b|\berror TS\d+|\bfatal\b|panic:|panicked at/i.test(l),
    ) ??
    lines.find((l) =>
      /error|exception|fail|cannot|can't|not found|denied|refused|✕|traceback|no such/i.test(l),
    );
  return (telling ?? lines[0] ?? text.trim()).slice(0, 200);
}

/** A command line the output suggests running (git's "use\n\n    git push --set-upstream …"). */
export function hintOf(output: string): string {
  const lines = output.split('\n').map((l) => l.trim());
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const inline =
      /(?:run|use|try|install with|please run)[^`'"\n]*[`'"]([a-z][\w .:/@=-]{3,100})[`'"]/i.exec(line);
    if (inline?.[1]) return inline[1].trim();
    if (/(?:\buse|\brun|following command[^:\n]*|\btry)\s*:?\s*$/i.test(line)) {
      const next = lines.slice(i + 1, i + 4).find((l) => l !== '');
      const cmd = next?.replace(/^[║|>$\s]+|[║|\s]+$/g, '') ?? '';
      if (/^(?:[a-z][\w.-]*)(?:\s+\S+){1,8}$/.test(cmd)) return cmd;
    }
  }
  return '';
}
