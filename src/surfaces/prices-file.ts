/**
 * The editable price table, `$ENGRAM_HOME/prices.json` (USD per million tokens by model family), over
 * the defaults: `engram metrics`, status, doctor, the viewer's metrics page and the LLM distiller's
 * budgets use it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { checkPrices, DEFAULT_PRICES, type Prices } from '../core/prices.ts';

/**
 * Prices from `$ENGRAM_HOME/prices.json` over the defaults (the LLM distiller's budgets use them too).
 * A file that cannot be read, or bad entries in it, are reported as problems and left out.
 */
export function loadPricesChecked(path: string): { prices: Prices; problems: string[] } {
  if (!existsSync(path)) return { prices: DEFAULT_PRICES, problems: [] };
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    return {
      prices: DEFAULT_PRICES,
      problems: [`${path} is not valid JSON (${(error as Error).message}); using the default prices`],
    };
  }
  const checked = checkPrices(value);
  return { prices: { ...DEFAULT_PRICES, ...checked.prices }, problems: checked.problems };
}

export function loadPrices(path: string): Prices {
  return loadPricesChecked(path).prices;
}
