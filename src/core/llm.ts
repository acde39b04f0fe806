/**
 * The LLM port: one async call, whatever the provider (Claude Agent SDK, Anthropic Messages API, an
 * OpenAI-compatible endpoint). Providers throw `EngramError` with an `LLM_*` code on failure.
 */
import { isEngramError, type ErrorCode } from './errors.ts';

/**
 * Set in the environment of every LLM process engram starts (the Agent SDK's CLI): engram's capture
 * hook ignores sessions carrying it, so the distiller never becomes a memory of its own.
 */
export const DISTILLER_ENV_MARKER = 'ENGRAM_DISTILLER';

export interface LlmRequest {
  system: string;
  prompt: string;
  maxTokens: number;
  signal: AbortSignal;
}

export interface LlmReply {
  text: string;
  /** Tokens the provider reports (input includes cache reads/writes where it reports them apart). */
  inputTokens: number;
  outputTokens: number;
  /** The model that answered (as the provider names it). */
  model: string;
}

export interface LlmProvider {
  /** `agent-sdk`, `anthropic` or `openai`. */
  readonly name: string;
  /** The configured model (the reply names the one that answered). */
  readonly model: string;
  complete(request: LlmRequest): Promise<LlmReply>;
}

/** The slice of `fetch` providers use (injected: tests and benchmarks pass their own). */
export type { FetchLike } from './http-json.ts';

/** Waits `ms` (injected so tests of backoff do not wait). */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** What one LLM call came to, as the ledger records it. */
export type LlmOutcome =
  'ok' | 'malformed' | 'timeout' | 'http_error' | 'network_error' | 'unavailable' | 'budget_skip';

/** The ledger outcome of a provider error. */
export function outcomeOfError(error: unknown): LlmOutcome {
  const code: ErrorCode | undefined = isEngramError(error) ? error.code : undefined;
  switch (code) {
    case 'LLM_TIMEOUT':
      return 'timeout';
    case 'LLM_HTTP':
      return 'http_error';
    case 'LLM_MALFORMED':
      return 'malformed';
    case 'LLM_UNAVAILABLE':
      return 'unavailable';
    default:
      return 'network_error';
  }
}

/** Is the failure worth another try (timeouts, 5xx, 429, network), or final (4xx, missing SDK)? */
export function isRetryable(error: unknown): boolean {
  if (!isEngramError(error)) return true;
  if (error.code === 'LLM_UNAVAILABLE') return false;
  if (error.code === 'LLM_HTTP') {
    const status = error.status ?? 0;
    return status === 429 || status >= 500;
  }
  return true;
}
