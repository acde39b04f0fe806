/**
 * The metrics read model, from what engram recorded (nothing invented): token usage and its estimated
 * cost from the transcripts (by session, project, day and model), the LLM distiller's ledger and
 * today's budget use, capture health (hooks seen, transcripts read, record types, each project's last
 * capture), memories made per day (by source) and by type and status, prompts per day, context
 * injected per day and the context hooks' latency. `engram metrics`, MCP's metrics tool and the
 * viewer's metrics page and API all show this one model.
 *
 * A window of `days` days bounds what is counted per day and by model; without one (the CLI's
 * default) they cover all time. By session and by project, the ledger's total and capture health are
 * always all time.
 */
import type { Config } from '../core/config.ts';
import { costOf, type Prices } from '../core/prices.ts';
import type { UsageTotals } from '../store/transcripts-repo.ts';
import type { Store } from '../store/store.ts';
import { distillStatus } from './distill-status.ts';

const DAY_MS = 86_400_000;

/** Days from `since` to today, as UTC dates (the charts' x axis, days with nothing included). */
export function daysSince(since: number, now: number): string[] {
  const out: string[] = [];
  for (let t = Math.floor(since / DAY_MS) * DAY_MS; t <= now; t += DAY_MS) {
    out.push(new Date(t).toISOString().slice(0, 10));
  }
  return out;
}

export interface MetricsDeps {
  store: Store;
  config: Config;
  prices: Prices;
  /** Where the price table is read from (shown beside the costs). */
  pricesFile: string;
}

type Priced = UsageTotals & { costUsd: number | null };

/** Usage summed per model: the four token counts, all of them together, and the cost. */
function byModel(rows: readonly Priced[]): (Priced & { tokens: number })[] {
  const out = new Map<string, Priced & { tokens: number }>();
  for (const u of rows) {
    const m = out.get(u.model) ?? {
      key: u.model,
      model: u.model,
      input: 0,
      output: 0,
      cacheRead: 0,
      cacheWrite: 0,
      messages: 0,
      tokens: 0,
      costUsd: 0,
    };
    m.input += u.input;
    m.output += u.output;
    m.cacheRead += u.cacheRead;
    m.cacheWrite += u.cacheWrite;
    m.messages += u.messages;
    m.tokens += u.input + u.output + u.cacheRead + u.cacheWrite;
    m.costUsd = m.costUsd === null || u.costUsd === null ? null : m.costUsd + u.costUsd;
    out.set(u.model, m);
  }
  return [...out.values()];
}

/** The metrics verb: `days` days up to `now` (null: all time). */
export function metrics(deps: MetricsDeps, options: { days: number | null; now: number }) {
  const { store, prices } = deps;
  const since =
    options.days === null ? 0 : Math.floor((options.now - (options.days - 1) * DAY_MS) / DAY_MS) * DAY_MS;
  const firstDay = options.days === null ? '' : new Date(since).toISOString().slice(0, 10);
  const priced = (by: 'session_id' | 'project_id' | 'day') =>
    store.transcripts.usageBy(by).map((u) => ({ ...u, costUsd: costOf(u, prices) }));
  const byDay = priced('day').filter((u) => u.key >= firstDay);
  const projects = store.sessions.projectStats();
  const names = new Map(projects.map((p) => [p.id as string, p.name]));
  return {
    /** The window's days (empty: no window, all time). */
    days: options.days === null ? [] : daysSince(since, options.now),
    prices: { file: deps.pricesFile, table: prices },
    usage: {
      bySession: priced('session_id'),
      byProject: priced('project_id').map((u) => ({ ...u, name: names.get(u.key) ?? u.key })),
      byDay,
      byModel: byModel(byDay),
      pricesFile: deps.pricesFile,
    },
    llm: {
      total: store.llmLedger.totals('all')[0] ?? null,
      byModel: store.llmLedger.totals('model'),
      byDay: store.llmLedger.totals('day').filter((d) => d.key >= firstDay),
      llmObservations: store.observations.countBySource('llm'),
    },
    budget: distillStatus(store, deps.config, options.now),
    capture: {
      hooks: store.sessions.hookStats(),
      transcripts: store.transcripts.totals(),
      recordTypes: store.transcripts.recordTypes(),
      projects: projects.map((p) => ({ id: p.id, name: p.name, lastCaptureAt: p.lastCaptureAt })),
    },
    memoriesPerDay: store.memoryStats.createdPerDay(since),
    promptsPerDay: store.memoryStats.promptsPerDay(since),
    memoriesByType: store.memoryStats.byTypeAndStatus(),
    context: {
      perDay: store.contextLog.perDay(since),
      latency: store.contextLog.latency(since),
    },
  };
}

export type Metrics = ReturnType<typeof metrics>;
