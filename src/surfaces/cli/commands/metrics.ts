/**
 * `engram metrics`: token usage and its cost (per session, project, model and day, from transcripts,
 * with an editable price table), and capture health.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { costOf } from '../../../core/prices.ts';
import { loadPrices } from '../../prices-file.ts';
import type { UsageTotals } from '../../../store/transcripts-repo.ts';
import { printJson, withStore, type CliContext } from '../context.ts';
import type { CommandSpec } from '../registry.ts';

export function metricsCommand(ctx: CliContext, flags: { json: boolean }): number {
  const pricesPath = join(ctx.runtime.home, 'prices.json');
  const prices = loadPrices(pricesPath);
  const data = withStore(ctx, (store) => {
    const group = (by: 'session_id' | 'project_id' | 'day') =>
      store.transcripts.usageBy(by).map((u) => ({ ...u, costUsd: costOf(u, prices) }));
    const byProject = group('project_id');
    const names = new Map(store.sessions.projectStats().map((p) => [p.id as string, p.name]));
    return {
      prices: { file: pricesPath, table: prices },
      usage: {
        bySession: group('session_id'),
        byProject: byProject.map((u) => ({ ...u, name: names.get(u.key) ?? u.key })),
        byDay: group('day'),
        byModel: Object.values(
          byProject.reduce<Record<string, UsageTotals & { costUsd: number | null }>>((acc, u) => {
            const m = (acc[u.model] ??= {
              key: u.model,
              model: u.model,
              input: 0,
              output: 0,
              cacheRead: 0,
              cacheWrite: 0,
              messages: 0,
              costUsd: 0,
            });
            m.input += u.input;
            m.output += u.output;
            m.cacheRead += u.cacheRead;
            m.cacheWrite += u.cacheWrite;
            m.messages += u.messages;
            m.costUsd = m.costUsd === null || u.costUsd === null ? null : m.costUsd + u.costUsd;
            return acc;
          }, {}),
        ),
      },
      llm: {
        total: store.llmLedger.totals('all')[0] ?? null,
        byModel: store.llmLedger.totals('model'),
        byDay: store.llmLedger.totals('day'),
        llmObservations: store.observations.countBySource('llm'),
      },
      capture: {
        hooks: store.sessions.hookStats(),
        transcripts: store.transcripts.totals(),
        recordTypes: store.transcripts.recordTypes(),
        projects: store.sessions
          .projectStats()
          .map((p) => ({ id: p.id, name: p.name, lastCaptureAt: p.lastCaptureAt })),
      },
    };
  });
  if (flags.json) {
    printJson(ctx, data);
    return 0;
  }
  const fmt = (n: number) => n.toLocaleString('en-US');
  const money = (c: number | null) => (c === null ? 'no price' : `$${c.toFixed(2)}`);
  const lines = ['Token usage by model (from transcripts):'];
  for (const m of data.usage.byModel) {
    lines.push(
      `  ${m.model}: in ${fmt(m.input)}, out ${fmt(m.output)}, cache read ${fmt(m.cacheRead)}, cache write ${fmt(m.cacheWrite)} · ${money(m.costUsd)}`,
    );
  }
  lines.push('By project:');
  for (const p of data.usage.byProject)
    lines.push(
      `  ${p.name} (${p.model}): ${fmt(p.input + p.output + p.cacheRead + p.cacheWrite)} tokens · ${money(p.costUsd)}`,
    );
  lines.push('By day:');
  for (const d of data.usage.byDay.slice(-14))
    lines.push(
      `  ${d.key} ${d.model}: ${fmt(d.input + d.output + d.cacheRead + d.cacheWrite)} tokens · ${money(d.costUsd)}`,
    );
  const llm = data.llm;
  if (llm.total) {
    const t = llm.total;
    const perObs =
      t.observations > 0 ? fmt(Math.round((t.inputTokens + t.outputTokens) / t.observations)) : 'n/a';
    lines.push(
      'LLM distillation (ledger):',
      `  ${fmt(t.calls)} calls, in ${fmt(t.inputTokens)}, out ${fmt(t.outputTokens)} tokens · $${t.costUsd.toFixed(4)} · ${fmt(t.observations)} observations stored · ${perObs} tokens per stored observation`,
      `  outcomes: ${Object.entries(t.outcomes)
        .map(([k, n]) => `${k} ${n}`)
        .join(', ')}`,
    );
    for (const m of llm.byModel)
      lines.push(
        `  ${m.key}: ${fmt(m.calls)} calls, ${fmt(m.inputTokens + m.outputTokens)} tokens · $${m.costUsd.toFixed(4)}`,
      );
    for (const d of llm.byDay.slice(-14))
      lines.push(
        `  ${d.key}: ${fmt(d.calls)} calls, ${fmt(d.inputTokens + d.outputTokens)} tokens · $${d.costUsd.toFixed(4)}`,
      );
  } else lines.push('LLM distillation (ledger): no calls');
  lines.push(`Prices: ${data.prices.file}${existsSync(data.prices.file) ? '' : ' (not present: defaults)'}`);
  const t = data.capture.transcripts;
  lines.push(
    'Capture health:',
    `  hooks seen: ${data.capture.hooks.map((h) => `${h.hook} ${h.count}`).join(', ') || 'none'}`,
    `  transcripts read: ${t.files} files, ${fmt(t.records)} records, ${t.badLines} unreadable lines`,
  );
  for (const p of data.capture.projects) {
    lines.push(
      `  ${p.name}: last capture ${p.lastCaptureAt ? new Date(p.lastCaptureAt).toISOString() : 'never'}`,
    );
  }
  ctx.io.out(`${lines.join('\n')}\n`);
  return 0;
}

export const metricsSpec: CommandSpec = {
  name: 'metrics',
  group: 'Health and plumbing',
  summary: 'token usage and cost (per session, project, model, day), capture health, the LLM ledger',
  usage: '',
  flags: {},
  examples: ['engram metrics', 'engram metrics --json'],
  run: (ctx, args) => metricsCommand(ctx, { json: args.json }),
};
