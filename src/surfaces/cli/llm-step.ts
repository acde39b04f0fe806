/**
 * The opt-in LLM step for the worker and `engram flush`: built only when `distill.provider` is not
 * `none`, from `dist/llm.mjs`, loaded on demand. A provider that cannot be built (no API key, …) is logged and
 * the heuristic distiller carries on alone.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describeError } from '../../core/errors.ts';
import { systemClock, type Logger } from '../../core/ports.ts';
import { createHeuristicDistiller } from '../../distill/heuristic-distiller.ts';
import type { TurnPreparer } from '../../worker/drain.ts';
import type * as LlmEntryModule from '../../worker/llm-entry.ts';
import type { Store } from '../../store/store.ts';
import { loadPrices } from './commands/metrics.ts';
import type { CliContext } from './context.ts';

export async function createLlmStep(
  ctx: CliContext,
  store: Store,
  logger: Logger,
  signal?: AbortSignal,
): Promise<TurnPreparer | undefined> {
  const { config, env, home } = ctx.runtime;
  if (config['distill.provider'] === 'none') return undefined;
  try {
    // A bundle of its own (dist/llm.mjs): without a provider, none of it (nor zod) is ever loaded.
    const entry = pathToFileURL(join(ctx.distDir, 'llm.mjs')).href;
    const { createLlmDistillerFromConfig, createLlmTurnPreparer } = (await import(
      entry
    )) as typeof LlmEntryModule;
    const llm = createLlmDistillerFromConfig({ config, env, home, clock: systemClock });
    if (!llm) return undefined;
    logger.info('LLM distillation on', { provider: llm.provider.name, model: llm.provider.model });
    return createLlmTurnPreparer({
      store,
      heuristic: createHeuristicDistiller(),
      llm,
      logger,
      clock: systemClock,
      config,
      prices: loadPrices(join(home, 'prices.json')),
      signal,
    });
  } catch (error) {
    logger.error('LLM distillation is configured but unavailable; distilling heuristically', {
      provider: config['distill.provider'],
      error: describeError(error),
    });
    return undefined;
  }
}
