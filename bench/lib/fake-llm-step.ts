// The worker's LLM step wired to a loopback fake of the Anthropic Messages API, with caps high enough
// never to stop a benchmark (bench:distill, bench:quality).
import { resolveConfig, type Config } from '../../src/core/config.ts';
import { createMemoryLogger } from '../../src/core/ports.ts';
import { DEFAULT_PRICES } from '../../src/core/prices.ts';
import { createHeuristicDistiller } from '../../src/distill/heuristic-distiller.ts';
import type { Store } from '../../src/store/store.ts';
import type { TurnPreparer } from '../../src/worker/drain.ts';
import { createLlmTurnPreparer } from '../../src/worker/llm-turn.ts';
import { createLlmDistillerFromConfig } from '../../src/worker/llm-wiring.ts';

/** Config for the LLM distiller against `url`, with budgets that never bind. */
export function fakeLlmConfig(url: string): Config {
  return resolveConfig({
    env: {
      ENGRAM_DISTILL_PROVIDER: 'anthropic',
      ENGRAM_DISTILL_URL: url,
      ENGRAM_DISTILL_DAILY_TOKEN_CAP: '1000000000',
      ENGRAM_DISTILL_SESSION_TOKEN_CAP: '100000000',
      ENGRAM_DISTILL_DAILY_USD_CAP: '10000',
    },
  });
}

/** The drain's LLM step (`drainOnceAsync`'s preparer) against the fake at `config`'s URL. */
export function fakeLlmPreparer(store: Store, config: Config, home: string): TurnPreparer {
  const clock = { now: () => Date.now() };
  const llm = createLlmDistillerFromConfig({
    config,
    env: { ANTHROPIC_API_KEY: 'bench-not-a-key' },
    home,
    clock,
  });
  if (!llm) throw new Error('no LLM distiller');
  return createLlmTurnPreparer({
    store,
    heuristic: createHeuristicDistiller(),
    llm,
    logger: createMemoryLogger(),
    clock,
    config,
    prices: DEFAULT_PRICES,
  });
}
