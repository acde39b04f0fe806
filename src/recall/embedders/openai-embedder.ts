/**
 * OpenAI-compatible embeddings (OpenAI, LM Studio, vLLM, llama.cpp server, LiteLLM, …):
 * `POST <url>/v1/embeddings {model, input: [...]}` → `{data: [{index, embedding}]}`.
 */
import type { EmbedPurpose, Embedder } from '../../core/ports.ts';
import { joinUrl } from '../../core/http-json.ts';
import { postJson, toVectors, type FetchFn } from './http-json.ts';

export interface OpenAiEmbedderOptions {
  model: string;
  /** Base URL, with or without the trailing /v1 (default https://api.openai.com). */
  url?: string;
  /** Sent as a Bearer token when set. */
  apiKey?: string | undefined;
  fetch?: FetchFn;
  timeoutMs?: number;
}

export function createOpenAiEmbedder(o: OpenAiEmbedderOptions): Embedder {
  const base = joinUrl(o.url || 'https://api.openai.com');
  const url = `${base.endsWith('/v1') ? base : `${base}/v1`}/embeddings`;
  const fetchFn = o.fetch ?? fetch;
  return {
    id: `openai:${o.model}`,
    async embed(texts: string[], _purpose: EmbedPurpose, signal?: AbortSignal): Promise<Float32Array[]> {
      if (texts.length === 0) return [];
      const reply = await postJson({
        fetch: fetchFn,
        url,
        body: { model: o.model, input: texts, encoding_format: 'float' },
        headers: o.apiKey ? { authorization: `Bearer ${o.apiKey}` } : {},
        timeoutMs: o.timeoutMs ?? 30_000,
        signal,
        provider: 'openai',
      });
      const data = reply && typeof reply === 'object' ? (reply as { data?: unknown }).data : undefined;
      const ordered = Array.isArray(data)
        ? [...(data as { index?: unknown; embedding?: unknown }[])]
            .sort((a, b) => Number(a?.index ?? 0) - Number(b?.index ?? 0))
            .map((d) => d?.embedding)
        : data;
      return toVectors(ordered, texts.length, `openai embedder at ${url}`);
    },
  };
}
