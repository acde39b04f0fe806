/**
 * Shell lines → the commands a project is built, tested and run with. A line is split into its simple
 * commands; each loses what only varies from run to run — redirections (`2>&1`, `> log`), filters it
 * is piped into (`| tail -5`, `| grep FAIL`), `cd` and environment prefixes, single test files and
 * `-- …` pass-through arguments — and keeps what makes it the project's command (`mix test`,
 * `npm run lint`, `mix compile --warnings-as-errors`). Its purpose says what it is for.
 */
import { classifyCommand, PRIORITY, type CommandKind } from './commands.ts';

export const PURPOSES = ['test', 'build', 'lint', 'typecheck', 'run', 'migrate', 'deploy'] as const;
export type Purpose = (typeof PURPOSES)[number];

export interface CommandPart {
  /** The simple command as written (without redirections). */
  raw: string;
  /** The normalised command (`npm test`, `git push`, `mix credo --strict`). */
  canonical: string;
  kind: CommandKind;
  purpose: Purpose | null;
  /** How the run differed from the canonical form: one file, filtered output, extra arguments. */
  variant: 'plain' | 'single file' | 'filtered' | 'extra arguments';
}

const FILTERS = new Set(
  'tail head grep rg less more tee sort uniq wc cat awk sed cut tr jq column'.split(' '),
);
const PREFIX_WRAPPERS =
  /^(?:(?:[A-Za-z_]\w*=\S*|sudo|time|nohup|command|exec)\s+|timeout\s+(?:-\w+\s+)*\d+[smhd]?\s+)+/;
/** Flags whose value follows them and only picks what to run. */
const SELECTORS =
  /^(?:-t|-k|-g|-m|--grep|--testNamePattern|--test-name-pattern|--only|--filter|--match|-run)$/;
const RUN =
  /^(?:npm|pnpm|yarn|bun)\s+(?:run\s+)?(?:dev|start|serve|preview)\b|^(?:mix\s+phx\.server|iex\s+-S\s+mix\s+phx\.server|cargo\s+run|go\s+run|python3?\s+manage\.py\s+runserver|flask\s+run|uvicorn|rails\s+s(?:erver)?\b|bin\/dev|docker\s+compose\s+up(?:\s+-d)?$|docker-compose\s+up(?:\s+-d)?$)/;
const MIGRATE =
  /^(?:mix\s+ecto\.migrate|(?:npx\s+)?prisma\s+migrate\b|(?:bin\/)?rails\s+db:migrate|rake\s+db:migrate|alembic\s+upgrade|python3?\s+manage\.py\s+migrate|(?:npx\s+)?knex\s+migrate|(?:npm|pnpm|yarn)\s+run\s+(?:db:)?migrate)/;
const DEPLOY =
  /^(?:(?:npm|pnpm|yarn)\s+run\s+deploy\b|fly(?:ctl)?\s+deploy|vercel\s+(?:deploy|--prod)|netlify\s+deploy|kubectl\s+apply|terraform\s+apply|cap\s+\w+\s+deploy|mix\s+deploy)/;

/** Split a line into simple commands (`&&`, `||`, `;`, newlines); heredoc bodies are not commands. */
function simpleCommands(line: string): string[] {
  return line
    .replace(/<<-?\s*'?(\w+)'?[\s\S]*?\n\s*\1\b/g, ' ')
    .split(/&&|\|\||;|\n/)
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

const INTERPRETERS = /^(?:python[\d.]*|node|ruby|php|perl|bash|sh|deno|bun|tsx|ts-node)$/;

const looksLikePath = (w: string) =>
  /[/\\]/.test(w) ||
  /\.(?:[cm]?[jt]sx?|exs?|py|rb|go|rs|java|kt|php|cs|swift|feature)$/.test(w) ||
  /::|:\d+$/.test(w);

function normalise(part: string): Omit<CommandPart, 'kind' | 'purpose'> | null {
  const [left = '', ...piped] = part.split(/(?<![|])\|(?![|])/).map((s) => s.trim());
  const filtered = piped.some((p) => FILTERS.has(p.split(/\s+/)[0] ?? ''));
  const raw = left
    .replace(/\s*\d?>>?\s*&?\s*\S+/g, '')
    .replace(/\s*&>\s*\S+/g, '')
    .replace(/\s*<\s*\S+/g, '')
    .replace(/\s+&$/, '')
    .trim();
  const core = raw.replace(PREFIX_WRAPPERS, '').trim();
  const words = core.split(/\s+/).filter((w) => w !== '');
  const head = words[0] ?? '';
  if (head === '' || head === 'cd') return null;
  if (head === 'git') {
    const sub = words.find((w, i) => i > 0 && !w.startsWith('-')) ?? '';
    return { raw, canonical: `git ${sub}`.trim(), variant: words.length > 2 ? 'extra arguments' : 'plain' };
  }
  const kept: string[] = [];
  let variant: CommandPart['variant'] = filtered ? 'filtered' : 'plain';
  // An interpreter's script is the command itself (`python manage.py migrate`), not a file it runs on.
  const script = INTERPRETERS.test(head) ? words.findIndex((w, i) => i > 0 && !w.startsWith('-')) : -1;
  for (let i = 0; i < words.length; i++) {
    const w = words[i] ?? '';
    if (w === '--') {
      if (i < words.length - 1)
        variant = words.slice(i + 1).some(looksLikePath) ? 'single file' : 'extra arguments';
      break;
    }
    if (SELECTORS.test(w)) {
      variant = 'single file';
      i++;
      continue;
    }
    if (i > 0 && i !== script && looksLikePath(w) && !w.startsWith('-')) {
      variant = 'single file';
      continue;
    }
    kept.push(w);
  }
  return { raw, canonical: kept.join(' '), variant };
}

function purposeOf(canonical: string, kind: CommandKind): Purpose | null {
  if (RUN.test(canonical)) return 'run';
  if (MIGRATE.test(canonical)) return 'migrate';
  if (DEPLOY.test(canonical)) return 'deploy';
  return kind === 'test' || kind === 'build' || kind === 'lint' || kind === 'typecheck' ? kind : null;
}

/** The simple commands of a shell line, normalised, with their kind and purpose. */
export function commandParts(line: string): CommandPart[] {
  const out: CommandPart[] = [];
  for (const part of simpleCommands(line)) {
    const n = normalise(part);
    if (!n) continue;
    const kind = classifyCommand(n.canonical);
    out.push({ ...n, kind, purpose: purposeOf(n.canonical, kind) });
  }
  return out;
}

/** The part of a line that says what it is (a test run in `mix compile && mix test x | tail`). */
export function mainPart(line: string): CommandPart | null {
  const parts = commandParts(line);
  let best: CommandPart | null = null;
  for (const p of parts) {
    const better =
      best === null ||
      PRIORITY.indexOf(p.kind) < PRIORITY.indexOf(best.kind) ||
      (p.purpose !== null && best.purpose === null);
    if (better) best = p;
  }
  return best;
}

/** The canonical form of a line (its main part), or the line itself collapsed when it has none. */
export function canonicalCommand(line: string): string {
  return mainPart(line)?.canonical ?? line.trim().replace(/\s+/g, ' ');
}

const PURPOSE_TEXT: Record<Purpose, string> = {
  test: 'runs the tests',
  build: 'builds the project',
  lint: 'lints the code',
  typecheck: 'type-checks the code',
  run: 'runs the app',
  migrate: 'runs the database migrations',
  deploy: 'deploys',
};

/** "runs the tests", "builds the project"… */
export function purposeText(p: Purpose): string {
  return PURPOSE_TEXT[p];
}
