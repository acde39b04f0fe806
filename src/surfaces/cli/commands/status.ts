/**
 * `engram status [--json]`: is capture healthy? Worker, queue, parked failures, counts, last capture.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import { listInbox } from '../../../store/inbox.ts';
import { findTranscripts } from '../../../worker/backfill.ts';
import { retentionFindings } from '../claude-retention.ts';
import { problemsSince } from '../log-errors.ts';
import { loadPricesChecked } from '../../prices-file.ts';
import { runningWorkerPid } from '../../worker-launcher.ts';
import { printJson, withStore, type CliContext } from '../context.ts';
import type { CommandSpec } from '../registry.ts';
import { currentProjectId, sameRootNotices } from './project-move.ts';
import { formatAge } from '../../../recall/render-context.ts';
import { createEmbedderFromConfig } from '../../../recall/embedders/from-config.ts';
import { distillStatus } from '../../distill-status.ts';
import type { Store } from '../../../store/store.ts';

/** Sessions Claude Code kept transcripts of that engram has never read (the hooks may have missed them). */
function unreadTranscripts(ctx: CliContext, store: Store): { root: string; sessions: number } {
  const root = join(ctx.runtime.env['HOME'] || homedir(), '.claude', 'projects');
  const sessions = findTranscripts(root).filter(
    (f) => !f.subagent && store.transcripts.progress(f.path) === null,
  ).length;
  return { root, sessions };
}

function teamProjects(store: Store) {
  const queued = store.team.outboxCounts();
  return store.team.projects().map((p) => ({
    id: p.projectId,
    name: p.name,
    lastSyncAt: store.team.syncedAt(p.projectId),
    queued: queued.get(p.projectId) ?? 0,
    lastError: p.lastError,
  }));
}

export function statusCommand(ctx: CliContext, flags: { json: boolean }): number {
  const { config, env, home, paths } = ctx.runtime;
  const embedder = createEmbedderFromConfig(config, { env, engramHome: home });
  const hookProblems = problemsSince(paths.hookLog, join(paths.logDir, '.hook-log-seen'));
  const report = withStore(ctx, (store) => {
    // Events still in the inbox (written by capture hooks, not yet imported by the worker) are pending too.
    const queue = {
      inbox: listInbox(paths.inboxDir).length,
      rejected: listInbox(join(paths.inboxDir, 'rejected')).length,
      ...store.events.counts(),
    };
    return {
      home: ctx.runtime.home,
      worker: {
        running: runningWorkerPid(ctx.runtime.paths) !== null,
        pid: runningWorkerPid(ctx.runtime.paths),
      },
      queue,
      parked: store.events.parked(10).map((p) => ({
        seq: p.seq,
        sessionId: p.sessionId,
        hook: p.hook,
        attempts: p.attempts,
        error: p.lastError,
        at: p.at,
      })),
      counts: {
        projects: store.sessions.projectStats().length,
        observations: store.observations.countByStatus(),
        summaries: store.summaries.count(),
        prompts: store.summaries.promptCount(),
      },
      vectors: embedder
        ? {
            embedder: embedder.id,
            embedded: store.vectors.count(embedder.id),
            pending: store.vectors.pending(embedder.id),
          }
        : null,
      projects: store.sessions.projectStats(),
      // Projects with the same root: a rename or a changed remote left the old one behind.
      sameRoot: sameRootNotices(store.sessions.projectStats(), currentProjectId(paths.projectLinks)),
      // Shared projects (engram team share): when each last synced with the team server.
      team: teamProjects(store),
      hooks: store.sessions.hookStats(),
      hosts: store.sessions.hostStats(),
      distill: distillStatus(store, ctx.runtime.config, ctx.now()),
      config: {
        file: paths.config,
        issues: [
          ...ctx.runtime.configIssues,
          ...loadPricesChecked(join(home, 'prices.json')).problems.map((message) => ({
            key: 'prices.json',
            source: join(home, 'prices.json'),
            message,
            severity: 'error' as const,
          })),
        ],
      },
      hookProblems,
      // Quarantined memories awaiting a person, and what the injection gate dropped this past week.
      trust: {
        held: store.observations.heldCount(),
        dropped: store.contextLog.drops(ctx.now() - 7 * 86_400_000, 20),
      },
      missed: unreadTranscripts(ctx, store),
      transcripts: retentionFindings(ctx, store),
    };
  });
  if (flags.json) {
    printJson(ctx, report);
    return 0;
  }
  const now = ctx.now();
  const lines: string[] = [];
  for (const issue of report.config.issues)
    lines.push(
      `${issue.severity === 'error' ? 'CONFIG PROBLEM' : 'config warning'}: ${issue.message}${issue.severity === 'error' ? ' — using the default instead' : ''}`,
    );
  lines.push(
    `engram home: ${report.home}`,
    `worker: ${report.worker.running ? `running (pid ${report.worker.pid})` : 'not running (the next hook starts it)'}`,
    `queue: ${report.queue.inbox + report.queue.pending} pending (${report.queue.inbox} not yet imported), ${report.queue.parked} parked, ${report.queue.done} distilled`,
  );
  for (const p of report.parked)
    lines.push(`  parked #${p.seq} ${p.hook} after ${p.attempts} attempts: ${p.error}`);
  if (report.parked.length > 0)
    lines.push('  retry them with "engram retry --all" (or "engram retry <seq>")');
  if (report.queue.rejected > 0)
    lines.push(
      `  ${report.queue.rejected} unreadable captured events set aside in ${join(paths.inboxDir, 'rejected')} (see the worker log for why)`,
    );
  const hp = report.hookProblems;
  if (hp.errors > 0) {
    lines.push(`hook errors since the last status: ${hp.errors} (see ${paths.hookLog})`);
    for (const l of hp.last) lines.push(`  ${l}`);
  }
  if (report.missed.sessions > 0)
    lines.push(
      `${report.missed.sessions} Claude Code sessions in ${report.missed.root} are not in memory yet: read them with "engram backfill"`,
    );
  for (const f of report.transcripts)
    lines.push(`${f.severity === 'fail' ? 'TRANSCRIPTS' : 'transcripts'}: ${f.message}`, `  ${f.fix}`);
  const o = report.counts.observations;
  lines.push(
    `memories: ${o.active} active (${o.superseded} superseded, ${o.invalidated} invalidated, ${o.forgotten} forgotten); ${report.counts.summaries} session summaries; ${report.counts.prompts} prompts`,
  );
  const t = report.trust;
  if (t.held > 0)
    lines.push(
      `quarantined: ${t.held} memories hold instruction-like text from below your trust; never injected until you approve them ("engram review")`,
    );
  if (t.dropped.length > 0) {
    const lines7 = t.dropped.reduce((n, d) => n + d.dropped.length, 0);
    lines.push(`injection gate: ${lines7} lines dropped in the last 7 days (newest first):`);
    for (const d of t.dropped.slice(0, 5))
      for (const x of d.dropped.slice(0, 3))
        lines.push(
          `  ${formatAge(now - d.at)} ${d.hook} ${x.id ?? '(summary line)'}: ${x.category} (${x.rule}) “${x.excerpt}”`,
        );
  }
  lines.push(
    report.vectors
      ? `vectors: ${report.vectors.embedder} · ${report.vectors.embedded} memories embedded, ${report.vectors.pending} pending (the worker embeds them in the background)`
      : 'vectors: off (embed.provider is none: search is lexical only)',
  );
  if (report.projects.length === 0) lines.push('projects: none captured yet');
  for (const p of report.projects) {
    const last = p.lastCaptureAt ? formatAge(now - p.lastCaptureAt) : 'never';
    lines.push(
      `  ${p.name} (${p.id}) · ${p.sessions} sessions · ${p.observations} memories · last capture ${last} · ${p.root}`,
    );
  }
  for (const n of report.sameRoot)
    lines.push(
      `  ${n.from.name} (${n.from.id}, ${n.from.observations} memories) has the same root as ${n.into.name} (${n.into.id}): ` +
        `a rename or a changed remote started a new project. Merge the old one into it with:`,
      `    ${n.command}`,
    );
  for (const t of report.team) {
    const synced = t.lastSyncAt === null ? 'never synced' : `synced ${formatAge(now - t.lastSyncAt)}`;
    lines.push(
      `team: ${t.name} ${synced} · ${t.queued} to push${t.lastError ? ` · last error: ${t.lastError}` : ''}`,
    );
  }
  if (report.hosts.length > 0)
    lines.push(
      `hosts: ${report.hosts.map((h) => `${h.host} ${h.sessions} sessions (last ${h.lastAt ? formatAge(now - h.lastAt) : 'never'})`).join(' · ')}`,
    );
  const d = report.distill;
  if (d.provider === 'none')
    lines.push('distiller: heuristic (LLM distillation off: distill.provider = none)');
  else {
    lines.push(
      `distiller: LLM ${d.provider}${d.model ? ` (${d.model})` : ''} · today ${d.today.calls} calls, ${d.today.tokens}/${d.today.tokenCap} tokens, $${d.today.costUsd.toFixed(4)}/$${d.today.usdCap}`,
    );
    if (d.budgetReached)
      lines.push(`  budget reached: ${d.budgetReached.reason}; falling back to the heuristic distiller`);
    else if (d.lastCall && d.lastCall.outcome !== 'ok')
      lines.push(`  last call: ${d.lastCall.outcome}${d.lastCall.detail ? ` (${d.lastCall.detail})` : ''}`);
  }
  if (report.hooks.length > 0) {
    lines.push(`hooks seen: ${report.hooks.map((h) => `${h.hook} ${h.count}`).join(', ')}`);
  }
  ctx.io.out(`${lines.join('\n')}\n`);
  return 0;
}

export const statusSpec: CommandSpec = {
  name: 'status',
  group: 'Health and plumbing',
  summary: 'is capture healthy? worker, queue, parked turns, config problems, counts, last capture',
  usage: '',
  flags: {},
  examples: ['engram status', 'engram status --json'],
  run: (ctx, args) => statusCommand(ctx, { json: args.json }),
};
