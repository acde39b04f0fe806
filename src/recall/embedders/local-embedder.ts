/**
 * Local embeddings with transformers.js (`@huggingface/transformers`, an optional dependency): a
 * feature-extraction pipeline with mean pooling and L2 normalisation, e.g. Xenova/all-MiniLM-L6-v2
 * (384 dimensions). The library is `import()`ed on first use only, so nothing loads it unless this
 * provider is configured, and never on the hook path. Models are read from `modelPath/<model>/`;
 * they are downloaded there only when `allowDownload` is true.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describeError, EngramError } from '../../core/errors.ts';
import type { EmbedPurpose, Embedder } from '../../core/ports.ts';

export interface LocalEmbedderOptions {
  model: string;
  modelPath: string;
  allowDownload: boolean;
  /** The transformers.js package to load (default @huggingface/transformers). */
  moduleName?: string;
  /** Install prefixes looked in when engram's own resolution fails (e.g. `~/.engram/lib`). */
  installPrefixes?: readonly string[];
}

interface FeatureTensor {
  tolist(): unknown;
}
type Extractor = (
  texts: string[],
  options: { pooling: 'mean'; normalize: boolean },
) => Promise<FeatureTensor>;
interface TransformersModule {
  env: {
    allowRemoteModels: boolean;
    allowLocalModels: boolean;
    localModelPath: string;
    cacheDir: string | null;
  };
  pipeline(task: 'feature-extraction', model: string): Promise<Extractor>;
}

/** `import()` the library from engram's own node_modules, else from one of the install prefixes. */
async function importTransformers(
  moduleName: string,
  prefixes: readonly string[],
): Promise<TransformersModule> {
  const tried: string[] = [];
  try {
    return (await import(moduleName)) as TransformersModule;
  } catch (error) {
    tried.push(`engram's node_modules (${describeError(error).split('\n')[0]})`);
  }
  for (const prefix of prefixes) {
    let entry: string;
    try {
      entry = createRequire(join(prefix, 'node_modules', 'noop.js')).resolve(moduleName);
    } catch (error) {
      tried.push(`${prefix} (${describeError(error).split('\n')[0]})`);
      continue;
    }
    return (await import(pathToFileURL(entry).href)) as TransformersModule;
  }
  throw new EngramError('EMBED_FAILED', `the local embedder needs ${moduleName}, which is not installed`, {
    hint: `Run "npm install --prefix ${prefixes[0] ?? '<dir>'} ${moduleName}", or choose another embed.provider. Looked in: ${tried.join('; ')}`,
  });
}

export function createLocalEmbedder(o: LocalEmbedderOptions): Embedder {
  const moduleName = o.moduleName ?? '@huggingface/transformers';
  let extractor: Promise<Extractor> | null = null;
  const load = async (): Promise<Extractor> => {
    const t = await importTransformers(moduleName, o.installPrefixes ?? []);
    t.env.allowLocalModels = true;
    t.env.allowRemoteModels = o.allowDownload;
    t.env.localModelPath = o.modelPath;
    t.env.cacheDir = o.modelPath;
    try {
      return await t.pipeline('feature-extraction', o.model);
    } catch (error) {
      throw new EngramError('EMBED_FAILED', `cannot load the local model ${o.model} from ${o.modelPath}`, {
        cause: error,
        hint: o.allowDownload
          ? 'Check the model name and the network.'
          : `Put the model in ${o.modelPath}/${o.model}/ or set embed.allowDownload to true.`,
      });
    }
  };
  return {
    id: `local:${o.model}`,
    async embed(texts: string[], _purpose: EmbedPurpose, signal?: AbortSignal): Promise<Float32Array[]> {
      if (texts.length === 0) return [];
      signal?.throwIfAborted();
      extractor ??= load().catch((error: unknown) => {
        extractor = null; // a later call tries again (the model may have been put in place meanwhile)
        throw error;
      });
      const run = await extractor;
      const list = (await run(texts, { pooling: 'mean', normalize: true })).tolist();
      signal?.throwIfAborted();
      if (!Array.isArray(list) || list.length !== texts.length) {
        throw new EngramError('EMBED_FAILED', `the local model ${o.model} returned no vector per text`);
      }
      return list.map((row) => Float32Array.from(row as number[]));
    },
  };
}
