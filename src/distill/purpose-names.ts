/**
 * The purposes a command can have, and a task runner's task judged by its own name (`test:unit`,
 * `fmt`, `check`, `db:migrate`): shared by the command resolvers.
 */

export type Purpose =
  | 'test'
  | 'build'
  | 'lint'
  | 'typecheck'
  | 'format'
  | 'gate'
  | 'run'
  | 'migrate'
  | 'install'
  | 'uninstall'
  | 'commit'
  | 'push'
  | 'deploy'
  | 'inspect'
  | 'other';

/** Checks: their latest run says whether the code is in a good state. */
export const CHECKS: ReadonlySet<Purpose> = new Set(['test', 'build', 'lint', 'typecheck', 'format', 'gate']);

export interface Resolved {
  purpose: Purpose;
  /** What runs, named plainly: `pytest`, `npm run lint`, `go test`, `mise run fmt`, `git commit`. */
  tool: string;
  /** The task runner's task (`lint` of `npm run lint`), '' when none. */
  task: string;
  /** The command's own words, wrappers removed (`pytest -x tests/`). */
  words: string[];
  /** A directory the command was told to work in (`git -C dir`, `npm --prefix dir`, `make -C dir`). */
  dir: string | null;
  /** Which tests: `e2e`, `integration`, or '' for the main suite. */
  suite: string;
  /** A throwaway program: inline code (`python -c`, `go run /dev/stdin`) or a script run directly. */
  adhoc: boolean;
  /** The script file an interpreter runs (`node scripts/check.mjs`), or the program run by its path. */
  script: string;
}

/**
 * A task runner's task by its own name: `test`, `test:unit`, `lint:fix`, `fmt`, `typecheck`,
 * `check`/`ci` (the project's gate), `dev`/`start` (run), `db:migrate`, `deploy`, `setup`…
 */
export function purposeOfTask(name: string): Purpose {
  const segments = name
    .toLowerCase()
    .split(/[:_\-./\s]+/)
    .filter(Boolean);
  if (segments.length === 0) return 'other';
  const generic = /^(?:check|ci|run|do|task|npm|db|dev|all|local)$/;
  const joined = segments.join('-');
  if (/^(?:format|fmt|prettier|style)-(?:check|verify|lint)$|^(?:check|lint)-(?:format|fmt)$/.test(joined))
    return 'lint';
  const first = segments[0] as string;
  const pick = generic.test(first) && segments[1] ? (segments[1] as string) : first;
  const of = (w: string): Purpose | null => {
    if (
      /^(?:tests?|t|specs?|e2e|unit|integration|it|acceptance|system|jest|vitest|pytest|rspec|cov(?:erage)?|bats)$/.test(
        w,
      )
    )
      return 'test';
    if (/^(?:typecheck|types?|tsc|typings|mypy|pyright|dialyzer|sorbet)$/.test(w)) return 'typecheck';
    if (/^(?:lint|linter|eslint|clippy|credo|vet|golangci|rubocop|stylelint|knip|audit|analy[sz]e)$/.test(w))
      return 'lint';
    if (/^(?:fmt|format|prettier|prettify|beautify|gofmt)$/.test(w)) return 'format';
    if (/^(?:build|compile|bundle|dist|package|assemble|generate|gen|codegen|prebuild)$/.test(w))
      return 'build';
    if (/^(?:start|serve|server|preview|watch|up|s)$/.test(w)) return 'run';
    if (/^(?:migrate|migrations?|push)$/.test(w)) return first === 'git' ? 'push' : 'migrate';
    if (/^(?:deploy|release|publish|ship)$/.test(w)) return 'deploy';
    if (/^(?:install|setup|bootstrap|deps|i)$/.test(w)) return 'install';
    if (/^(?:check|checks|ci|verify|validate|precommit|pre-commit|prepush|qa|all|preflight|ready)$/.test(w))
      return 'gate';
    return null;
  };
  if (first === 'dev' && segments.length === 1) return 'run';
  return of(pick) ?? (pick !== first ? of(first) : null) ?? 'other';
}

/** Flags of task runners and package managers whose value follows them. */
const RUNNER_VALUE_FLAGS =
  /^(?:-C|--prefix|--cwd|--dir|--directory|--project|--filter|-F|-w|--workspace|--config|-f|--file|--makefile|--manifest-path|-j|--jobs|--profile|--justfile)$/;

export const positional = (words: readonly string[], from: number): string[] => {
  const out: string[] = [];
  for (let i = from; i < words.length; i++) {
    const x = words[i] as string;
    if (x === '--') break;
    if (x.startsWith('-')) {
      if (RUNNER_VALUE_FLAGS.test(x)) i++;
      continue;
    }
    if (/^[A-Za-z_]\w*=/.test(x)) continue;
    out.push(x);
  }
  return out;
};

export const isVersionOrHelp = (rest: readonly string[]) =>
  rest.length > 0 && rest.every((x) => /^(?:-v|-V|--version|version|-h|--help|help)$/.test(x));

/** What a resolver says a command is. */
export interface Judged {
  purpose: Purpose;
  tool: string;
  task?: string;
  adhoc?: boolean;
  script?: string;
}
