/**
 * `engram doctor`: checks everything engram depends on and says how to fix what is wrong — Node,
 * the built bundles, `engram` on the PATH, the home's permissions, configuration and prices, the
 * database and its backups (doctor-store.ts; `--repair` too), Claude Code's hooks and MCP
 * registration (and each other host's, `doctor-hosts.ts`), how long Claude Code keeps transcripts, the worker, the queue and the hook log.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { resolveProjectIdentity } from '../../../capture/project-identity.ts';
import { describeError } from '../../../core/errors.ts';
import { HOOK_EVENTS } from '../../../core/model.ts';
import { listInbox } from '../../../store/inbox.ts';
import type { DatabaseDiagnosis } from '../../../store/diagnose.ts';
import { readWorkerPidFile, runningWorkerPid } from '../../worker-launcher.ts';
import { isEngramHookCommand } from '../claude-settings.ts';
import { printJson, withStore, type CliContext } from '../context.ts';
import { cleanupPeriodOf, retentionFindings } from '../claude-retention.ts';
import { problemsSince } from '../../../app/log-problems.ts';
import { DEFAULT_CLEANUP_DAYS } from '../../../worker/transcript-retention.ts';
import { boolFlag, type CommandSpec } from '../registry.ts';
import {
  databaseChecks,
  diagnose,
  homeCheck,
  repairCommand,
  storeUsable,
  type Check,
} from './doctor-store.ts';
import { loadSettings } from '../settings-files.ts';
import { mcpCheck, otherHostChecks } from './doctor-hosts.ts';
import { claudeCodeAdapter } from '../../../capture/hosts/claude-code/adapter.ts';
import { currentProjectId, sameRootNotices } from '../../../app/same-root.ts';
import { defaultSettingsPath } from './install.ts';
import { loadPricesChecked } from '../../prices-file.ts';

export type { Check } from './doctor-store.ts';

/** A check sees the database's diagnosis, made once before the checks run (reads only). */
type Checker = (ctx: CliContext, db: DatabaseDiagnosis) => Check | Check[];

const ok = (name: string, detail: string): Check => ({ name, status: 'ok', detail });
const warn = (name: string, detail: string, fix: string): Check => ({ name, status: 'warn', detail, fix });
const fail = (name: string, detail: string, fix: string): Check => ({ name, status: 'fail', detail, fix });

const mode = (path: string) => statSync(path).mode & 0o777;

const CHECKS: Checker[] = [
  () => {
    const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
    return major > 20 || (major === 20 && minor >= 16)
      ? ok('node', `Node.js ${process.versions.node}`)
      : fail('node', `Node.js ${process.versions.node} is too old`, 'Install Node.js 20.16 or newer.');
  },
  (ctx) => {
    const missing = ['hook.cjs', 'hook-capture.cjs', 'hook-context.cjs', 'cli.mjs', 'mcp.mjs'].filter(
      (f) => !existsSync(join(ctx.distDir, f)),
    );
    return missing.length === 0
      ? ok('bundles', `built bundles in ${ctx.distDir}`)
      : fail(
          'bundles',
          `missing ${missing.join(', ')} in ${ctx.distDir}`,
          'Run "npm run build" in the engram checkout.',
        );
  },
  (ctx) => {
    const dirs = (ctx.runtime.env['PATH'] ?? '').split(delimiter).filter(Boolean);
    const found = dirs.map((d) => join(d, 'engram')).find((p) => existsSync(p));
    return found
      ? ok('path', `engram on the PATH: ${found}`)
      : warn(
          'path',
          'engram is not on the PATH: the commands engram prints (e.g. "engram show <id>") will not run as written',
          'In the engram checkout run "npm link" (or add its bin/ folder to your PATH).',
        );
  },
  (ctx) => {
    const { home, paths } = ctx.runtime;
    const notFolder = homeCheck(ctx);
    if (notFolder) return notFolder;
    if (!existsSync(home)) return ok('home', `${home} does not exist yet (made on first capture)`);
    const loose: string[] = [];
    if ((mode(home) & 0o077) !== 0) loose.push(`${home} (${mode(home).toString(8)})`);
    for (const f of readdirSync(home)) {
      const p = join(home, f);
      const st = statSync(p);
      if ((st.mode & 0o077) !== 0) loose.push(`${p} (${(st.mode & 0o777).toString(8)})`);
    }
    return loose.length === 0
      ? ok('permissions', `${home} and its files are private (0700 / 0600)`)
      : fail('permissions', `readable by others: ${loose.join(', ')}`, `chmod -R go-rwx ${paths.home}`);
  },
  (ctx) => {
    const issues = ctx.runtime.configIssues;
    if (issues.length === 0) return ok('config', `configuration valid (${ctx.runtime.paths.config})`);
    return issues.map((i) =>
      i.severity === 'error'
        ? fail(
            `config ${i.key ?? 'file'}`,
            `${i.message}; the default is used`,
            `engram config set ${i.key ?? '<key>'} <value>, or fix ${ctx.runtime.paths.config}`,
          )
        : warn(
            `config ${i.key ?? 'file'}`,
            i.message,
            'Remove the key, or upgrade engram if a newer version wrote it.',
          ),
    );
  },
  (ctx) => {
    const { problems } = loadPricesChecked(join(ctx.runtime.home, 'prices.json'));
    return problems.length === 0
      ? ok('prices', 'price table valid')
      : problems.map((p) => fail('prices', p, `Fix ${join(ctx.runtime.home, 'prices.json')}.`));
  },
  (ctx, db) => databaseChecks(ctx, db),
  (ctx) => {
    const path = defaultSettingsPath(ctx);
    let settings: ReturnType<typeof loadSettings>;
    try {
      settings = loadSettings(path);
    } catch (error) {
      return fail('hooks', describeError(error), `Fix ${path}.`);
    }
    const hooks = (settings?.json['hooks'] ?? {}) as Record<string, unknown>;
    const missing = HOOK_EVENTS.filter((e) => !commandsOf(hooks[e]).some(isEngramHookCommand));
    if (missing.length === HOOK_EVENTS.length)
      return warn(
        'hooks',
        `no engram hooks in ${path}`,
        'Run "engram install" (or install the Claude Code plugin).',
      );
    return missing.length === 0
      ? ok('hooks', `engram hooks installed in ${path}`)
      : fail(
          'hooks',
          `missing for ${missing.join(', ')} in ${path}`,
          'Run "engram install" again (it is idempotent).',
        );
  },
  (ctx) => otherHostChecks(ctx),
  (ctx) => mcpCheck(ctx, claudeCodeAdapter, true),
  (ctx) => {
    const pid = runningWorkerPid(ctx.runtime.paths);
    if (pid) return ok('worker', `running (pid ${pid})`);
    const stale = readWorkerPidFile(ctx.runtime.paths);
    return stale
      ? warn(
          'worker',
          `not running; a stale pid file names pid ${stale.stamp.pid}`,
          'Nothing to do: the next hook starts a worker ("engram worker stop" removes the file).',
        )
      : ok('worker', 'not running (the next hook starts it)');
  },
  (ctx, db) => {
    const { paths } = ctx.runtime;
    if (!storeUsable(db)) return [];
    const counts = withStore(ctx, (store) => store.events.counts());
    const rejected = listInbox(join(paths.inboxDir, 'rejected')).length;
    const checks: Check[] = [];
    checks.push(
      counts.parked > 0
        ? fail(
            'queue',
            `${counts.parked} events parked after failing`,
            '"engram status" shows why; then "engram retry --all".',
          )
        : ok('queue', `${counts.pending} pending, ${counts.done} distilled, none parked`),
    );
    if (rejected > 0)
      checks.push(
        warn(
          'inbox',
          `${rejected} unreadable captured events in ${join(paths.inboxDir, 'rejected')}`,
          'The worker log says why each was set aside; delete them once read.',
        ),
      );
    return checks;
  },
  (ctx, db) => {
    if (!storeUsable(db)) return [];
    const notices = withStore(ctx, (store) =>
      sameRootNotices(store.sessions.projectStats(), currentProjectId(ctx.runtime.paths.projectLinks)),
    );
    if (notices.length === 0) return ok('projects', 'no two projects share a root');
    return notices.map((n) =>
      warn(
        'projects',
        `${n.from.name} (${n.from.id}, ${n.from.observations} memories) has the root of ${n.into.name} (${n.into.id}) ` +
          `(${n.root}): a rename or a changed remote started a new project there`,
        `Merge the old one into it: ${n.command} (add --dry-run first to see what moves).`,
      ),
    );
  },
  (ctx, db) => {
    const findings = storeUsable(db)
      ? withStore(ctx, (store) => retentionFindings(ctx, store))
      : retentionFindings(ctx, null);
    if (findings.length === 0) {
      const { days, source } = cleanupPeriodOf(ctx);
      return ok(
        'transcripts',
        `Claude Code keeps transcripts ${days ?? DEFAULT_CLEANUP_DAYS} days${days === null ? ' (its default)' : ` (${source})`}; engram reads them in time`,
      );
    }
    return findings.map((f) =>
      f.severity === 'fail' ? fail('transcripts', f.message, f.fix) : warn('transcripts', f.message, f.fix),
    );
  },
  (ctx) => {
    const { paths } = ctx.runtime;
    const p = problemsSince(paths.hookLog, join(paths.logDir, '.hook-log-seen'), { keepMark: true });
    return p.errors === 0
      ? ok('hook log', 'no hook errors since the last status')
      : warn(
          'hook log',
          `${p.errors} hook errors since the last status; last: ${p.last[p.last.length - 1] ?? ''}`,
          `Read ${paths.hookLog}.`,
        );
  },
  (ctx) => {
    const pending = resolveProjectIdentity(ctx.cwd).pendingLink;
    return pending
      ? warn(
          'project',
          `this repository's .engram.json asks to share the memory of "${pending}" (not confirmed)`,
          'If you trust it: engram project link',
        )
      : ok(
          'project',
          `project of ${ctx.cwd}: ${resolveProjectIdentity(ctx.cwd, ctx.runtime.projectLinks).name}`,
        );
  },
];

function commandsOf(groups: unknown): string[] {
  if (!Array.isArray(groups)) return [];
  return groups.flatMap((g) =>
    Array.isArray((g as { hooks?: unknown }).hooks)
      ? ((g as { hooks: { command?: unknown }[] }).hooks
          .map((h) => h.command)
          .filter((c) => typeof c === 'string') as string[])
      : [],
  );
}

/** Run every check; a check that throws is itself reported, never fatal. */
export function runChecks(ctx: CliContext): Check[] {
  const db = diagnose(ctx);
  return CHECKS.flatMap((check) => {
    try {
      return check(ctx, db);
    } catch (error) {
      return [
        fail('doctor', `a check failed: ${describeError(error)}`, 'Report this; the other checks still ran.'),
      ];
    }
  });
}

const MARK = { ok: '✓', warn: '!', fail: '✗' } as const;

export const doctorSpec: CommandSpec = {
  name: 'doctor',
  group: 'Health and plumbing',
  summary: 'check everything engram depends on, and say how to fix what is wrong',
  usage: '[--repair]',
  details:
    'Exits 1 when a check fails (✗); warnings (!) do not fail it. --repair brings a damaged database back: it is set aside (kept), the newest backup that passes SQLite\u2019s integrity check takes its place, then what the inbox still holds is imported and every transcript is read on from where that backup had stopped; the report says what came back from where, and what could not.',
  flags: {
    repair: {
      type: 'boolean',
      description: 'restore a damaged database from its backup, inbox and transcripts',
    },
  },
  examples: ['engram doctor', 'engram doctor --json', 'engram doctor --repair'],
  run: (ctx, args) => {
    if (boolFlag(args, 'repair')) return repairCommand(ctx, args.json);
    const checks = runChecks(ctx);
    const failed = checks.some((c) => c.status === 'fail');
    if (args.json) printJson(ctx, { ok: !failed, home: ctx.runtime.home, checks });
    else
      for (const c of checks)
        ctx.io.out(
          `${MARK[c.status]} ${c.name}: ${c.detail}${c.fix && c.status !== 'ok' ? `\n    fix: ${c.fix}` : ''}\n`,
        );
    return failed ? 1 : 0;
  },
};
