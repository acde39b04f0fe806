/**
 * The price table (US dollars per million tokens) shared by `engram metrics` and the LLM distiller's
 * budgets. Users override it with `$ENGRAM_HOME/prices.json` (same shape).
 */
export interface Price {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

export type Prices = Record<string, Price>;

export const DEFAULT_PRICES: Prices = {
  opus: { input: 15, output: 75, cacheRead: 1.5, cacheWrite: 18.75 },
  sonnet: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
  haiku: { input: 0.8, output: 4, cacheRead: 0.08, cacheWrite: 1 },
};

/** The price entry whose name the model id contains (case-insensitive), else null. */
export function priceOf(model: string, prices: Prices): Price | null {
  const m = model.toLowerCase();
  const entry = Object.entries(prices).find(([name]) => m.includes(name.toLowerCase()));
  return entry ? entry[1] : null;
}

export interface TokenCounts {
  model: string;
  input: number;
  output: number;
  cacheRead?: number;
  cacheWrite?: number;
}

/** Cost in dollars of some usage, or null when the model has no price. */
export function costOf(u: TokenCounts, prices: Prices): number | null {
  const p = priceOf(u.model, prices);
  if (!p) return null;
  return (
    (u.input * p.input +
      u.output * p.output +
      (u.cacheRead ?? 0) * p.cacheRead +
      (u.cacheWrite ?? 0) * p.cacheWrite) /
    1e6
  );
}
