/**
 * The metrics page's model, from what engram recorded (nothing invented): memories made per day (by
 * source) and by type and status, prompts per day, token usage and its estimated cost by day and
 * model from the transcripts, the LLM distiller's ledger, context injected per day and the context
 * hooks' latency (as recorded by the hooks themselves), and today's budget use.
 */
import type { Config } from '../../core/config.ts';
import { costOf, type Prices } from '../../core/prices.ts';
import type { Store } from '../../store/store.ts';
import { distillStatus } from '../../app/distill-status.ts';

const DAY_MS = 86_400_000;

/** Days from `since` to today, as UTC dates (the charts' x axis, days with nothing included). */
export function daysSince(since: number, now: number): string[] {
  const out: string[] = [];
  for (let t = Math.floor(since / DAY_MS) * DAY_MS; t <= now; t += DAY_MS) {
    out.push(new Date(t).toISOString().slice(0, 10));
  }
  return out;
}

export function metricsReport(
  deps: { store: Store; config: Config; prices: Prices; pricesFile: string },
  options: { days: number; now: number },
) {
  const { store, prices } = deps;
  const since = Math.floor((options.now - (options.days - 1) * DAY_MS) / DAY_MS) * DAY_MS;
  const firstDay = new Date(since).toISOString().slice(0, 10);
  const usage = store.transcripts
    .usageBy('day')
    .filter((u) => u.key >= firstDay)
    .map((u) => ({ ...u, costUsd: costOf(u, prices) }));
  const byModel = new Map<string, { model: string; tokens: number; costUsd: number | null }>();
  for (const u of usage) {
    const m = byModel.get(u.model) ?? { model: u.model, tokens: 0, costUsd: 0 };
    m.tokens += u.input + u.output + u.cacheRead + u.cacheWrite;
    m.costUsd = m.costUsd === null || u.costUsd === null ? null : m.costUsd + u.costUsd;
    byModel.set(u.model, m);
  }
  return {
    days: daysSince(since, options.now),
    memoriesPerDay: store.memoryStats.createdPerDay(since),
    promptsPerDay: store.memoryStats.promptsPerDay(since),
    memoriesByType: store.memoryStats.byTypeAndStatus(),
    usage: {
      byDay: usage,
      byModel: [...byModel.values()],
      pricesFile: deps.pricesFile,
    },
    llm: {
      byDay: store.llmLedger.totals('day').filter((d) => d.key >= firstDay),
      byModel: store.llmLedger.totals('model'),
    },
    context: {
      perDay: store.contextLog.perDay(since),
      latency: store.contextLog.latency(since),
    },
    budget: distillStatus(store, deps.config, options.now),
  };
}

export type MetricsReport = ReturnType<typeof metricsReport>;
