/**
 * What a failed command's output says went wrong, read the way each tool prints it: compiler and
 * linter diagnostics (tsc, Biome, ESLint, golangci-lint/go vet/gcc style, ruff/flake8, mypy, rustc,
 * RuboCop, Credo), failing tests with their first error line, exceptions, shell errors — errors before
 * warnings. The telling line becomes a failure's symptom; the rule it names (`noctx`,
 * `lint/suspicious/noAssignInExpressions`, `no-unused-vars`) says it is a tool's rule; its class says
 * whether the failure is a wrong result (an assertion), the setup, a rule, the compiler, or a crash.
 */
import { failingTests, testSummary } from './test-summary.ts';
import { meaningfulLines, stripAnsi } from './terminal-output.ts';
import { stripHostMarkup } from './text.ts';

export interface Diagnostic {
  message: string;
  /** The rule or error code it names (`noctx`, `TS2769`, `lint/suspicious/noAssignInExpressions`). */
  rule: string;
  file: string;
  /** The offending code line, when the tool showed it. */
  snippet: string;
  severity: 'error' | 'warning';
}

export type ErrorClass = 'assertion' | 'setup' | 'rule' | 'compile' | 'runtime';

export interface Telling {
  /** The line that says what went wrong (cleaned). */
  line: string;
  /** The failing test it came from, when a test run failed. */
  test?: string;
  rule: string;
  file: string;
  snippet: string;
}

const BIOME_HEADER =
  /^(\S+?)(?::(\d+):(\d+))? ((?:lint|assist|format|parse|check)(?:\/[\w/]+)?|[a-z]+\/[a-z]+\/\w+)\s*(?:FIXABLE)?\s*[━─]*$/;
const SEVERITY = /^(?:([✖×✘⨯])|([!⚠])|[ℹi])\s+(.+)$/;

function biome(lines: readonly string[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (let i = 0; i < lines.length; i++) {
    const h = BIOME_HEADER.exec(lines[i] as string);
    if (!h) continue;
    let message = '';
    let severity: Diagnostic['severity'] = 'error';
    let snippet = '';
    for (let j = i + 1; j < Math.min(lines.length, i + 14); j++) {
      const l = lines[j] as string;
      if (BIOME_HEADER.test(l)) break;
      const s = SEVERITY.exec(l);
      if (s && message === '') {
        message = (s[3] as string).trim();
        severity = s[2] ? 'warning' : 'error';
        continue;
      }
      const code = /^>\s*\d+\s*│\s?(.*)$/.exec(l);
      if (code && snippet === '') snippet = (code[1] as string).trim();
    }
    if (message !== '') out.push({ message, rule: h[4] as string, file: h[1] as string, snippet, severity });
  }
  return out;
}

/** Credo's issue categories, by the letter it prints. */
const CREDO_CATEGORY: Record<string, string> = {
  C: 'consistency',
  D: 'design',
  F: 'refactor',
  R: 'readability',
  W: 'warning',
};

function lineBased(lines: readonly string[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  let eslintFile = '';
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i] as string;
    let m: RegExpExecArray | null;
    if (
      (m = /^(\S+?)\((\d+),(\d+)\): error (TS\d+): (.+)$/.exec(l)) ??
      (m = /^(\S+?):(\d+):(\d+) - error (TS\d+): (.+)$/.exec(l))
    ) {
      out.push({
        message: m[5] as string,
        rule: m[4] as string,
        file: m[1] as string,
        snippet: '',
        severity: 'error',
      });
      continue;
    }
    if ((m = /^error (TS\d+): (.+)$/.exec(l))) {
      out.push({ message: m[2] as string, rule: m[1] as string, file: '', snippet: '', severity: 'error' });
      continue;
    }
    if ((m = /^(error|warning)(?:\[(E\d+|[\w:]+)\])?: (.+)$/.exec(l)) && lines[i + 1]?.startsWith('-->')) {
      const at = /-->\s*(\S+?):\d+/.exec(lines[i + 1] ?? '');
      out.push({
        message: m[3] as string,
        rule: m[2] ?? '',
        file: at?.[1] ?? '',
        snippet: '',
        severity: m[1] === 'error' ? 'error' : 'warning',
      });
      continue;
    }
    if (
      /^(?:\/|\.{0,2}\/)?[\w@./-]+\.\w+$/.test(l) &&
      /^\s*\d+:\d+\s+(?:error|warning)\s/.test(lines[i + 1] ?? '')
    ) {
      eslintFile = l;
      continue;
    }
    if ((m = /^(\d+):(\d+)\s+(error|warning)\s+(.+?)\s{2,}(@?[\w/-]+)$/.exec(l))) {
      out.push({
        message: m[4] as string,
        rule: m[5] as string,
        file: eslintFile,
        snippet: '',
        severity: m[3] === 'error' ? 'error' : 'warning',
      });
      continue;
    }
    // Dialyzer: `file:line:col:warning_name`, its message on the next line (or after it, with
    // `--format short`).
    if (
      (m =
        /^((?:\.{0,2}\/)?[\w@.+-]+(?:\/[\w@.+-]+)*\.\w+):(\d+)(?::\d+)?:([a-z]+(?:_[a-z]+)+)(?:\s+(.+))?$/.exec(
          l,
        ))
    ) {
      const message = m[4] ?? lines[i + 1] ?? '';
      if (/[A-Za-z]{2,}/.test(message)) {
        out.push({ message, rule: m[3] as string, file: m[1] as string, snippet: '', severity: 'error' });
        continue;
      }
    }
    // Credo: `[F] → Function is too complex …`, then the place (`file:line:col #(Module.fun)`).
    if (
      (m = /^\[([A-Z])\]\s+[→↗↘↑↓]\s+(.+)$/.exec(l)) &&
      /^(?:\.{0,2}\/)?[\w@.+-]+(?:\/[\w@.+-]+)*\.\w+:\d+/.test(lines[i + 1] ?? '')
    ) {
      out.push({
        message: m[2] as string,
        rule: CREDO_CATEGORY[m[1] as string] ?? '',
        file: /^(\S+?):\d+/.exec(lines[i + 1] ?? '')?.[1] ?? '',
        snippet: '',
        // Style and design advice: a compiler's or type checker's error in the same output comes first.
        severity: 'warning',
      });
      continue;
    }
    if (
      (m = /^((?:\.{0,2}\/)?[\w@.+-]+(?:\/[\w@.+-]+)*\.\w+):(\d+)(?::(\d+))?:\s*(.+)$/.exec(l)) &&
      /[A-Za-z]{2,}.*\s/.test(m[4] as string)
    ) {
      let text = (m[4] as string).trim();
      let severity: Diagnostic['severity'] = 'error';
      let rule = '';
      const level = /^(error|warning|note|fatal error|[EWCFR]):\s*(.+)$/.exec(text);
      if (level) {
        if (/^(?:warning|note|[WC])$/.test(level[1] as string)) severity = 'warning';
        text = level[2] as string;
      }
      const trailing = /^(.+?)\s+\(([\w-]+)\)$/.exec(text) ?? /^(.+?)\s+\[([\w-]+)\]$/.exec(text);
      const leading = /^([A-Z]{1,4}\d{2,4}|[A-Z][a-z]+\/[A-Z]\w+):?\s+(.+)$/.exec(text);
      if (trailing) [, text, rule] = trailing as unknown as [string, string, string];
      else if (leading) [, rule, text] = leading as unknown as [string, string, string];
      if (/^\d+:\d+/.test(text)) continue;
      const next = lines[i + 1] ?? '';
      const snippet = /^\S+\.\w+:\d+/.test(next) || /^\^/.test(next) ? '' : next.length <= 160 ? next : '';
      out.push({
        message: text,
        rule: rule ?? '',
        file: m[1] as string,
        snippet: rule ? snippet.replace(/\s+\^+$/, '') : '',
        severity,
      });
      continue;
    }
    if ((m = /^(error|warning): (.+)$/.exec(l))) {
      // Elixir prints the message, a code frame, then `└─ file:line: …`.
      const at = lines
        .slice(i + 1, i + 9)
        .map((x) => /^└─ (\S+?):\d+/.exec(x)?.[1])
        .find(Boolean);
      if (at) {
        const frame = lines
          .slice(i + 1, i + 6)
          .map((x) => /^\d+\s*│\s?(.+)$/.exec(x)?.[1])
          .find(Boolean);
        out.push({
          message: m[2] as string,
          rule: '',
          file: at,
          snippet: frame?.trim() ?? '',
          severity: m[1] === 'error' ? 'error' : 'warning',
        });
        continue;
      }
    }
    // A shell script's own error: `path/to/script.sh: line 16: NAME: unbound variable`.
    if ((m = /^((?:\.{0,2}\/)?[\w@.+-]+(?:\/[\w@.+-]+)*): line (\d+): (.+)$/.exec(l))) {
      out.push({ message: m[3] as string, rule: '', file: m[1] as string, snippet: '', severity: 'error' });
      continue;
    }
    if ((m = /^\*\* \((\w+)\) (.+)$/.exec(l))) {
      out.push({ message: `${m[1]}: ${m[2]}`, rule: '', file: '', snippet: '', severity: 'error' });
      continue;
    }
    if ((m = /^((?:Unused|Unlisted|Unresolved|Duplicate) [\w ]+) \((\d+)\)$/.exec(l))) {
      const item = (lines[i + 1] ?? '').split(/\s{2,}/)[0] ?? '';
      out.push({
        message: `${m[1]}: ${item}`.trim(),
        rule: m[1] as string,
        file: '',
        snippet: '',
        severity: 'error',
      });
    }
  }
  return out;
}

/**
 * Line breaks a script printed as the two characters `\n` (an `echo` without `-e`): real ones, so
 * each line is read on its own. Only where a line could start after it (another break, a capital, a
 * bracket, the end) and not right after a quote: a string in code (`indexOf("\n\n")`) and a
 * Windows path (`C:\new`) stay as they are.
 */
const literalNewlines = (text: string) => text.replace(/(?<!["'`(])\\n(?=\\n|\[|[A-Z]|$)/gm, '\n');

/** Every diagnostic the output shows, errors and warnings, in order. */
export function diagnostics(output: string): Diagnostic[] {
  const lines = stripAnsi(literalNewlines(stripHostMarkup(output)))
    .split('\n')
    // Credo draws its report in a heavy-ruled margin (`┃ [F] → …`).
    .map((l) => l.replace(/^\s*┃\s?/, '').trim())
    .filter((l) => l !== '');
  return [...biome(lines), ...lineBased(lines)];
}

/** A line that says something went wrong (for output with no diagnostics). */
const STRONG =
  /\b\w*(?:Error|Exception)\b:|^error\b|^fatal\b|\berror TS\d+|panic:|panicked at|\bcommand not found\b|\bunbound variable\b|\bNo such file or directory\b|\bPermission denied\b|^ERROR\b|npm ERR!|^npm error\b|\bno matches found\b|\bcannot find\b/i;
const WEAK =
  /error|exception|fail|cannot|can't|not found|denied|refused|✕|traceback|no such|invalid|unrecognized|unknown/i;

/**
 * A line that only says a step run by another tool failed (a build step, a make target, a script run
 * by npm): what went wrong is in that step's own output, printed before it.
 */
const WRAPPER =
  /did not complete successfully|returned a non-zero (?:exit )?(?:code|status)|\bexit(?:ed)? (?:with )?(?:code|status):? \d+|\bmake(?:\[\d+\])?: \*\*\*|\bELIFECYCLE\b|\bcommand failed with exit code\b|^ERROR \[[^\]]*\] RUN\b|\bprocess completed with exit code\b|^Error: Process completed/i;
/** The prefixes a tool puts before the lines of a step it runs: a build step's time (`158.5 `), `#8 `, `=> `. */
const STEP_PREFIX = /^(?:=>\s+|#\d+\s+|\d+(?:\.\d+)?\s+|\[[^\]]{1,40}\]\s+)+/;

/** The first line of an error text that says what went wrong. */
export function errorHeadline(text: string): string {
  const lines = meaningfulLines(literalNewlines(stripHostMarkup(text)));
  const telling = lines.find((l) => STRONG.test(l) && !WRAPPER.test(l)) ?? lines.find((l) => STRONG.test(l));
  if (telling !== undefined && WRAPPER.test(telling)) {
    // Only a wrapper's verdict: the step's own first error, printed before it, says what went wrong.
    const inner = lines
      .slice(0, lines.indexOf(telling))
      .map((l) => l.replace(STEP_PREFIX, ''))
      .find((l) => STRONG.test(l) && !WRAPPER.test(l));
    if (inner) return inner.slice(0, 200);
  }
  const found = telling ?? lines.find((l) => WEAK.test(l));
  if (found === undefined) {
    const inner = lines.map((l) => l.replace(STEP_PREFIX, '')).find((l) => STRONG.test(l));
    if (inner) return inner.slice(0, 200);
  }
  return (found ?? lines[0] ?? stripAnsi(text).trim()).slice(0, 200);
}

/** The first error of a test run that failed: the failing test and the first error line after it. */
function testFailure(output: string): { test: string; error: string } | null {
  const summary = testSummary(output);
  if (!summary || summary.failed === 0) return null;
  const names = failingTests(output, 1);
  const lines = meaningfulLines(output);
  const from = names[0]
    ? Math.max(
        0,
        lines.findIndex((l) => l.includes(names[0] as string)),
      )
    : 0;
  const telling = (l: string) =>
    /\b\w*(?:Error|Exception)\b:?|^E\s{2,}|\bexpected\b|\bwant\b|\bassert/i.test(l);
  // pytest's short summary puts the error on the same line: `FAILED path::test - ValueError: bad`.
  const inline = / - (.+)$/.exec(lines[from] ?? '')?.[1];
  const error =
    (inline && telling(inline) ? inline : undefined) ??
    lines.slice(from).find((l) => telling(l) && !/^(?:FAIL|---)/.test(l)) ??
    // The runner listed the failing test after its details (RSpec's `rspec ./spec/…` lines).
    lines.slice(0, from).find((l) => telling(l) && !/^(?:FAIL|---)/.test(l)) ??
    '';
  return { test: names[0] ?? '', error: error.replace(/^E\s+/, '') };
}

/** What a failed run's output says went wrong: its first error diagnostic, failing test, or error line. */
export function tellingLine(output: string, purpose = ''): Telling {
  const test = testFailure(output);
  const fromTest =
    test && (test.error || test.test)
      ? {
          // Elixir's raise (`** (RuntimeError) msg`) as every other runtime's `RuntimeError: msg`.
          line: (test.error || test.test).replace(/^\*\*\s*\(([\w.]+)\)\s*/, '$1: ').slice(0, 240),
          test: test.test,
          rule: '',
          file: '',
          snippet: '',
        }
      : null;
  if (purpose === 'test' && fromTest) return fromTest;
  // git's own line for a ref the remote refused says why ("! [rejected] main -> main (fetch first)"),
  // where its "error: failed to push some refs" says only that.
  const rejected = purpose === 'push' ? /^\s*!\s*\[(?:remote )?rejected\]\s+(.+)$/m.exec(output) : null;
  if (rejected?.[1])
    return { line: `rejected: ${rejected[1].trim()}`.slice(0, 240), rule: '', file: '', snippet: '' };
  const found = diagnostics(output);
  // Errors first; a run that failed on warnings (`--warnings-as-errors`, RuboCop's conventions) by them
  // — unless the output counts errors it does not show (a pre-commit's type checker cut short by the
  // host: "Total errors: 11"): then a linter's advice beside them is not what failed.
  const error = found.find((x) => x.severity === 'error');
  const counted = error ? undefined : ERRORS_COUNTED.exec(output)?.[0]?.trim();
  const d = error ?? (counted ? undefined : found[0]);
  if (d) {
    const rule = d.rule && !d.message.includes(d.rule) ? `${d.rule}: ` : '';
    return { line: `${rule}${d.message}`.slice(0, 240), rule: d.rule, file: d.file, snippet: d.snippet };
  }
  if (fromTest) return fromTest;
  if (counted) return { line: counted.slice(0, 240), rule: '', file: '', snippet: '' };
  return { line: errorHeadline(output), rule: '', file: '', snippet: '' };
}

/** A checker's count of the errors it found, on a line of its own ("Total errors: 11, Skipped: 0"). */
const ERRORS_COUNTED =
  /^.*\b(?:total errors:\s*[1-9]\d*|[1-9]\d* errors? (?:found|generated|emitted)\b).*$/im;

/** Whether an error's telling line is only a count of errors the output did not show: no symptom. */
export const isErrorCount = (line: string): boolean =>
  ERRORS_COUNTED.test(line) && diagnostics(line).length === 0;

/**
 * A message that names no symptom: a build's progress line the output ended on (`Compiling foo v0.1.1`,
 * the tail a pipe kept) or a bare "failed". A gotcha needs the symptom.
 */
export const namesNoSymptom = (line: string): boolean => {
  const l = line.trim();
  return (
    /^\W*(?:\d+\s+)?(?:Compiling|Downloading|Downloaded|Building|Checking|Fetching|Updating|Installing|Resolving|Running|Finished|Blocking|Locking|Adding|Bundling|Transforming|Collecting|Preparing)\b/.test(
      l,
    ) || /^(?:\W*(?:failed|error|exit code \d+)\W*)?$/i.test(l)
  );
};

/** A test that ran and found the code wrong. */
const ASSERTION =
  /AssertionError|Assertion (?:with|failed)|\bassert(?:ion)?\b.*\bfailed\b|expected \S+ to (?:be|equal|have|contain|match)\b|\btoBe\b|\btoEqual\b|\bExpected\b.*\bReceived\b|\bwant\b.*\bgot\b|\bexpected\b[^.]*\bgot\b|\bgot\b.*\bwant\b|^---\s*FAIL|^E\s+assert/i;
/** What a setup problem says: something missing, undefined, unconfigured, unreachable or refused. */
const SETUP =
  /\bnot (?:defined|found|installed|configured|set|supported|available|running|a valid)\b|\bundefined (?:function|method|reference|module)\b|\b(?:cannot|can't|could not|couldn't|unable to) (?:find|resolve|import|load|connect|open|locate|access|determine|run interactively)|\bnot a (?:terminal|tty)\b|\bno tty\b|\bno such (?:file|module|command|table|host)|\bmissing\b|\brequires?\b|\bconfiguration\b|\bno upstream\b|ECONNREFUSED|EADDRINUSE|ENOENT|EACCES|\bpermission denied\b|command not found|\bunknown (?:option|command|flag|argument|key)\b|\bunrecognized (?:key|option|argument|flag|arguments)|\binvalid (?:option|key|configuration|config)\b|\bis not a function\b|ModuleNotFoundError|ImportError|\bfailed to (?:load|resolve|connect)\b|\bdaemon\b|\bincompatible (?:with|versions?|peer)\b|doesn't exist|does not exist|\bnot supported\b|\bunbound variable\b|\balready (?:used|in use|exists)\b|\bare ignored by\b|\bnot a git repository\b|\bno (?:main )?module\b|\bcannot find main module\b/i;
const COMPILE =
  /\bundefined variable\b|\bTS\d{4}\b|^E\d{4}\b|\berror\[E\d+\]|\bundefined:|\bcannot use\b|\bSyntaxError\b|\bis not assignable\b|\bNo overload matches\b|\bhas no (?:attribute|member|property)\b|\bdoes not exist on type\b|\bmismatched types\b|\bunexpected token\b|\bIndentationError\b|\bCompileError\b/i;

/** Whether an error is about the setup (imports, dependencies, config, services, flags), not a wrong result. */
export function isSetupError(message: string): boolean {
  return !ASSERTION.test(message) && SETUP.test(message);
}

/** The kind of error a failure shows (see `ErrorClass`). */
export function errorClass(t: Pick<Telling, 'line' | 'rule'>, purpose: string): ErrorClass {
  // A compiler's coded error is about the code ("Property 'x' is missing in type …"), unless it says
  // a module or package is missing.
  if (
    /^TS\d+$|^E\d+$/.test(t.rule) &&
    !/cannot find (?:module|package|crate)|unresolved import/i.test(t.line)
  )
    return 'compile';
  if (isSetupError(t.line)) return 'setup';
  // A typechecker's or compiler's error codes (mypy's `[assignment]`, TS2322) name no tool rule.
  const compiler = purpose === 'typecheck' || purpose === 'build' || /^TS\d+$|^E\d+$/.test(t.rule);
  if (t.rule !== '' && !compiler) return 'rule';
  if (t.rule !== '' && compiler) return 'compile';
  if (COMPILE.test(t.line) || /^TS\d+$|^E\d+$/.test(t.rule)) return 'compile';
  // A test run that failed for any other reason found the code under test wrong.
  if (purpose === 'test' || ASSERTION.test(t.line)) return 'assertion';
  return 'runtime';
}

/** A command line the output suggests running (git's "use\n\n    git push --set-upstream …"). */
export function hintOf(output: string): string {
  const lines = stripAnsi(output)
    .split('\n')
    .map((l) => l.trim());
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const inline =
      /\b(?:run|use|try|install with|please run)\b[^`'"\n]*[`'"]([a-z][\w .:/@=-]{3,100})[`'"]/i.exec(line);
    if (inline?.[1] && !/^(?:git (?:rebase|config)|hint)/.test(inline[1])) return inline[1].trim();
    if (/(?:\buse|\brun|following command[^:\n]*|\btry)\s*:?\s*$/i.test(line)) {
      const next = lines.slice(i + 1, i + 4).find((l) => l !== '');
      const cmd = next?.replace(/^[║|>$\s]+|[║|\s]+$/g, '') ?? '';
      if (/^(?:[a-z][\w.-]*)(?:\s+\S+){1,8}$/.test(cmd)) return cmd;
    }
  }
  return '';
}
