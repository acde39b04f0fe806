/**
 * The embedder the configuration asks for (`embed.*`), or null when `embed.provider` is none.
 * Creating one does no I/O: providers connect or load their model on first use.
 */
import type { Config } from '../../core/config.ts';
import type { EmbedPurpose, Embedder } from '../../core/ports.ts';
import type { FetchFn } from './http-json.ts';
import { createLocalEmbedder } from './local-embedder.ts';
import { createOllamaEmbedder } from './ollama-embedder.ts';
import { createOpenAiEmbedder } from './openai-embedder.ts';

export interface EmbedderEnv {
  /** The environment as read by surfaces/runtime (for the API key variable named in the config). */
  env: Readonly<Record<string, string | undefined>>;
  /** Default directory of local models. */
  engramHome: string;
  fetch?: FetchFn;
}

const DEFAULT_MODEL = {
  ollama: 'nomic-embed-text',
  openai: 'text-embedding-3-small',
  local: 'Xenova/all-MiniLM-L6-v2',
} as const;

export function createEmbedderFromConfig(config: Config, deps: EmbedderEnv): Embedder | null {
  const provider = config['embed.provider'];
  if (provider !== 'ollama' && provider !== 'openai' && provider !== 'local') return null;
  const model = config['embed.model'] || DEFAULT_MODEL[provider];
  const timeoutMs = config['embed.timeoutMs'];
  const fetchFn = deps.fetch ?? fetch;
  const base =
    provider === 'ollama'
      ? createOllamaEmbedder({ model, url: config['embed.url'], fetch: fetchFn, timeoutMs })
      : provider === 'openai'
        ? createOpenAiEmbedder({
            model,
            url: config['embed.url'],
            apiKey: deps.env[config['embed.apiKeyEnv']],
            fetch: fetchFn,
            timeoutMs,
          })
        : createLocalEmbedder({
            model,
            modelPath: config['embed.modelPath'] || `${deps.engramHome}/models`,
            allowDownload: config['embed.allowDownload'],
            installPrefixes: [`${deps.engramHome}/lib`],
          });
  return withPrefixes(base, config['embed.queryPrefix'], config['embed.documentPrefix']);
}

/** Models such as nomic-embed-text or e5 want "search_query: " / "query: " style prefixes. */
export function withPrefixes(embedder: Embedder, queryPrefix: string, documentPrefix: string): Embedder {
  if (!queryPrefix && !documentPrefix) return embedder;
  return {
    id: embedder.id,
    embed: (texts: string[], purpose: EmbedPurpose, signal?: AbortSignal) =>
      embedder.embed(
        texts.map((t) => `${purpose === 'query' ? queryPrefix : documentPrefix}${t}`),
        purpose,
        signal,
      ),
  };
}
