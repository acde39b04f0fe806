/**
 * The opt-in LLM distiller: one turn → one prompt → validated observations and a checkpoint summary.
 * Every call is reported to `record` (the ledger) as it ends, whatever its outcome; `budget` is asked
 * before each call and may refuse it. Timeouts, HTTP errors and malformed replies are retried with
 * backoff up to `maxFailures` calls; then the outcome is a failure and the caller keeps the heuristic
 * result. Never throws for a provider's sake.
 */
import { deadline } from '../../core/deadline.ts';
import { describeError } from '../../core/errors.ts';
import type { Clock } from '../../core/ports.ts';
import {
  isRetryable,
  outcomeOfError,
  type LlmOutcome,
  type LlmProvider,
  type Sleep,
} from '../../core/llm.ts';
import { parseReply, type LlmDistillation } from './reply-schema.ts';
import { buildTurnPrompt, type TurnPromptInput } from './turn-prompt.ts';

export interface LlmCall {
  provider: string;
  model: string;
  inputTokens: number;
  outputTokens: number;
  latencyMs: number;
  outcome: LlmOutcome;
  detail: string | null;
  inputChars: number;
}

export interface LlmDistillerOptions {
  provider: LlmProvider;
  clock: Clock;
  sleep: Sleep;
  maxInputChars: number;
  maxOutputTokens: number;
  timeoutMs: number;
  maxFailures: number;
  /** First backoff; doubled after each failure. Default 1,000 ms. */
  backoffMs?: number;
}

export interface LlmTurnHooks {
  /** Asked before each call with its worst case (tokens); a reason string refuses it. */
  budget: (estimate: { inputTokens: number; outputTokens: number }) => string | null;
  /** Told about each call (or refusal) as it ends; returns the ledger id. */
  record: (call: LlmCall) => number;
  /** The worker's stop signal. */
  signal?: AbortSignal;
}

export type LlmTurnOutcome =
  | { ok: true; distillation: LlmDistillation; ledgerId: number }
  | { ok: false; reason: string; budget: boolean };

export interface LlmDistiller {
  readonly provider: LlmProvider;
  distilTurn(input: Omit<TurnPromptInput, 'maxInputChars'>, hooks: LlmTurnHooks): Promise<LlmTurnOutcome>;
}

export function createLlmDistiller(options: LlmDistillerOptions): LlmDistiller {
  const { provider, clock } = options;
  const backoff = options.backoffMs ?? 1000;
  return {
    provider,
    async distilTurn(input, hooks) {
      const { system, prompt } = buildTurnPrompt({ ...input, maxInputChars: options.maxInputChars });
      const inputChars = system.length + prompt.length;
      const base = { provider: provider.name, model: provider.model, inputChars };
      let lastReason = '';
      for (let attempt = 0; attempt < options.maxFailures; attempt++) {
        if (hooks.signal?.aborted) return { ok: false, reason: 'stopped', budget: false };
        const refused = hooks.budget({
          inputTokens: Math.ceil(inputChars / 3),
          outputTokens: options.maxOutputTokens,
        });
        if (refused !== null) {
          hooks.record({
            ...base,
            inputTokens: 0,
            outputTokens: 0,
            latencyMs: 0,
            outcome: 'budget_skip',
            detail: refused,
          });
          return { ok: false, reason: refused, budget: true };
        }
        const limit = deadline(options.timeoutMs, hooks.signal);
        const started = clock.now();
        let retry = true;
        try {
          const reply = await provider.complete({
            system,
            prompt,
            maxTokens: options.maxOutputTokens,
            signal: limit.signal,
          });
          const parsed = parseReply(reply.text);
          const call = {
            ...base,
            model: reply.model || provider.model,
            inputTokens: reply.inputTokens,
            outputTokens: reply.outputTokens,
            latencyMs: clock.now() - started,
          };
          if (parsed.ok) {
            const ledgerId = hooks.record({ ...call, outcome: 'ok', detail: null });
            return { ok: true, distillation: parsed.value, ledgerId };
          }
          lastReason = `malformed reply: ${parsed.reason}`;
          hooks.record({ ...call, outcome: 'malformed', detail: parsed.reason.slice(0, 300) });
        } catch (error) {
          lastReason = describeError(error);
          retry = isRetryable(error);
          hooks.record({
            ...base,
            inputTokens: 0,
            outputTokens: 0,
            latencyMs: clock.now() - started,
            outcome: outcomeOfError(error),
            detail: lastReason.slice(0, 300),
          });
        } finally {
          limit.clear();
        }
        if (!retry) break;
        if (attempt + 1 < options.maxFailures) await options.sleep(backoff * 2 ** attempt, hooks.signal);
      }
      return { ok: false, reason: lastReason, budget: false };
    },
  };
}
