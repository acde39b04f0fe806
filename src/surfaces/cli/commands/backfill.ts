/**
 * `engram backfill`: read the transcripts a user already has into memory — Claude Code's, Codex's
 * rollouts, Gemini CLI's chat files, Copilot CLI's session logs and opencode's store, each host's found in its own folders
 * (`--host` for one of them) — with a progress bar on a terminal; resumable and repeatable.
 */
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { EngramError } from '../../../core/errors.ts';
import { createHeuristicDistiller } from '../../../distill/heuristic-distiller.ts';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { HOST_NAMES, isHostName, type HostName } from '../../../capture/hosts/host-port.ts';
import { OPENCODE_DB, readOpencodeExport } from '../../../capture/hosts/opencode/session-store.ts';
import { transcriptFinder } from '../../../capture/hosts/transcript-finders.ts';
import { findTranscripts } from '../../../worker/backfill.ts';
import {
  backfill,
  backfillParallel,
  type BackfillOptions,
  type TranscriptSource,
} from '../../../worker/backfill.ts';
import { catchUpGraph } from '../../../worker/graph-pass.ts';
import { openDatabase } from '../../../store/database.ts';
import { createStore } from '../../../store/store.ts';
import { printJson, type CliContext } from '../context.ts';
import { boolFlag, stringFlag, type CommandSpec } from '../registry.ts';

export interface BackfillFlags {
  json: boolean;
  /** Only this host's transcripts (else every host's). */
  host?: HostName;
  from?: string;
  since?: string;
  project?: string;
  dryRun: boolean;
}

/** `--since`: a date (2026-01-31) or a number of days back (30d). */
export function parseSince(text: string): number {
  const days = /^(\d+)d$/.exec(text);
  if (days?.[1]) return Date.now() - Number(days[1]) * 86_400_000;
  const t = Date.parse(text);
  if (!Number.isFinite(t)) {
    throw new EngramError(
      'INPUT_INVALID',
      `--since takes a date (2026-01-31) or a number of days (30d), not "${text}"`,
    );
  }
  return t;
}

/**
 * What `--from DIR` holds, without `--host`: an opencode data folder (`opencode.db`) or `opencode
 * export` files, and transcript files (`*.jsonl` four levels down: Claude Code's project folders,
 * Codex's rollouts, Gemini CLI's chat files, Copilot CLI's session logs — each read by the reader its
 * first lines call for). Nothing engram can read there is an error naming the `--host` values.
 */
export function detectFrom(dir: string): { root?: string; sources: TranscriptSource[] } {
  const names = readdirSync(dir);
  const opencode =
    names.includes(OPENCODE_DB) ||
    names.some((n) => {
      if (!n.endsWith('.json')) return false;
      try {
        return readOpencodeExport(readFileSync(join(dir, n), 'utf8')) !== null;
      } catch {
        return false; // not a file engram can read: not an export
      }
    });
  const files = findTranscripts(dir).length > 0;
  if (!opencode && !files)
    throw new EngramError('INPUT_INVALID', `--from: ${dir} holds no sessions engram can read`, {
      hint: `engram looked for opencode's opencode.db or "opencode export" files, and *.jsonl transcripts (Claude Code's project folders, Codex rollouts, Gemini CLI chats, Copilot CLI session logs) up to four folders down. Name the agent with --host (${HOST_NAMES.join(', ')}) to read its own layout.`,
    });
  return {
    ...(files ? { root: dir } : {}),
    sources: opencode ? [{ host: 'opencode', root: dir }] : [],
  };
}

/**
 * Where to look: `--from DIR` as the named host lays out its folder (without `--host`, what it holds:
 * `detectFrom`); else each host's own folders.
 */
export function backfillSources(
  ctx: CliContext,
  flags: Pick<BackfillFlags, 'host' | 'from'>,
): { root?: string; sources: TranscriptSource[] } {
  const home = ctx.runtime.env['HOME'] || homedir();
  if (flags.from !== undefined) {
    const dir = resolve(ctx.cwd, flags.from);
    return flags.host ? { sources: [{ host: flags.host, root: dir }] } : detectFrom(dir);
  }
  if (flags.host && !transcriptFinder(flags.host))
    throw new EngramError(
      'INPUT_INVALID',
      `engram reads no ${flags.host} transcripts: there is nothing to backfill`,
      {
        hint: 'Its sessions are captured through its hooks or plugin from the time engram is installed.',
      },
    );
  const hosts = flags.host ? [flags.host] : HOST_NAMES;
  return {
    sources: hosts.flatMap(
      (host) =>
        transcriptFinder(host)
          ?.roots(ctx.runtime.env, home)
          .map((root) => ({ host, root })) ?? [],
    ),
  };
}

export async function backfillCommand(ctx: CliContext, flags: BackfillFlags): Promise<number> {
  const where = backfillSources(ctx, flags);
  const roots = [
    ...new Set([...(where.root !== undefined ? [where.root] : []), ...where.sources.map((s) => s.root)]),
  ];
  const root = where.root ?? join(ctx.runtime.env['HOME'] || homedir(), '.claude', 'projects');
  const since = flags.since ? parseSince(flags.since) : undefined;
  const showProgress = ctx.io.isTTY && !flags.json;
  // A dry run writes nothing of engram's: a host's sessions that need writing out as logs (opencode's)
  // go to a folder of its own, removed when it is done.
  const scratchDir = flags.dryRun ? mkdtempSync(join(tmpdir(), 'engram-dry-run-')) : undefined;
  const options: BackfillOptions = {
    ...where,
    logDir: ctx.runtime.paths.hostSessionsDir,
    ...(scratchDir !== undefined ? { scratchDir } : {}),
    distiller: createHeuristicDistiller(),
    now: ctx.now,
    dryRun: flags.dryRun,
    projectLinks: ctx.runtime.projectLinks(),
    ...(since !== undefined ? { since } : {}),
    ...(flags.project ? { project: resolve(ctx.cwd, flags.project) } : {}),
    ...(showProgress
      ? {
          onProgress: (done: number, total: number, bytesDone: number, bytesTotal: number) => {
            const width = 30;
            const filled = Math.round((bytesDone / Math.max(1, bytesTotal)) * width);
            ctx.io.err(
              `\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total} files, ${(bytesDone / 1e6).toFixed(1)} MB`,
            );
            if (done === total) ctx.io.err('\n');
          },
        }
      : {}),
  };
  // Reading and distilling run on reader threads while this thread commits — where that helps: with a
  // core to spare for the committing thread. On two cores the copying between threads costs more than
  // the second core gains (measured by `npm run bench:ingest`), so it stays on one thread there.
  const threadScript = join(ctx.distDir, 'backfill-thread.mjs');
  const threads = Math.min(4, availableParallelism() - 1);
  // A dry run in a home with no database yet reads against an empty one in memory: no file is made.
  const store =
    flags.dryRun && !existsSync(ctx.runtime.paths.db)
      ? createStore(openDatabase(':memory:'))
      : ctx.openStore();
  let report;
  try {
    report =
      threads > 1 && existsSync(threadScript)
        ? await backfillParallel(store, { ...options, threadScript, threads })
        : backfill(store, options);
    if (!flags.dryRun) catchUpGraph(store, ctx.runtime.config, ctx.now());
  } finally {
    store.close();
    if (scratchDir !== undefined) rmSync(scratchDir, { recursive: true, force: true });
  }
  if (flags.json) {
    printJson(ctx, { root, roots, dryRun: flags.dryRun, ...report });
    return report.errors.length > 0 ? 1 : 0;
  }
  const skipped = Object.entries(report.skipped)
    .sort((a, b) => b[1] - a[1])
    .map(([t, n]) => `${t} ${n}`)
    .join(', ');
  ctx.io.out(
    `${flags.dryRun ? 'would read' : 'read'} ${report.files} transcript files (${report.sessions} sessions, ${report.records} records)${hostsRead(report.hosts)} from ${roots.join(', ')}\n` +
      `${flags.dryRun ? 'would create' : 'created'} ${report.created} memories; ${report.usageMessages} API messages of token usage\n` +
      (skipped ? `skipped records (nothing to keep): ${skipped}\n` : '') +
      (report.badLines > 0 ? `unreadable lines: ${report.badLines}\n` : '') +
      report.errors.map((e) => `error: ${e.path}: ${e.error}\n`).join(''),
  );
  return report.errors.length > 0 ? 1 : 0;
}

/** ` — codex 2, claude-code 5` when more than one host's files were read. */
function hostsRead(hosts: Record<string, number>): string {
  const read = Object.entries(hosts).filter(([, n]) => n > 0);
  return read.length > 1 ? ` — ${read.map(([h, n]) => `${h} ${n}`).join(', ')}` : '';
}

export const backfillSpec: CommandSpec = {
  name: 'backfill',
  group: 'Memory',
  summary: 'read your earlier sessions’ transcripts into memory (resumable, repeatable)',
  usage: '[--host NAME] [--from DIR] [--since DATE|Nd] [--project PATH] [--dry-run]',
  details:
    "Reads every host's transcripts from its own folders: Claude Code's ~/.claude/projects, Codex's rollouts in $CODEX_HOME/sessions and archived_sessions (default ~/.codex), Gemini CLI's chat files in ~/.gemini/tmp, Copilot CLI's session logs in $COPILOT_HOME/session-state (default ~/.copilot), opencode's store in $XDG_DATA_HOME/opencode (default ~/.local/share/opencode). Each session keeps its own times and host; a session the hooks captured adds only what its transcript alone shows.",
  flags: {
    host: {
      type: 'string',
      value: 'NAME',
      description: `only this agent's transcripts: ${HOST_NAMES.join(', ')} (default: every one)`,
    },
    from: {
      type: 'string',
      value: 'DIR',
      description:
        "where the transcripts are instead (laid out like --host's folder; without --host, what it holds: an opencode.db or opencode export files, and every *.jsonl, each read as its agent's)",
    },
    since: {
      type: 'string',
      value: 'DATE|Nd',
      description: 'only sessions since a date (2026-01-31) or N days',
    },
    project: {
      type: 'string',
      value: 'PATH',
      description: 'only sessions whose working directory is under PATH',
    },
    'dry-run': { type: 'boolean', description: 'count what would be read and created; store nothing' },
  },
  examples: [
    'engram backfill',
    'engram backfill --since 30d --dry-run',
    'engram backfill --host codex',
    'engram backfill --from ./old-transcripts',
  ],
  run: (ctx, args) => {
    const from = stringFlag(args, 'from');
    if (from !== undefined && !existsSync(resolve(ctx.cwd, from)))
      throw new EngramError('INPUT_INVALID', `--from: no such directory: ${resolve(ctx.cwd, from)}`);
    if (from !== undefined && !statSync(resolve(ctx.cwd, from)).isDirectory())
      throw new EngramError('INPUT_INVALID', `--from: not a directory: ${resolve(ctx.cwd, from)}`, {
        hint: 'Name a folder laid out like ~/.claude/projects (or one project folder of it).',
      });
    const host = stringFlag(args, 'host');
    if (host !== undefined && !isHostName(host))
      throw new EngramError('INPUT_INVALID', `--host: engram has no adapter for "${host}"`, {
        hint: `Give one of: ${HOST_NAMES.join(', ')}.`,
      });
    const since = stringFlag(args, 'since');
    const project = stringFlag(args, 'project');
    return backfillCommand(ctx, {
      json: args.json,
      dryRun: boolFlag(args, 'dry-run'),
      ...(host ? { host } : {}),
      ...(from ? { from } : {}),
      ...(since ? { since } : {}),
      ...(project ? { project } : {}),
    });
  },
};
