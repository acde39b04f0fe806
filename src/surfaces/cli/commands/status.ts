/**
 * `engram status [--json]`: is capture healthy? Worker, queue, parked failures, counts, last capture.
 */
import { listInbox } from '../../../store/inbox.ts';
import { runningWorkerPid } from '../../worker-launcher.ts';
import { printJson, withStore, type CliContext } from '../context.ts';
import { formatAge } from '../../../recall/render-context.ts';
import { createEmbedderFromConfig } from '../../../recall/embedders/from-config.ts';
import type { Config } from '../../../core/config.ts';
import type { Store } from '../../../store/store.ts';

/** The LLM distiller's state: provider, today's spend against the caps, and whether a cap stopped it. */
function distillStatus(store: Store, config: Config, now: number) {
  const provider = config['distill.provider'];
  const day = new Date(now).toISOString().slice(0, 10);
  const spent = store.llmLedger.spentOnDay(day);
  const last = store.llmLedger.latest(1)[0];
  const capped = last !== undefined && last.outcome === 'budget_skip' && last.day === day;
  return {
    provider,
    model: config['distill.model'] || null,
    // Off, stopped by a cap, or configured but unable to run (no key, SDK missing): heuristic in charge.
    active: provider !== 'none' && !capped && last?.outcome !== 'unavailable',
    today: {
      day,
      calls: spent.calls,
      tokens: spent.tokens,
      costUsd: spent.costUsd,
      tokenCap: config['distill.dailyTokenCap'],
      usdCap: config['distill.dailyUsdCap'],
    },
    budgetReached: capped ? { reason: last.detail ?? 'budget cap reached', at: last.at } : null,
    lastCall: last ? { outcome: last.outcome, at: last.at, detail: last.detail } : null,
  };
}

export function statusCommand(ctx: CliContext, flags: { json: boolean }): number {
  const { config, env, home } = ctx.runtime;
  const embedder = createEmbedderFromConfig(config, { env, engramHome: home });
  const report = withStore(ctx, (store) => {
    // Events still in the inbox (written by capture hooks, not yet imported by the worker) are pending too.
    const queue = { inbox: listInbox(ctx.runtime.paths.inboxDir).length, ...store.events.counts() };
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
      hooks: store.sessions.hookStats(),
      distill: distillStatus(store, ctx.runtime.config, ctx.now()),
    };
  });
  if (flags.json) {
    printJson(ctx, report);
    return 0;
  }
  const now = ctx.now();
  const lines = [
    `engram home: ${report.home}`,
    `worker: ${report.worker.running ? `running (pid ${report.worker.pid})` : 'not running (the next hook starts it)'}`,
    `queue: ${report.queue.inbox + report.queue.pending} pending (${report.queue.inbox} not yet imported), ${report.queue.parked} parked, ${report.queue.done} distilled`,
  ];
  for (const p of report.parked)
    lines.push(`  parked #${p.seq} ${p.hook} after ${p.attempts} attempts: ${p.error}`);
  const o = report.counts.observations;
  lines.push(
    `memories: ${o.active} active (${o.superseded} superseded, ${o.invalidated} invalidated, ${o.forgotten} forgotten); ${report.counts.summaries} session summaries; ${report.counts.prompts} prompts`,
  );
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
