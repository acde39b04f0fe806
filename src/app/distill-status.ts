/**
 * The LLM distiller's state for `engram status` and the viewer: provider, today's spend against the
 * daily caps, and whether a cap (or an unusable provider) put the heuristic distiller in charge.
 */
import type { Config } from '../core/config.ts';
import type { Store } from '../store/store.ts';

/** The LLM distiller's state: provider, today's spend against the caps, and whether a cap stopped it. */
export function distillStatus(store: Store, config: Config, now: number) {
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
