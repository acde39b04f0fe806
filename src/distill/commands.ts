/**
 * What a simple shell command is for. Wrappers are seen through (`npx`, `bunx`, `uv run`, `bundle
 * exec`, `mise x`, `poetry run`, `timeout`, `env`, `FOO=1 …`, `docker compose exec svc …`), a module
 * run with `python -m` is the command itself (`python -m pytest` is pytest), and a task runner's task
 * is judged by its own name (`npm run typecheck`, `mise run fmt`, `just lint`, `make test`). The
 * tables of tools live in `tool-purposes.ts` and `ecosystem-purposes.ts`.
 */
import { byEcosystem } from './ecosystem-purposes.ts';
import {
  isVersionOrHelp,
  positional,
  purposeOfTask,
  type Judged,
  type Purpose,
  type Resolved,
} from './purpose-names.ts';
import { innerShellLine, simpleCommands } from './shell-words.ts';
import { byToolName, E2E_TOOLS } from './tool-purposes.ts';

export { CHECKS, purposeOfTask, type Purpose, type Resolved } from './purpose-names.ts';

const INSPECT = new Set(
  (
    'ls cat head tail grep egrep fgrep rg ag ack find fd pwd echo printf which whereis type wc tree ' +
    'file stat du df less more printenv whoami id uname hostname date sort uniq cut jq yq diff cmp ' +
    'realpath readlink dirname basename true false sleep ps pgrep lsof netstat ss test [ [[ xxd od ' +
    'hexdump strings awk column nl md5sum shasum sha256sum cd pushd popd history tput clear'
  ).split(' '),
);
const GIT_INSPECT =
  /^(?:status|log|diff|show|branch|remote|rev-parse|ls-files|ls-tree|blame|check-ignore|describe|reflog|shortlog|grep|cat-file|whatchanged|show-ref|for-each-ref|name-rev|merge-base|count-objects|var|help|version)$/;

const PACKAGE_MANAGERS = new Set(['npm', 'pnpm', 'yarn', 'bun']);
const INTERPRETERS = /^(?:python[\d.]*|py|node|ruby|php|perl|deno|bun|tsx|ts-node|bash|sh|zsh|elixir|lua)$/;

/** Flags that take a value (skipped with it when looking for the subcommand or task). */
const VALUE_FLAGS =
  /^(?:-C|--prefix|--cwd|--dir|--directory|--project|-f|--file|--filter|-w|--workspace|-p|--package|--config|-c|-e|--env|--with|--python|--group|--extra|-j|--jobs|-s|-k|--signal|--kill-after|-u|--user|-n|--name|-t|--target|--manifest-path|--profile|--features|--rcfile|--settings|-r|--require|--reporter)$/;

function dirFlag(words: readonly string[]): string | null {
  for (let i = 0; i < words.length - 1; i++) {
    if (/^(?:-C|--prefix|--cwd|--dir|--directory|--project|--manifest-path)$/.test(words[i] as string))
      return (words[i + 1] as string).replace(/\/Cargo\.toml$/, '') || null;
  }
  const eq = words.map((w) => /^--(?:prefix|cwd|dir|directory|project)=(.+)$/.exec(w)?.[1]).find(Boolean);
  return eq ?? null;
}

/** The words of a command with its wrappers removed (`uv run --with x pytest -q` → `pytest -q`). */
export function unwrap(words: readonly string[]): { words: string[]; dir: string | null } {
  let w = [...words];
  let dir: string | null = null;
  const skipFlags = (from: number, untilDashDash = false): number => {
    let i = from;
    while (i < w.length) {
      const x = w[i] as string;
      if (x === '--') return i + 1;
      if (!x.startsWith('-')) return untilDashDash && w.includes('--') ? w.indexOf('--') + 1 : i;
      if (/^(?:--project|--directory|--cwd|-C|--prefix)$/.test(x)) dir = w[i + 1] ?? dir;
      i += VALUE_FLAGS.test(x) ? 2 : 1;
    }
    return i;
  };
  for (let guard = 0; guard < 10 && w.length > 0; guard++) {
    const head = (w[0] as string).split('/').pop() ?? '';
    const second = w[1] ?? '';
    if (/^[A-Za-z_]\w*=/.test(w[0] as string)) w = w.slice(1);
    else if (head === 'command' && /^-[vV]$/.test(second)) break;
    else if (/^(?:sudo|time|nice|nohup|exec|command|caffeinate|chronic|unbuffer|stdbuf|xvfb-run)$/.test(head))
      w = w.slice(skipFlags(1));
    else if (head === 'env' || head === 'cross-env' || head === 'cross-env-shell') {
      const rest = w.slice(skipFlags(1));
      if (rest.length === 0) break;
      w = rest;
    } else if (head === 'timeout' || head === 'gtimeout') {
      const i = skipFlags(1);
      w = w.slice(/^\d+(?:\.\d+)?[smhd]?$/.test(w[i] ?? '') ? i + 1 : i);
    } else if (head === 'npx' || head === 'bunx' || head === 'pnpx' || head === 'uvx')
      w = w.slice(skipFlags(1));
    else if (
      (/^(?:pnpm|yarn)$/.test(head) && /^(?:exec|dlx)$/.test(second)) ||
      (head === 'npm' && second === 'exec') ||
      (head === 'bun' && second === 'x') ||
      (/^(?:uv|poetry|pipenv|pdm|hatch|rye|pixi)$/.test(head) && second === 'run') ||
      (head === 'bundle' && second === 'exec') ||
      (/^(?:mise|rtx)$/.test(head) && /^(?:x|exec)$/.test(second)) ||
      (head === 'asdf' && second === 'exec') ||
      (/^(?:op|doppler|infisical)$/.test(head) && second === 'run')
    )
      w = w.slice(skipFlags(2, /^(?:mise|rtx|op|doppler|infisical)$/.test(head)));
    else if (head === 'dotenv') w = w.slice(skipFlags(1, true));
    else if (head === 'direnv' && second === 'exec') w = w.slice(3);
    else if (head === 'nix' && second === 'develop') {
      const c = w.findIndex((x) => x === '-c' || x === '--command');
      if (c < 0) break;
      w = w.slice(c + 1);
    } else if (
      (head === 'docker' && second === 'compose' && /^(?:exec|run)$/.test(w[2] ?? '')) ||
      (head === 'docker-compose' && /^(?:exec|run)$/.test(second))
    ) {
      const from = head === 'docker' ? 3 : 2;
      const i = skipFlags(from);
      w = w.slice(i + 1); // the service, then its command
    } else if (head === 'docker' && second === 'exec') {
      w = w.slice(skipFlags(2) + 1);
    } else if (INTERPRETERS.test(head) && /^python|^py$/.test(head)) {
      const m = w.indexOf('-m');
      if (m < 0 || w.slice(1, m).some((x) => !x.startsWith('-'))) break;
      w = w.slice(m + 1);
    } else break;
  }
  return { words: w, dir: dir ?? dirFlag(w) };
}

function packageManager(head: string, w: string[]): Judged {
  const sub = positional(w, 1)[0] ?? '';
  const task = (name: string, tool: string): Judged => ({ purpose: purposeOfTask(name), tool, task: name });
  if (sub === '') return { purpose: head === 'npm' ? 'other' : 'install', tool: `${head} install` };
  if (/^(?:test|t|tst)$/.test(sub)) return { purpose: 'test', tool: `${head} test`, task: 'test' };
  if (sub === 'start') return { purpose: 'run', tool: `${head} start`, task: 'start' };
  if (/^(?:install|i|ci|add|isntall|update|up|upgrade)$/.test(sub))
    return { purpose: 'install', tool: `${head} ${sub}` };
  if (/^(?:uninstall|remove|rm|un|r)$/.test(sub)) return { purpose: 'uninstall', tool: `${head} ${sub}` };
  if (/^(?:run|run-script)$/.test(sub)) {
    const name = positional(w, 2)[0] ?? '';
    return name ? task(name, `${head} run ${name}`) : { purpose: 'inspect', tool: `${head} run` };
  }
  if (/^(?:publish)$/.test(sub)) return { purpose: 'deploy', tool: `${head} publish` };
  if (
    /^(?:ls|list|view|info|outdated|why|explain|config|root|bin|prefix|search|help|audit|doctor|pack)$/.test(
      sub,
    )
  )
    return { purpose: 'inspect', tool: `${head} ${sub}` };
  if (head === 'bun' && sub === 'build') return { purpose: 'build', tool: 'bun build' };
  if (head === 'npm') return { purpose: 'other', tool: `npm ${sub}` };
  // pnpm, yarn and bun run a script by its name, or a package's binary.
  const inner = judge([sub, ...w.slice(w.indexOf(sub) + 1)]);
  if (inner.purpose !== 'other' && inner.purpose !== 'run') return inner;
  return task(sub, `${head} ${sub}`);
}

function gitPurpose(w: string[]): Judged {
  let i = 1;
  while (i < w.length && (w[i] as string).startsWith('-')) i += /^(?:-C|-c)$/.test(w[i] as string) ? 2 : 1;
  const sub = w[i] ?? '';
  const rest = w.slice(i + 1);
  const tool = `git ${sub}`.trim();
  if (sub === 'commit') return { purpose: 'commit', tool };
  if (sub === 'push') return { purpose: 'push', tool };
  if (GIT_INSPECT.test(sub)) {
    // `git branch -D x`, `git remote add …` change things; listing them does not.
    if (sub === 'branch' && rest.some((x) => /^-[dDmM]$|^--(?:delete|move)$/.test(x) || !x.startsWith('-')))
      return { purpose: 'other', tool };
    if (sub === 'remote' && rest.some((x) => /^(?:add|remove|rm|rename|set-url)$/.test(x)))
      return { purpose: 'other', tool };
    return { purpose: 'inspect', tool };
  }
  if (sub === 'config') {
    const values = positional(rest, 0);
    const reading =
      rest.some((x) => /^--(?:get|get-all|list|get-regexp)$|^-l$/.test(x)) || values.length <= 1;
    return { purpose: reading ? 'inspect' : 'other', tool };
  }
  if (/^(?:stash|worktree|tag)$/.test(sub) && (rest.length === 0 || /^(?:list|show|-l)$/.test(rest[0] ?? '')))
    return { purpose: sub === 'stash' && rest.length === 0 ? 'other' : 'inspect', tool };
  return { purpose: 'other', tool };
}

function interpreter(head: string, w: string[]): Judged {
  const rest = w.slice(1);
  if (isVersionOrHelp(rest) || rest.length === 0)
    return { purpose: rest.length === 0 ? 'other' : 'inspect', tool: head };
  if (rest.some((x) => /^-[a-zA-Z]*[ce]$|^--eval$|^-$|^\/dev\/stdin$/.test(x)))
    return { purpose: 'run', tool: `${head} inline`, adhoc: true };
  if (head === 'node' && rest.includes('--test')) return { purpose: 'test', tool: 'node --test' };
  const script = positional(w, 1)[0] ?? '';
  const name = script.split('/').pop() ?? script;
  if (/^manage\.py$/.test(name)) {
    const t = positional(w, 2)[0] ?? '';
    const p: Purpose =
      t === 'test'
        ? 'test'
        : /^(?:migrate|makemigrations)$/.test(t)
          ? 'migrate'
          : t === 'runserver'
            ? 'run'
            : t === 'check'
              ? 'lint'
              : 'other';
    return { purpose: p, tool: `${head} manage.py ${t}`.trim(), task: t };
  }
  if (/^setup\.py$/.test(name))
    return { purpose: positional(w, 2)[0] === 'test' ? 'test' : 'build', tool: `${head} setup.py` };
  if (/(?:^tests?[._]|^spec[._]|_test\.|\.test\.|_spec\.|\.spec\.)/.test(name))
    return { purpose: 'test', tool: `${head} ${script}`, script };
  // A script named for what it does (`node migrate.js`, `python build.py`) is that, not a throwaway —
  // except a name a program's own work shares with a check (`analyze.py`, `audit.py` crunch data; a
  // linter is run by its tool's name).
  const base = name.replace(/\.\w+$/, '');
  const named = /^(?:analy[sz]e|audit)$/i.test(base) ? 'run' : purposeOfTask(base);
  if (named !== 'other' && named !== 'run')
    return { purpose: named, tool: `${head} ${script}`.trim(), script };
  return { purpose: 'run', tool: `${head} ${script}`.trim(), adhoc: true, script };
}

/** What one simple command (its words) is for. */
function judge(words: string[]): Judged {
  const first = words[0] ?? '';
  const head = (first.split('/').pop() ?? first).replace(/\.(?:cmd|exe|bat)$/, '');
  const rest = words.slice(1);
  if (head === '') return { purpose: 'other', tool: '' };
  if (head === 'command' && /^-[vV]$/.test(rest[0] ?? '')) return { purpose: 'inspect', tool: 'command -v' };
  if (head === 'git') return gitPurpose(words);
  if (PACKAGE_MANAGERS.has(head)) return packageManager(head, words);
  if (head === 'sed')
    return { purpose: rest.some((x) => /^-[a-z]*i/.test(x)) ? 'other' : 'inspect', tool: 'sed' };
  if (head === 'env' || head === 'printenv') return { purpose: 'inspect', tool: head };
  if (INSPECT.has(head)) return { purpose: 'inspect', tool: head };
  if (isVersionOrHelp(rest)) return { purpose: 'inspect', tool: head };
  const known = byToolName(head, words) ?? byEcosystem(head, words);
  if (known) return known;
  if (INTERPRETERS.test(head)) return interpreter(head, words);
  if (/^(?:http\.server|SimpleHTTPServer|uvicorn|flask|gunicorn)$/.test(head))
    return { purpose: 'run', tool: head };
  const script = /[/\\]/.test(first) || /\.(?:sh|bash|zsh|py|rb|js|mjs|ts|pl)$/.test(first);
  if (!script && /^[a-z_][\w.]*$/.test(head) && /\./.test(head))
    return { purpose: purposeOfTask(head), tool: head };
  if (script) {
    // A project script run directly: judged by its name (`./test-local.sh`, `bin/dev`, `script/test`).
    const name = head.replace(/\.\w+$/, '');
    const p = purposeOfTask(name);
    return { purpose: p === 'other' ? 'run' : p, tool: first, adhoc: p === 'other' };
  }
  return { purpose: 'other', tool: head };
}

const suiteOf = (purpose: Purpose, tool: string, task: string, words: readonly string[]): string => {
  if (purpose !== 'test') return '';
  const text = `${tool} ${task} ${words.join(' ')}`.toLowerCase();
  if (E2E_TOOLS.has(tool.split(' ')[0] ?? '') || /\b(?:e2e|end-to-end|acceptance)\b|test:system/.test(text))
    return 'e2e';
  if (/\bintegration\b/.test(text)) return 'integration';
  return '';
};

/** What a simple command (its words, env assignments and wrappers included) is for. */
export function resolveWords(words: readonly string[]): Resolved {
  const inner = innerShellLine(words);
  if (inner !== null) {
    const parts = simpleCommands(inner).map((c) => resolveWords(c.words));
    const main = parts.find((p) => p.purpose !== 'inspect' && p.purpose !== 'other') ?? parts[0];
    if (main) return main;
  }
  const { words: core, dir } = unwrap(words);
  const j = judge(core);
  const task = j.task ?? '';
  return {
    purpose: j.purpose,
    tool: j.tool,
    task,
    words: core,
    dir,
    suite: suiteOf(j.purpose, j.tool, task, core),
    adhoc: j.adhoc === true,
    // A program run by its path (`/tmp/probe.sh`, `./scripts/check.sh`) is its own script.
    script: j.script ?? (/[/\\]/.test(core[0] ?? '') ? (core[0] ?? '') : ''),
  };
}

/** Highest first: the part of a line that says what the line is (a test run in `mix compile && mix test`). */
export const PRIORITY: readonly Purpose[] = [
  'commit',
  'gate',
  'test',
  'typecheck',
  'lint',
  'build',
  'format',
  'migrate',
  'deploy',
  'install',
  'uninstall',
  'push',
  'run',
  'other',
  'inspect',
];

/** The purpose of a whole line: that of its most telling simple command. */
export function classifyCommand(line: string): Purpose {
  const purposes = new Set(simpleCommands(line).map((c) => resolveWords(c.words).purpose));
  return PRIORITY.find((p) => purposes.has(p)) ?? 'other';
}
