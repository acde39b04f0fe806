/**
 * Shell commands that matter: tests, builds, lints, commits, dependency changes; and their outcome.
 */

export type CommandKind = 'test' | 'build' | 'lint' | 'commit' | 'install' | 'other';

const TEST =
  /\b(?:(?:npm|pnpm|yarn|bun)\s+(?:run\s+)?test\b|vitest|jest|pytest|go\s+test|cargo\s+(?:test|nextest)|mvn\b[^|&;]*\btest|gradlew?\s+test|make\s+(?:test|check)\b|node\s+--test|phpunit|rspec|mocha|tox\b|ctest)/;
const BUILD =
  /\b(?:(?:npm|pnpm|yarn|bun)\s+run\s+build\b|tsc\b|cargo\s+build|go\s+build|mvn\b[^|&;]*\b(?:package|compile|install)|gradlew?\s+build|vite\s+build|webpack|make\b(?!\s+(?:test|check)))/;
const LINT =
  /\b(?:eslint|prettier\s+--check|ruff|flake8|pylint|mypy|clippy|golangci-lint|(?:npm|pnpm|yarn)\s+run\s+(?:lint|typecheck))\b/;
const COMMIT = /\bgit\s+commit\b/;
const INSTALL =
  /\b(?:(?:npm|pnpm|bun)\s+(?:install|i|add)|yarn\s+add|pip3?\s+install|uv\s+(?:add|pip\s+install)|poetry\s+add|cargo\s+add|go\s+get|gem\s+install|bundle\s+add)\b/;

export function classifyCommand(command: string): CommandKind {
  if (COMMIT.test(command)) return 'commit';
  if (TEST.test(command)) return 'test';
  if (LINT.test(command)) return 'lint';
  if (INSTALL.test(command)) return 'install';
  if (BUILD.test(command)) return 'build';
  return 'other';
}

/** The message of a `git commit -m "…"` (also the heredoc form Claude Code uses). */
export function commitMessage(command: string): string | null {
  const heredoc = /<<\s*'?(\w+)'?\s*\n([\s\S]*?)\n\s*\1/.exec(command);
  if (heredoc?.[2]) return heredoc[2].trim().split('\n')[0]?.trim() ?? null;
  const m = /\s-(?:a?m|-message)\s*(?:=\s*)?(["'])((?:(?!\1)[\s\S])*)\1/.exec(command);
  if (m?.[2]) return m[2].trim().split('\n')[0]?.trim() ?? null;
  return null;
}

/** Packages a dependency command adds (flags dropped). */
export function installedPackages(command: string): string[] {
  const m =
    /\b(?:npm\s+(?:install|i|add)|pnpm\s+(?:add|install|i)|bun\s+(?:add|install|i)|yarn\s+add|pip3?\s+install|uv\s+add|uv\s+pip\s+install|poetry\s+add|cargo\s+add|go\s+get|gem\s+install|bundle\s+add)\s+([^&|;\n]*)/.exec(
      command,
    );
  if (!m?.[1]) return [];
  return m[1]
    .split(/\s+/)
    .filter((w) => w !== '' && !w.startsWith('-') && !w.startsWith('<') && !/^\d/.test(w))
    .slice(0, 8);
}

export interface TestCounts {
  passed: number | null;
  failed: number | null;
}

/** "14 passed", "1 failed", "Tests: 1 failed, 13 passed", pytest's "3 passed, 1 failed in 0.2s". */
export function testCounts(output: string): TestCounts {
  const last = (re: RegExp): number | null => {
    let value: number | null = null;
    for (const m of output.matchAll(re)) value = Number(m[1]);
    return value;
  };
  return {
    passed: last(/(\d+)\s+(?:tests?\s+)?pass(?:ed|ing)?\b/gi),
    failed: last(/(\d+)\s+(?:tests?\s+)?fail(?:ed|ing|ures?)?\b/gi),
  };
}

/** Whether captured output says the command failed (PostToolUse carries no exit code). */
export function outputLooksFailed(kind: CommandKind, output: string): boolean {
  if (kind === 'test') {
    const counts = testCounts(output);
    if (counts.failed !== null) return counts.failed > 0;
    return /\bFAIL\b|\bFAILED\b|✕|AssertionError/.test(output);
  }
  if (kind === 'build' || kind === 'lint')
    return /\berror\b(?!s? ?[:=]? ?0\b)|\bERR!|✖ \d+ problem/i.test(output);
  return false;
}

/** The first line of an error text that says what went wrong. */
export function errorHeadline(text: string): string {
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !/^exit code \d+$/i.test(l));
  const telling =
    lines.find((l) => /\b\w*(?:Error|Exception)\b:|^error\b|\bfatal\b|panic:/i.test(l)) ??
    lines.find((l) => /error|exception|fail|cannot|can't|not found|denied|refused|✕|traceback/i.test(l));
  return (telling ?? lines[0] ?? text.trim()).slice(0, 200);
}
