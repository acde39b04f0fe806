/**
 * A test run judged by its runner's own summary line, parsed per runner — never by searching the
 * output for the word "failed" (a passing suite whose tests log "failed to connect" passes). Runners:
 * vitest, jest, pest/phpunit, pytest, unittest, go test, cargo test, mocha, RSpec, minitest, ExUnit,
 * bats, node --test (TAP and spec), bun, deno, dotnet, ctest, XCTest, Playwright. Also which tests
 * failed, and whether the run tested nothing at all.
 */
import { stripAnsi } from './terminal-output.ts';

export interface TestSummary {
  runner: string;
  passed: number;
  failed: number;
}

type Parser = (text: string) => TestSummary | null;

const num = (s: string | undefined) => (s === undefined ? 0 : Number(s));

/** "1 failed | 5 passed", "1 failed, 20 passed, 21 total", "3 passed, 1 error": counts by word. */
function countsIn(phrase: string): { passed: number; failed: number } | null {
  let passed = 0;
  let failed = 0;
  let any = false;
  for (const m of phrase.matchAll(
    /(\d+)\s+(passed|passing|pass|failed|failing|fail|failures?|errors?|broken)\b/gi,
  )) {
    any = true;
    if (/^pass/i.test(m[2] as string)) passed += Number(m[1]);
    else failed += Number(m[1]);
  }
  return any ? { passed, failed } : null;
}

const parsers: [string, Parser][] = [
  [
    'cargo',
    (t) => {
      const all = [...t.matchAll(/^test result: (?:ok|FAILED)\. (\d+) passed; (\d+) failed/gm)];
      if (all.length === 0) return null;
      return {
        runner: 'cargo',
        passed: all.reduce((n, m) => n + num(m[1]), 0),
        failed: all.reduce((n, m) => n + num(m[2]), 0),
      };
    },
  ],
  [
    'go',
    (t) => {
      const fails = (t.match(/^\s*--- FAIL: /gm) ?? []).length;
      const passes = (t.match(/^\s*--- PASS: /gm) ?? []).length;
      const okPkgs = (t.match(/^ok\s+\S+\s+(?:[\d.]+s|\(cached\))/gm) ?? []).length;
      const failPkgs = (t.match(/^FAIL\s+\S+\s+(?:[\d.]+s|\[build failed\]|\[setup failed\])/gm) ?? [])
        .length;
      const bare = /^(?:PASS|FAIL)$/m.test(t) && /^=== RUN /m.test(t);
      if (fails + passes + okPkgs + failPkgs === 0 && !bare) return null;
      const failed = Math.max(fails, failPkgs, /^FAIL$/m.test(t) ? 1 : 0);
      return { runner: 'go', passed: Math.max(passes, okPkgs), failed };
    },
  ],
  [
    'vitest',
    (t) => {
      const m = [...t.matchAll(/^\s*Tests\s{2,}(.+?)\s*\((\d+)\)\s*$/gm)].pop();
      const c = m ? countsIn(m[1] as string) : null;
      return c ? { runner: 'vitest', ...c } : null;
    },
  ],
  [
    'jest',
    (t) => {
      const m = [...t.matchAll(/^\s*Tests:\s+(.+)$/gm)].pop();
      const c = m ? countsIn(m[1] as string) : null;
      return c ? { runner: 'jest', ...c } : null;
    },
  ],
  [
    'pytest',
    (t) => {
      const m =
        [...t.matchAll(/^=+ (.+?) in [\d.]+s(?: \([\d:.]+\))? =+$/gm)].pop() ??
        [
          ...t.matchAll(
            /^((?:\d+ (?:passed|failed|errors?|skipped|xfailed|xpassed|deselected|warnings?|rerun)(?:, )?)+) in [\d.]+s\b/gm,
          ),
        ].pop();
      const c = m ? countsIn(m[1] as string) : null;
      return c ? { runner: 'pytest', ...c } : null;
    },
  ],
  [
    'unittest',
    (t) => {
      const ran = /^Ran (\d+) tests? in [\d.]+s$/m.exec(t);
      if (!ran) return null;
      const bad = /^FAILED \(([^)]*)\)/m.exec(t);
      const failed = bad
        ? [...(bad[1] as string).matchAll(/(?:failures|errors)=(\d+)/g)].reduce((n, x) => n + num(x[1]), 0)
        : 0;
      return { runner: 'unittest', passed: num(ran[1]) - failed, failed };
    },
  ],
  [
    'exunit',
    (t) => {
      const m = [
        ...t.matchAll(
          /^(?:(\d+) doctests?, )?(?:(\d+) propert(?:y|ies), )?(\d+) (?:tests?|examples?), (\d+) failures?/gm,
        ),
      ].pop();
      if (!m) return null;
      const total = num(m[1]) + num(m[2]) + num(m[3]);
      return { runner: 'exunit', passed: total - num(m[4]), failed: num(m[4]) };
    },
  ],
  [
    'minitest',
    (t) => {
      const m = /^(\d+) runs, \d+ assertions, (\d+) failures, (\d+) errors/m.exec(t);
      return m
        ? { runner: 'minitest', passed: num(m[1]) - num(m[2]) - num(m[3]), failed: num(m[2]) + num(m[3]) }
        : null;
    },
  ],
  [
    'mocha',
    (t) => {
      const p = /^\s*(\d+) passing\b/m.exec(t);
      const f = /^\s*(\d+) failing\b/m.exec(t);
      return p || f ? { runner: 'mocha', passed: num(p?.[1]), failed: num(f?.[1]) } : null;
    },
  ],
  [
    'node',
    (t) => {
      const p = [...t.matchAll(/^(?:#|ℹ) pass (\d+)$/gm)].pop();
      const f = [...t.matchAll(/^(?:#|ℹ) fail (\d+)$/gm)].pop();
      return p || f ? { runner: 'node', passed: num(p?.[1]), failed: num(f?.[1]) } : null;
    },
  ],
  [
    'deno',
    (t) => {
      const m = /^(?:ok|FAILED) \| (\d+) passed(?: \([^)]*\))? \| (\d+) failed/m.exec(t);
      return m ? { runner: 'deno', passed: num(m[1]), failed: num(m[2]) } : null;
    },
  ],
  [
    'bun',
    (t) => {
      const p = /^\s*(\d+) pass$/m.exec(t);
      const f = /^\s*(\d+) fail$/m.exec(t);
      return p && f ? { runner: 'bun', passed: num(p[1]), failed: num(f[1]) } : null;
    },
  ],
  [
    'phpunit',
    (t) => {
      const ok = /^OK \((\d+) tests?, \d+ assertions?\)/m.exec(t);
      if (ok) return { runner: 'phpunit', passed: num(ok[1]), failed: 0 };
      const m = /^Tests: (\d+), Assertions: \d+(?:, Errors: (\d+))?(?:, Failures: (\d+))?/m.exec(t);
      return m
        ? { runner: 'phpunit', passed: num(m[1]) - num(m[2]) - num(m[3]), failed: num(m[2]) + num(m[3]) }
        : null;
    },
  ],
  [
    'dotnet',
    (t) => {
      const m = [...t.matchAll(/(?:Passed|Failed)!\s+-\s+Failed:\s+(\d+),\s+Passed:\s+(\d+)/g)];
      if (m.length > 0)
        return {
          runner: 'dotnet',
          passed: m.reduce((n, x) => n + num(x[2]), 0),
          failed: m.reduce((n, x) => n + num(x[1]), 0),
        };
      const total = /^\s*Total tests: \d+\s*\n\s*Passed: (\d+)(?:\s*\n\s*Failed: (\d+))?/m.exec(t);
      return total ? { runner: 'dotnet', passed: num(total[1]), failed: num(total[2]) } : null;
    },
  ],
  [
    'ctest',
    (t) => {
      const m = /(\d+)% tests passed, (\d+) tests? failed out of (\d+)/.exec(t);
      return m ? { runner: 'ctest', passed: num(m[3]) - num(m[2]), failed: num(m[2]) } : null;
    },
  ],
  [
    'xctest',
    (t) => {
      const m = [...t.matchAll(/Executed (\d+) tests?, with (\d+) failures?/g)].pop();
      return m ? { runner: 'xctest', passed: num(m[1]) - num(m[2]), failed: num(m[2]) } : null;
    },
  ],
  [
    'playwright',
    (t) => {
      const p = /^\s*(\d+) passed(?: \([\d.]+m?s\))?$/m.exec(t);
      const f = /^\s*(\d+) failed$/m.exec(t);
      return p || f ? { runner: 'playwright', passed: num(p?.[1]), failed: num(f?.[1]) } : null;
    },
  ],
];

/** The runner's own summary of a test run, or null when the output shows none. */
export function testSummary(output: string): TestSummary | null {
  const text = stripAnsi(output);
  for (const [, parse] of parsers) {
    const s = parse(text);
    if (s) return s;
  }
  return null;
}

const NOTHING_RAN =
  /\bno tests ran\b|\bNo tests found\b|\bcollected 0 items\b|^Ran 0 tests\b|\bNo test files found\b|\bNo test suite found\b|\bno test specs? found\b|^0 tests?, 0 failures|\bNo tests to run\b/im;

/** The run tested nothing (no tests matched, none collected). */
export function nothingTested(output: string, summary: TestSummary | null = testSummary(output)): boolean {
  if (summary) return summary.passed + summary.failed === 0;
  return NOTHING_RAN.test(stripAnsi(output));
}

/** The tests that failed, by name as the runner printed them (at most `max`). */
export function failingTests(output: string, max = 5): string[] {
  const text = stripAnsi(output);
  const names = [
    ...[...text.matchAll(/^\s*--- FAIL: (\S+)/gm)].map((m) => m[1]),
    ...[...text.matchAll(/^\s*FAIL\s+(\S+\s+>\s+.+?)\s*(?:\d+ms)?$/gm)].map((m) => m[1]),
    ...[...text.matchAll(/^\s*●\s+(.+?)\s*$/gm)].map((m) => m[1]),
    ...[...text.matchAll(/^FAILED (\S+::\S+)/gm)].map((m) => m[1]),
    ...[...text.matchAll(/^test (\S+) \.\.\. FAILED$/gm)].map((m) => m[1]),
    ...[...text.matchAll(/^rspec (\.\/\S+) #/gm)].map((m) => m[1]),
    ...[...text.matchAll(/^\s*\d+\) test (.+?) \(\S+\)$/gm)].map((m) => m[1]),
    ...[...text.matchAll(/^\s*[✘×]\s+\d*\s*(.+?)(?:\s+\([\d.]+m?s\))?$/gm)].map((m) => m[1]),
  ].filter((n): n is string => typeof n === 'string' && n.trim() !== '');
  return [...new Set(names.map((n) => n.trim()))].slice(0, max);
}
