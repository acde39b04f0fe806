/**
 * Builds the LLM distiller the config asks for (or null for `distill.provider = none`). Loaded lazily
 * by the worker and `engram flush`: nothing of it is on the hook path.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as wait } from 'node:timers/promises';
import type { Config } from '../core/config.ts';
import { EngramError } from '../core/errors.ts';
import type { FetchLike, LlmProvider, Sleep } from '../core/llm.ts';
import type { Clock } from '../core/ports.ts';
import { createAgentSdkProvider, type AgentSdk } from '../distill/llm/agent-sdk-provider.ts';
import { createAnthropicProvider } from '../distill/llm/anthropic-provider.ts';
import { limitConcurrency } from '../distill/llm/limit-concurrency.ts';
import { createLlmDistiller, type LlmDistiller } from '../distill/llm/llm-distiller.ts';
import { createOpenAiProvider } from '../distill/llm/openai-provider.ts';

export const DEFAULT_CLAUDE_MODEL = 'claude-haiku-4-5';

export interface LlmWiringDeps {
  config: Config;
  env: Readonly<Record<string, string | undefined>>;
  /** ENGRAM_HOME: the Agent SDK runs in a directory of its own there. */
  home: string;
  fetch?: FetchLike;
  clock: Clock;
  sleep?: Sleep;
  loadSdk?: () => Promise<AgentSdk>;
  backoffMs?: number;
}

const defaultSleep: Sleep = async (ms, signal) => {
  try {
    await wait(ms, undefined, { signal });
  } catch (error) {
    if (!signal?.aborted) throw error;
  }
};

function apiKey(config: Config, env: LlmWiringDeps['env'], fallback: string): string | undefined {
  const name = config['distill.apiKeyEnv'] || fallback;
  return name ? env[name] : undefined;
}

export function createProviderFromConfig(deps: LlmWiringDeps): LlmProvider | null {
  const { config, env } = deps;
  const fetch = deps.fetch ?? ((url, init) => globalThis.fetch(url, init));
  const model = config['distill.model'];
  switch (config['distill.provider']) {
    case 'anthropic': {
      const key = apiKey(config, env, 'ANTHROPIC_API_KEY');
      if (!key)
        throw new EngramError('CONFIG_INVALID', 'distill.provider is anthropic but no API key is set', {
          hint: `Set ${config['distill.apiKeyEnv'] || 'ANTHROPIC_API_KEY'} in the worker's environment, or set distill.apiKeyEnv.`,
        });
      return createAnthropicProvider({
        url: config['distill.url'],
        apiKey: key,
        model: model || DEFAULT_CLAUDE_MODEL,
        fetch,
      });
    }
    case 'openai':
      return createOpenAiProvider({
        url: config['distill.url'],
        apiKey: apiKey(config, env, ''),
        model,
        fetch,
      });
    case 'agent-sdk': {
      const cwd = join(deps.home, 'distiller');
      mkdirSync(cwd, { recursive: true, mode: 0o700 });
      return createAgentSdkProvider({
        model: model || DEFAULT_CLAUDE_MODEL,
        env,
        cwd,
        loadSdk: deps.loadSdk,
      });
    }
    default:
      return null;
  }
}

export function createLlmDistillerFromConfig(deps: LlmWiringDeps): LlmDistiller | null {
  const provider = createProviderFromConfig(deps);
  if (!provider) return null;
  const { config } = deps;
  return createLlmDistiller({
    provider: limitConcurrency(provider, config['distill.concurrency']),
    clock: deps.clock,
    sleep: deps.sleep ?? defaultSleep,
    maxInputChars: config['distill.maxInputChars'],
    maxOutputTokens: config['distill.maxOutputTokens'],
    timeoutMs: config['distill.timeoutMs'],
    maxFailures: config['distill.maxFailures'],
    backoffMs: deps.backoffMs,
  });
}
