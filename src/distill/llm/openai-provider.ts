/**
 * Any OpenAI-compatible chat completions endpoint (Ollama, LM Studio, vLLM, hosted):
 * `POST {url}/v1/chat/completions`; a URL already ending in `/v1` is not doubled.
 */
import { EngramError } from '../../core/errors.ts';
import type { FetchLike, LlmProvider } from '../../core/llm.ts';
import { joinUrl, num, postJson } from './post-json.ts';

export interface OpenAiProviderOptions {
  /** Default http://127.0.0.1:11434 (Ollama). */
  url?: string;
  /** Sent as a bearer token when set. */
  apiKey?: string;
  model: string;
  fetch: FetchLike;
}

export function chatCompletionsUrl(base: string): string {
  const b = base.replace(/\/+$/, '');
  if (b.endsWith('/chat/completions')) return b;
  return joinUrl(b, b.endsWith('/v1') ? '/chat/completions' : '/v1/chat/completions');
}

export function createOpenAiProvider(options: OpenAiProviderOptions): LlmProvider {
  if (!options.model) {
    throw new EngramError('CONFIG_INVALID', 'distill.model must name a model for the openai provider', {
      hint: 'e.g. engram config set distill.model llama3.1:8b',
    });
  }
  const url = chatCompletionsUrl(options.url || 'http://127.0.0.1:11434');
  const headers: Record<string, string> = options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {};
  return {
    name: 'openai',
    model: options.model,
    async complete(request) {
      const body = await postJson(
        options.fetch,
        url,
        headers,
        {
          model: options.model,
          max_tokens: request.maxTokens,
          temperature: 0,
          messages: [
            { role: 'system', content: request.system },
            { role: 'user', content: request.prompt },
          ],
        },
        request.signal,
      );
      const reply = body as {
        model?: unknown;
        choices?: { message?: { content?: unknown } }[];
        usage?: Record<string, unknown>;
      };
      const content = reply.choices?.[0]?.message?.content;
      if (typeof content !== 'string') {
        throw new EngramError('LLM_MALFORMED', 'the chat completion has no message content');
      }
      const u = reply.usage ?? {};
      return {
        text: content,
        inputTokens: num(u['prompt_tokens']),
        outputTokens: num(u['completion_tokens']),
        model: typeof reply.model === 'string' ? reply.model : options.model,
      };
    },
  };
}
