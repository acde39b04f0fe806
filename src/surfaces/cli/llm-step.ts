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
import { loadPrices } from '../prices-file.ts';
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
    // dist/llm.mjs has its own copy of EngramError: read its code by shape, not by class.
    const code = (error as { code?: unknown } | null)?.code;
    const detail =
      typeof code === 'string' && error instanceof Error ? `${code}: ${error.message}` : describeError(error);
    logger.error('LLM distillation is configured but unavailable; distilling heuristically', {
      provider: config['distill.provider'],
      error: detail,
    });
    // In the ledger too, so `engram status` says why the heuristic distiller is in charge.
    const now = ctx.now();
    store.transaction(() =>
      store.llmLedger.add({
        at: now,
        day: new Date(now).toISOString().slice(0, 10),
        sessionId: null,
        projectId: null,
        provider: config['distill.provider'],
        model: config['distill.model'],
        inputTokens: 0,
        outputTokens: 0,
        costUsd: 0,
        latencyMs: 0,
        outcome: 'unavailable',
        detail: detail.slice(0, 300),
        inputChars: 0,
      }),
    );
    return undefined;
  }
}
