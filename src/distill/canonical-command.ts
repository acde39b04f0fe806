/**
 * Shell lines → the commands a project is built, tested and run with. A line is split into its simple
 * commands (each judged on its own: `npm run build && npm test` is two runs); each loses what only
 * varies from run to run — redirections, filters it is piped into (`| tail -5`), environment prefixes,
 * output-only flags, single test files and `-- …` pass-through arguments — and keeps what makes it
 * the project's command (`mix test`, `npm run lint`, `mix compile --warnings-as-errors`). `cd dir &&`
 * says where it ran: a project folder, somewhere outside the project, or a scratch directory (`/tmp`,
 * `/var/folders`) whose failures and commits are not the project's. Each part gets a key — its
 * purpose, its suite or tool, its folder — under which a later run of the same purpose closes a
 * failure, whatever its spelling.
 */
import { resolveWords, PRIORITY, CHECKS, type Purpose } from './commands.ts';
import { innerShellLine, simpleCommands, type Joiner } from './shell-words.ts';
import { isSecretName } from '../core/secret-names.ts';
import { isScratchPath } from './text.ts';

export type { Purpose } from './commands.ts';

export type Where = 'project' | 'outside' | 'scratch';

export interface CommandPart {
  /** The simple command as written (without redirections and filters). */
  raw: string;
  /** The normalised command (`npm test`, `git push`, `mix credo --strict`). */
  canonical: string;
  purpose: Purpose;
  /** What runs (`pytest`, `npm run lint`, `go test`, `git commit`). */
  tool: string;
  /** The task runner's task, '' when none. */
  task: string;
  /** `e2e`, `integration`, or '' (tests only). */
  suite: string;
  /** What it was pointed at: a file, a test selector, a program (`inline` for inline code); '' for all. */
  target: string;
  /** How the run differed from the canonical form. */
  variant: 'plain' | 'single file' | 'filtered' | 'extra arguments';
  /** The folder it ran in: '' for the project root, a relative folder inside it, else the path. */
  dir: string;
  where: Where;
  /** Purpose key: runs with the same key are runs of the same thing (`test`, `test:e2e@web`, `run:go run`). */
  key: string;
  /** A throwaway program (inline code, a script run directly). */
  adhoc: boolean;
  /** The operator after it. */
  joiner: Joiner;
  /** Piped into a filter (`| tail`): its exit status is hidden. */
  filtered: boolean;
  /** Files it writes through a redirection (`> file`). */
  writes: string[];
  heredoc: boolean;
  /**
   * The script an interpreter runs, as a path from the project's root (`assets/build.js` for both
   * `node assets/build.js` and `cd assets && node build.js`); '' for none, or one outside the project.
   */
  script?: string;
}

const FILTERS = new Set(
  'tail head grep egrep rg less more tee sort uniq wc cat awk sed cut tr jq column nl fold'.split(' '),
);
/** Prefixes that change nothing about what runs. */
const TRANSPARENT = /^(?:sudo|time|nohup|command|exec|nice|caffeinate|chronic|stdbuf|unbuffer)$/;
/** Flags that only change how the output looks. */
const OUTPUT_FLAGS =
  /^(?:-v+|--verbose|-q+|--quiet|--silent|-s|--colou?r(?:=\S+)?|--no-colou?r|--reporter(?:=\S+)?|--max-diagnostics(?:=\S+)?|--tb=\S+|-x|--exitfirst|--bail(?:=\S+)?|--progress(?:=\S+)?|--pretty(?:=\S+)?|--no-pager|-rA|-ra|--ci|--run|--passWithNoTests|--count=1|-count=1)$/;
/** Flags whose value picks what to run (a test name, a pattern, a package). */
const SELECTORS =
  /^(?:-t|-k|-g|-m|-run|--run|--grep|--testNamePattern|--test-name-pattern|--only|--filter|--match|--testPathPattern|-p|--package|--spec|--example|-e)$/;
/** Markers that mean "everything" (`.`, `./...`). */
const WHOLE = /^(?:\.\/?|\.\/\.\.\.|\.\.\.|\.\/\*\*)$/;
const TOP_DIRS =
  /^(?:\.\/(?:tests?|spec|specs|src|lib|app|e2e|__tests__)\/?|(?:tests?|spec|specs|src|lib|app|e2e|__tests__)\/)$/;

const looksLikePath = (w: string) =>
  /[/\\]/.test(w) ||
  /\.(?:[cm]?[jt]sx?|exs?|py|rb|go|rs|java|kt|php|cs|swift|feature|vue|svelte)$/.test(w) ||
  /::|:\d+$/.test(w);

/** Where a folder is, against the project root: `''` the root, a relative folder inside, else absolute. */
function place(dir: string, cwd: string, root: string): { dir: string; where: Where } {
  const d = dir.replace(/^["']|["']$/g, '').replace(/\/+$/, '') || '/';
  const absolute = /^(?:\/|~|[A-Za-z]:[\\/]|\$HOME)/.test(d);
  if (!absolute) {
    if (/mktemp|\$\{?TMP/i.test(d)) return { dir: d, where: 'scratch' };
    const joined = (cwd === '' ? d : `${cwd}/${d}`).split('/');
    const out: string[] = [];
    for (const seg of joined) {
      if (seg === '' || seg === '.') continue;
      if (seg === '..') {
        if (out.length === 0) return { dir: d, where: 'outside' };
        out.pop();
      } else out.push(seg);
    }
    return { dir: out.join('/'), where: 'project' };
  }
  const r = root.replace(/\/+$/, '');
  if (r !== '' && d === r) return { dir: '', where: 'project' };
  if (r !== '' && d.startsWith(`${r}/`)) return { dir: d.slice(r.length + 1), where: 'project' };
  return { dir: d, where: isScratchPath(d, r) ? 'scratch' : 'outside' };
}

interface Normalised {
  canonical: string;
  target: string;
  variant: CommandPart['variant'];
}

const INTERPRETER = /^(?:python[\d.]*|py|node|ruby|php|perl|deno|bun|tsx|ts-node|bash|sh|zsh|elixir)$/;

function normalise(words: readonly string[], purpose: Purpose, coreStart: number): Normalised {
  let w = [...words];
  let core = coreStart;
  // Environment assignments and transparent prefixes say nothing about what runs.
  for (let guard = 0; guard < 6; guard++) {
    const head = w[0] ?? '';
    let drop = 0;
    if (/^[A-Za-z_]\w*=/.test(head) || TRANSPARENT.test(head)) drop = 1;
    else if ((head === 'env' || head === 'cross-env') && w.length > 1) drop = 1;
    else if (head === 'timeout') {
      let i = 1;
      while ((w[i] ?? '').startsWith('-')) i += /^(?:-s|-k|--signal|--kill-after)$/.test(w[i] ?? '') ? 2 : 1;
      drop = /^\d/.test(w[i] ?? '') ? i + 1 : i;
    }
    if (drop === 0 || drop > core) break;
    w = w.slice(drop);
    core -= drop;
  }
  if (w[0] === 'git') {
    const sub = w.find((x, i) => i > 0 && !x.startsWith('-') && w[i - 1] !== '-C' && w[i - 1] !== '-c') ?? '';
    return {
      canonical: `git ${sub}`.trim(),
      target: '',
      variant: w.length > 2 ? 'extra arguments' : 'plain',
    };
  }
  const kept: string[] = [];
  const targets: string[] = [];
  let variant: CommandPart['variant'] = 'plain';
  // An interpreter's script or module is the command itself (`python manage.py migrate`,
  // `python -m pytest`), not a file it runs on.
  const at = w.findIndex((x, i) => i >= core && INTERPRETER.test(x.split('/').pop() ?? ''));
  const module = at >= 0 && w[at + 1] === '-m' ? at + 2 : -1;
  let script = module >= 0 ? module : at >= 0 ? w.findIndex((x, i) => i > at && !x.startsWith('-')) : -1;
  if (at >= 0 && module < 0 && w.some((x, i) => i > at && /^-[a-zA-Z]*[ce]$|^--eval$/.test(x))) {
    targets.push('inline');
    script = -2;
  }
  for (let i = 0; i < w.length; i++) {
    const x = w[i] as string;
    if (script === -2 && i > at) break;
    if (i <= core || i === module - 1) {
      kept.push(x);
      continue;
    }
    if (x === '--') {
      const rest = w.slice(i + 1);
      const picked = rest.filter(
        (r, j) => !r.startsWith('-') && (looksLikePath(r) || SELECTORS.test(rest[j - 1] ?? '')),
      );
      if (picked.length > 0) targets.push(...picked);
      else if (rest.length > 0) variant = 'extra arguments';
      break;
    }
    if (OUTPUT_FLAGS.test(x)) continue;
    if (SELECTORS.test(x) && purpose !== 'install' && purpose !== 'uninstall') {
      if (w[i + 1] !== undefined) targets.push(w[i + 1] as string);
      i++;
      continue;
    }
    if (i === script) {
      kept.push(x);
      continue;
    }
    if (TOP_DIRS.test(x) && !WHOLE.test(x)) continue;
    if (!x.startsWith('-') && looksLikePath(x) && !WHOLE.test(x)) {
      targets.push(x === '/dev/stdin' ? 'inline' : x);
      continue;
    }
    kept.push(x);
  }
  if (targets.length > 0) variant = 'single file';
  return { canonical: kept.join(' '), target: [...new Set(targets)].join(' '), variant };
}

/** A path inside the project, from its root: `dir/script` with `.` and `..` resolved ('' if it leaves it). */
function fromRoot(dir: string, script: string): string {
  const out: string[] = [];
  for (const seg of `${dir}/${script}`.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg !== '..') out.push(seg);
    else if (out.pop() === undefined) return '';
  }
  return out.join('/');
}

function keyOf(p: Omit<CommandPart, 'key'>): string {
  const scope = p.dir !== '' ? `@${p.dir}` : '';
  if (CHECKS.has(p.purpose)) return `${p.purpose}${p.suite ? `:${p.suite}` : ''}${scope}`;
  if (p.purpose === 'commit' || p.purpose === 'push') return `${p.purpose}${scope}`;
  const tool = p.purpose === 'install' || p.purpose === 'uninstall' ? (p.tool.split(' ')[0] ?? '') : p.tool;
  return `${p.purpose}:${tool}${scope}`;
}

/**
 * The simple commands of a shell line, normalised, with their purpose, place and key. `start`: the
 * shell's working directory as the line began, where the host records it (the agent's shell keeps a
 * `cd` from one call to the next); the project root when not given.
 */
export function commandParts(line: string, root = '', start = ''): CommandPart[] {
  const out: CommandPart[] = [];
  const commands = simpleCommands(line);
  let cwd = start === '' ? { dir: '', where: 'project' as Where } : place(start, '', root);
  for (let i = 0; i < commands.length; i++) {
    const c = commands[i];
    if (!c) continue;
    const previous = commands[i - 1];
    if (previous?.joiner === '|' && FILTERS.has(c.words[0] ?? '') && out.length > 0) continue;
    const head = c.words[0] ?? '';
    if (head === 'cd' || head === 'pushd') {
      const to = c.words[1] ?? '~';
      cwd =
        to === '-'
          ? { dir: '~', where: 'outside' }
          : cwd.where === 'project' || /^[/~]/.test(to)
            ? place(to, cwd.where === 'project' ? cwd.dir : '', root)
            : cwd;
      continue;
    }
    const inner = innerShellLine(c.words);
    if (inner !== null) {
      for (const p of commandParts(inner, root))
        out.push(
          cwd.where === 'project' && cwd.dir === ''
            ? p
            : { ...p, dir: p.dir || cwd.dir, where: p.where === 'project' ? cwd.where : p.where },
        );
      continue;
    }
    const r = resolveWords(c.words);
    // Writing a file (`cat > x.go <<EOF`, `echo 1 > .env`) is not looking at one.
    if (r.purpose === 'inspect' && c.writes.some((f) => f !== '/dev/null')) r.purpose = 'other';
    const next = commands[i + 1];
    const filtered = c.joiner === '|' && next !== undefined && FILTERS.has(next.words[0] ?? '');
    let { dir, where } = cwd;
    if (r.dir) ({ dir, where } = place(r.dir, cwd.where === 'project' ? cwd.dir : '', root));
    const n = normalise(c.words, r.purpose, Math.max(0, c.words.length - r.words.length));
    const canonical = n.canonical;
    const target = n.target;
    // A throwaway pointed at a scratch path, or any script kept in a scratch directory (`node
    // /tmp/check_failed.mjs`, whatever its name says it does), works there: none of the project's checks.
    const scratchAt = (x: string) => /^\//.test(x) && isScratchPath(x, root);
    if (where === 'project' && (r.adhoc ? [target, ...r.words] : [r.script]).some(scratchAt))
      where = 'scratch';
    // Pointed at a scratch directory by its environment (`PROJECT_DIR=/tmp/x ./tool`), or only writing
    // there (`echo 1 > /tmp/x/.env`), a command works there.
    const written = c.writes.filter((f) => f !== '/dev/null');
    if (where === 'project' && written.length > 0 && written.every((f) => isScratchPath(f, root)))
      where = 'scratch';
    const env = c.words.filter((x) => /^[A-Za-z_]\w*=/.test(x)).map((x) => x.slice(x.indexOf('=') + 1));
    if (where === 'project' && env.some((v) => /^\//.test(v) && isScratchPath(v, root))) where = 'scratch';
    const part: Omit<CommandPart, 'key'> = {
      raw: c.text
        .replace(/\s*\d?>>?\s*&?\s*\S+/g, '')
        .replace(/\s*&>\s*\S+/g, '')
        .trim(),
      canonical,
      purpose: r.purpose,
      tool: r.tool,
      task: r.task,
      suite: r.suite,
      target,
      variant: n.variant === 'plain' && filtered ? 'filtered' : n.variant,
      dir,
      where,
      adhoc: r.adhoc,
      joiner: c.joiner,
      filtered,
      writes: c.writes,
      heredoc: c.heredoc,
      ...(where === 'project' && r.script && !r.adhoc && !/^[/~]/.test(r.script)
        ? { script: fromRoot(dir, r.script) }
        : {}),
    };
    out.push({ ...part, key: keyOf(part) });
  }
  return out;
}

/** The part of a line that says what it is (a test run in `mix compile && mix test x | tail`). */
export function mainPart(line: string, root = ''): CommandPart | null {
  let best: CommandPart | null = null;
  for (const p of commandParts(line, root)) {
    if (best === null || PRIORITY.indexOf(p.purpose) < PRIORITY.indexOf(best.purpose)) best = p;
  }
  return best;
}

/** The canonical form of a line (its main part), or the line itself collapsed when it has none. */
export function canonicalCommand(line: string): string {
  return mainPart(line)?.canonical ?? line.trim().replace(/\s+/g, ' ');
}

const PURPOSE_TEXT: Partial<Record<Purpose, string>> = {
  test: 'runs the tests',
  build: 'builds the project',
  lint: 'lints the code',
  typecheck: 'type-checks the code',
  format: 'formats the code',
  gate: 'runs the project\u2019s checks',
  run: 'runs the app',
  migrate: 'runs the database migrations',
  deploy: 'deploys',
  install: 'installs the dependencies',
};

/** "runs the tests", "builds the project"… */
export function purposeText(p: Purpose, suite = ''): string {
  if (p === 'test' && suite !== '') return `runs the ${suite} tests`;
  return PURPOSE_TEXT[p] ?? `is the ${p} command`;
}

/** Variables that only shape output or say where it runs, and names a secret may hide behind. */
const INCIDENTAL_ENV = /^(?:CI|FORCE_COLOR|NO_COLOR|TERM|COLUMNS|LINES|PAGER|GIT_PAGER|LANG|LC_\w+|TZ)$/;

/**
 * `command` with the environment assignments every run in `runs` was given, in the order written —
 * none when the runs differ, or only in what is incidental (colour, pager, locale) or secret-named.
 */
export function withEnvironment(command: string, runs: readonly { raw: string }[]): string {
  const envs = runs.map((r) =>
    (/^(?:[A-Za-z_]\w*=(?:'[^']*'|"[^"]*"|\S*)\s+)+/.exec(r.raw)?.[0] ?? '')
      .trim()
      .split(/\s+(?=[A-Za-z_]\w*=)/)
      .filter((a) => {
        const name = a.slice(0, a.indexOf('='));
        return name !== '' && !INCIDENTAL_ENV.test(name) && !isSecretName(name);
      })
      .join(' '),
  );
  const env = envs[0] ?? '';
  return env !== '' && envs.every((e) => e === env) ? `${env} ${command}` : command;
}
