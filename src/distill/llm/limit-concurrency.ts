/**
 * At most `limit` calls of one provider in flight at once (default 1: one worker, one call).
 */
import type { LlmProvider } from '../../core/llm.ts';

export function limitConcurrency(provider: LlmProvider, limit: number): LlmProvider {
  let active = 0;
  const waiting: (() => void)[] = [];
  const acquire = (): Promise<void> =>
    active < limit
      ? (active++, Promise.resolve())
      : new Promise((resolve) => waiting.push(() => (active++, resolve())));
  const release = () => {
    active--;
    waiting.shift()?.();
  };
  return {
    name: provider.name,
    model: provider.model,
    async complete(request) {
      await acquire();
      try {
        return await provider.complete(request);
      } finally {
        release();
      }
    },
  };
}
