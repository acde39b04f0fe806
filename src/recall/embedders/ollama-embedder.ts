/**
 * Ollama embeddings: `POST <url>/api/embed {model, input: [...]}` → `{embeddings: number[][]}`.
 */
import type { EmbedPurpose, Embedder } from '../../core/ports.ts';
import { joinUrl } from '../../core/http-json.ts';
import { postJson, toVectors, type FetchFn } from './http-json.ts';

export interface OllamaEmbedderOptions {
  model: string;
  /** Default http://127.0.0.1:11434. */
  url?: string;
  fetch?: FetchFn;
  timeoutMs?: number;
}

export function createOllamaEmbedder(o: OllamaEmbedderOptions): Embedder {
  const url = `${joinUrl(o.url || 'http://127.0.0.1:11434')}/api/embed`;
  const fetchFn = o.fetch ?? fetch;
  return {
    id: `ollama:${o.model}`,
    async embed(texts: string[], _purpose: EmbedPurpose, signal?: AbortSignal): Promise<Float32Array[]> {
      if (texts.length === 0) return [];
      const reply = await postJson({
        fetch: fetchFn,
        url,
        body: { model: o.model, input: texts },
        timeoutMs: o.timeoutMs ?? 30_000,
        signal,
        provider: 'ollama',
      });
      const list =
        reply && typeof reply === 'object' ? (reply as { embeddings?: unknown }).embeddings : undefined;
      return toVectors(list, texts.length, `ollama embedder at ${url}`);
    },
  };
}
