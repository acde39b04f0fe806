/**
 * `engram metrics`: token usage and its cost (per session, project, model and day, from transcripts,
 * with an editable price table), capture health and the LLM ledger — the metrics verb (app/metrics.ts).
 */
import { join } from 'node:path';
import { metrics } from '../../../app/metrics.ts';
import { loadPrices } from '../../prices-file.ts';
import { metricsText } from '../../metrics-text.ts';
import { printJson, withStore } from '../context.ts';
import { intFlag, type CommandSpec } from '../registry.ts';

export const metricsSpec: CommandSpec = {
  name: 'metrics',
  group: 'Health and plumbing',
  summary: 'token usage and cost (per session, project, model, day), capture health, the LLM ledger',
  usage: '[--days N]',
  details: 'Per day and by model, the last N days (default: all time); by session and project, all time.',
  flags: { days: { type: 'string', value: 'N', description: 'only the last N days (1–366)' } },
  examples: ['engram metrics', 'engram metrics --days 30 --json'],
  run: (ctx, args) => {
    const days = args.values['days'] === undefined ? null : intFlag(args, 'days', 30, { min: 1, max: 366 });
    const pricesFile = join(ctx.runtime.home, 'prices.json');
    const config = ctx.runtime.config;
    const data = withStore(ctx, (store) =>
      metrics({ store, config, prices: loadPrices(pricesFile), pricesFile }, { days, now: ctx.now() }),
    );
    if (args.json) printJson(ctx, data);
    else ctx.io.out(metricsText(data));
    return 0;
  },
};
