/**
 * `engram backfill`: read the transcripts a user already has into memory, with a progress bar on a
 * terminal; resumable and repeatable.
 */
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { EngramError } from '../../../core/errors.ts';
import { createHeuristicDistiller } from '../../../distill/heuristic-distiller.ts';
import { existsSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { backfill, backfillParallel, type BackfillOptions } from '../../../worker/backfill.ts';
import { catchUpGraph } from '../../../worker/graph-pass.ts';
import { printJson, type CliContext } from '../context.ts';
import { boolFlag, stringFlag, type CommandSpec } from '../registry.ts';

export interface BackfillFlags {
  json: boolean;
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

export async function backfillCommand(ctx: CliContext, flags: BackfillFlags): Promise<number> {
  const root = resolve(
    ctx.cwd,
    flags.from ?? join(ctx.runtime.env['HOME'] || homedir(), '.claude', 'projects'),
  );
  const since = flags.since ? parseSince(flags.since) : undefined;
  const showProgress = ctx.io.isTTY && !flags.json;
  const options: BackfillOptions = {
    root,
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
  const store = ctx.openStore();
  let report;
  try {
    report =
      threads > 1 && existsSync(threadScript)
        ? await backfillParallel(store, { ...options, threadScript, threads })
        : backfill(store, options);
    if (!flags.dryRun) catchUpGraph(store, ctx.runtime.config, ctx.now());
  } finally {
    store.close();
  }
  if (flags.json) {
    printJson(ctx, { root, dryRun: flags.dryRun, ...report });
    return report.errors.length > 0 ? 1 : 0;
  }
  const skipped = Object.entries(report.skipped)
    .sort((a, b) => b[1] - a[1])
    .map(([t, n]) => `${t} ${n}`)
    .join(', ');
  ctx.io.out(
    `${flags.dryRun ? 'would read' : 'read'} ${report.files} transcript files (${report.sessions} sessions, ${report.records} records) from ${root}\n` +
      `${flags.dryRun ? 'would create' : 'created'} ${report.created} memories; ${report.usageMessages} API messages of token usage\n` +
      (skipped ? `skipped records (nothing to keep): ${skipped}\n` : '') +
      (report.badLines > 0 ? `unreadable lines: ${report.badLines}\n` : '') +
      report.errors.map((e) => `error: ${e.path}: ${e.error}\n`).join(''),
  );
  return report.errors.length > 0 ? 1 : 0;
}

export const backfillSpec: CommandSpec = {
  name: 'backfill',
  group: 'Memory',
  summary: 'read existing Claude Code transcripts into memory (resumable, repeatable)',
  usage: '[--from DIR] [--since DATE|Nd] [--project PATH] [--dry-run]',
  flags: {
    from: {
      type: 'string',
      value: 'DIR',
      description: 'where the transcripts are (default ~/.claude/projects)',
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
    const since = stringFlag(args, 'since');
    const project = stringFlag(args, 'project');
    return backfillCommand(ctx, {
      json: args.json,
      dryRun: boolFlag(args, 'dry-run'),
      ...(from ? { from } : {}),
      ...(since ? { since } : {}),
      ...(project ? { project } : {}),
    });
  },
};
