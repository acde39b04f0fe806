/**
 * The Anthropic Messages API over `fetch` (no SDK): `POST {url}/v1/messages`, the key in `x-api-key`.
 */
import { EngramError } from '../../core/errors.ts';
import type { FetchLike, LlmProvider } from '../../core/llm.ts';
import { joinUrl, num, postJson } from './post-json.ts';

export interface AnthropicProviderOptions {
  /** Default https://api.anthropic.com. */
  url?: string;
  apiKey: string;
  model: string;
  fetch: FetchLike;
}

export function createAnthropicProvider(options: AnthropicProviderOptions): LlmProvider {
  const url = joinUrl(options.url || 'https://api.anthropic.com', '/v1/messages');
  return {
    name: 'anthropic',
    model: options.model,
    async complete(request) {
      const body = await postJson(
        options.fetch,
        url,
        { 'x-api-key': options.apiKey, 'anthropic-version': '2023-06-01' },
        {
          model: options.model,
          max_tokens: request.maxTokens,
          system: request.system,
          messages: [{ role: 'user', content: request.prompt }],
        },
        request.signal,
      );
      const reply = body as {
        model?: unknown;
        content?: { type?: unknown; text?: unknown }[];
        usage?: Record<string, unknown>;
      };
      if (!Array.isArray(reply.content)) {
        throw new EngramError('LLM_MALFORMED', 'the Messages API answer has no content');
      }
      const text = reply.content
        .filter((b) => b?.type === 'text' && typeof b.text === 'string')
        .map((b) => b.text as string)
        .join('');
      const u = reply.usage ?? {};
      return {
        text,
        inputTokens:
          num(u['input_tokens']) + num(u['cache_read_input_tokens']) + num(u['cache_creation_input_tokens']),
        outputTokens: num(u['output_tokens']),
        model: typeof reply.model === 'string' ? reply.model : options.model,
      };
    },
  };
}
