import { describe, expect, it } from 'vitest';
import { checkPrices, costOf, DEFAULT_PRICES } from './prices.ts';

describe('the price table', () => {
  it('keeps valid entries and names each bad one', () => {
    const { prices, problems } = checkPrices({
      gpt: { input: 2.5, output: 10 },
      cheap: { input: 0.1, output: 0.4, cacheRead: 0.01, cacheWrite: 0.2 },
      broken: { input: 'free', output: 1 },
      negative: { input: -1, output: 1 },
      missing: { input: 1 },
      notAnObject: 5,
    });
    expect(Object.keys(prices)).toEqual(['gpt', 'cheap']);
    expect(prices['gpt']).toEqual({ input: 2.5, output: 10, cacheRead: 0, cacheWrite: 0 });
    expect(problems).toHaveLength(4);
    for (const name of ['broken', 'negative', 'missing', 'notAnObject'])
      expect(problems.some((p) => p.includes(`"${name}"`))).toBe(true);
    expect(checkPrices([1, 2]).problems[0]).toMatch(/must hold an object/);
  });

  it('prices usage by model family, and knows nothing of unknown models', () => {
    expect(costOf({ model: 'claude-sonnet-4-5', input: 1_000_000, output: 0 }, DEFAULT_PRICES)).toBe(3);
    expect(costOf({ model: 'mystery-model', input: 1_000_000, output: 0 }, DEFAULT_PRICES)).toBeNull();
  });
});
