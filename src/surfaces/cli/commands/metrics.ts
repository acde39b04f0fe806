/**
 * `engram metrics`: token usage and its cost (per session, project, model and day, from transcripts,
 * with an editable price table), and capture health.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EngramError } from '../../../core/errors.ts';
import type { UsageTotals } from '../../../store/transcripts-repo.ts';
import { printJson, withStore, type CliContext } from '../context.ts';

/** US dollars per million tokens; edit `$ENGRAM_HOME/prices.json` (same shape) to change them. */
export const DEFAULT_PRICES: Record<
  string,
  { input: number; output: number; cacheRead: number; cacheWrite: number }
> = {
  opus: { input: 15, output: 75, cacheRead: 1.5, cacheWrite: 18.75 },
  sonnet: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
  haiku: { input: 0.8, output: 4, cacheRead: 0.08, cacheWrite: 1 },
};

type Prices = typeof DEFAULT_PRICES;

function loadPrices(path: string): Prices {
  if (!existsSync(path)) return DEFAULT_PRICES;
  try {
    return { ...DEFAULT_PRICES, ...(JSON.parse(readFileSync(path, 'utf8')) as Prices) };
  } catch (error) {
    throw new EngramError('CONFIG_INVALID', `${path} is not valid JSON: ${(error as Error).message}`);
  }
}

/** Cost of usage rows: the price entry whose name the model id contains (else no price). */
export function costOf(u: UsageTotals, prices: Prices): number | null {
  const entry = Object.entries(prices).find(([name]) => u.model.toLowerCase().includes(name.toLowerCase()));
  if (!entry) return null;
  const p = entry[1];
  return (
    (u.input * p.input + u.output * p.output + u.cacheRead * p.cacheRead + u.cacheWrite * p.cacheWrite) / 1e6
  );
}

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
