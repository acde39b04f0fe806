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

/**
 * Check a user's price table (the parsed prices.json): entries of non-negative numbers per million
 * tokens (`input` and `output` required; cache prices default to 0). Bad entries are left out, each
 * with a problem naming it.
 */
export function checkPrices(value: unknown): { prices: Prices; problems: string[] } {
  const problems: string[] = [];
  const prices: Prices = {};
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return {
      prices,
      problems: ['prices.json must hold an object: {"<model family>": {"input": 3, "output": 15}}'],
    };
  for (const [name, entry] of Object.entries(value as Record<string, unknown>)) {
    const e = entry as Record<string, unknown> | null;
    const num = (k: string, required: boolean) => {
      const v = e?.[k];
      if (v === undefined && !required) return 0;
      return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : null;
    };
    const price = {
      input: num('input', true),
      output: num('output', true),
      cacheRead: num('cacheRead', false),
      cacheWrite: num('cacheWrite', false),
    };
    if (
      name.trim() === '' ||
      e === null ||
      typeof e !== 'object' ||
      Object.values(price).some((v) => v === null)
    ) {
      problems.push(
        `prices.json: "${name}" needs non-negative numbers "input" and "output" (and optional "cacheRead", "cacheWrite"), in dollars per million tokens; it is ignored`,
      );
      continue;
    }
    prices[name] = price as Price;
  }
  return { prices, problems };
}

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
