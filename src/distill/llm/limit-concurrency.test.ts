import { describe, expect, it } from 'vitest';
import type { LlmProvider, LlmReply } from '../../core/llm.ts';
import { limitConcurrency } from './limit-concurrency.ts';

describe('limitConcurrency', () => {
  it('keeps at most `limit` calls of a provider in flight, in arrival order, and frees a slot on failure', async () => {
    let inFlight = 0;
    let most = 0;
    const order: string[] = [];
    const releases: (() => void)[] = [];
    const slow: LlmProvider = {
      name: 'fake',
      model: 'm',
      complete: async (r) => {
        inFlight++;
        most = Math.max(most, inFlight);
        order.push(r.prompt);
        await new Promise<void>((resolve) => releases.push(resolve));
        inFlight--;
        if (r.prompt === 'bad') throw new Error('boom');
        return { text: r.prompt, inputTokens: 1, outputTokens: 1, model: 'm' };
      },
    };
    const limited = limitConcurrency(slow, 1);
    const call = (prompt: string) =>
      limited.complete({ system: '', prompt, maxTokens: 1, signal: new AbortController().signal });
    const results: Promise<LlmReply | string>[] = ['bad', 'b', 'c'].map((p) =>
      call(p).catch((e: Error) => e.message),
    );
    for (let i = 0; i < 3; i++) {
      await new Promise((resolve) => setImmediate(resolve));
      expect(releases).toHaveLength(i + 1); // the next call starts only when the previous one ended
      releases[i]?.();
    }
    expect(await Promise.all(results)).toEqual([
      'boom',
      expect.objectContaining({ text: 'b' }),
      expect.objectContaining({ text: 'c' }),
    ]);
    expect(most).toBe(1);
    expect(order).toEqual(['bad', 'b', 'c']);
  });
});
