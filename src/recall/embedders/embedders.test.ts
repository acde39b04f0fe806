import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../core/config.ts';
import { EngramError } from '../../core/errors.ts';
import type { Embedder } from '../../core/ports.ts';
import {
  FAKE_DIMS,
  hashedBagOfWords,
  startFakeEmbedServer,
  type FakeEmbedServer,
} from './fake-embed-server.test-support.ts';
import { createEmbedderFromConfig } from './from-config.ts';
import { createLocalEmbedder } from './local-embedder.ts';
import { createOllamaEmbedder } from './ollama-embedder.ts';
import { createOpenAiEmbedder } from './openai-embedder.ts';

let server: FakeEmbedServer;
beforeAll(async () => {
  server = await startFakeEmbedServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.mode = 'ok';
  server.requests.length = 0;
});

const providers: [string, (timeoutMs?: number) => Embedder, string][] = [
  [
    'ollama',
    (timeoutMs = 5000) => createOllamaEmbedder({ model: 'nomic-embed-text', url: server.url, timeoutMs }),
    '/api/embed',
  ],
  [
    'openai',
    (timeoutMs = 5000) =>
      createOpenAiEmbedder({
        model: 'text-embedding-3-small',
        url: `${server.url}/v1/`,
        apiKey: 'sk-test',
        timeoutMs,
      }),
    '/v1/embeddings',
  ],
];

describe.each(providers)('%s embedder against a loopback server', (name, make, path) => {
  it('embeds a batch in order, with the model name and the right path', async () => {
    const e = make();
    expect(e.id.startsWith(`${name}:`)).toBe(true);
    const out = await e.embed(['red apple', 'green pear', 'red apple again'], 'document');
    expect(out).toHaveLength(3);
    expect(out[0]).toBeInstanceOf(Float32Array);
    expect(out[0]?.length).toBe(FAKE_DIMS);
    expect([...(out[1] as Float32Array)]).toEqual([...Float32Array.from(hashedBagOfWords('green pear'))]);
    expect(server.requests[0]?.path).toBe(path);
    expect(server.requests[0]?.body.input).toEqual(['red apple', 'green pear', 'red apple again']);
    if (name === 'openai') expect(server.requests[0]?.auth).toBe('Bearer sk-test');
    expect(await e.embed([], 'query')).toEqual([]);
    expect(server.requests).toHaveLength(1);
  });

  it('reports 5xx, timeouts, malformed and short replies as EMBED_FAILED, a refused input as EMBED_REJECTED', async () => {
    const e = make(300);
    for (const [mode, pattern] of [
      ['error500', /HTTP 500/],
      ['reject', /HTTP 400/],
      ['hang', /no answer within 300 ms/],
      ['malformed', /not JSON|malformed/],
      ['wrong-count', /1 embeddings for 2 texts/],
    ] as const) {
      server.mode = mode === 'reject' ? 'ok' : mode;
      server.rejectWord = mode === 'reject' ? 'b' : null;
      const error = await e.embed(['a', 'b'], 'document').catch((err: unknown) => err);
      server.rejectWord = null;
      expect(error).toBeInstanceOf(EngramError);
      expect((error as EngramError).code).toBe(mode === 'reject' ? 'EMBED_REJECTED' : 'EMBED_FAILED');
      expect((error as Error).message).toMatch(pattern);
    }
  });

  it('stops when the caller aborts, and fails cleanly when nothing listens', async () => {
    server.mode = 'hang';
    const controller = new AbortController();
    const pending = make().embed(['a'], 'query', controller.signal);
    controller.abort();
    await expect(pending).rejects.toThrow(/request aborted/);
    const closed =
      name === 'ollama'
        ? createOllamaEmbedder({ model: 'm', url: 'http://127.0.0.1:9', timeoutMs: 500 })
        : createOpenAiEmbedder({ model: 'm', url: 'http://127.0.0.1:9', timeoutMs: 500 });
    await expect(closed.embed(['a'], 'document')).rejects.toThrow(/request failed/);
  });
});

describe('embedders from config', () => {
  it('none gives no embedder; providers get their defaults, the key from the named variable and prefixes', async () => {
    expect(createEmbedderFromConfig(resolveConfig({ env: {} }), { env: {}, engramHome: '/h' })).toBeNull();
    const config = resolveConfig({
      env: {
        ENGRAM_EMBED_PROVIDER: 'openai',
        ENGRAM_EMBED_URL: server.url,
        ENGRAM_EMBED_API_KEY_ENV: 'MY_KEY',
        ENGRAM_EMBED_QUERY_PREFIX: 'query: ',
      },
    });
    const e = createEmbedderFromConfig(config, { env: { MY_KEY: 'k-123' }, engramHome: '/h' });
    expect(e?.id).toBe('openai:text-embedding-3-small');
    await e?.embed(['where'], 'query');
    await e?.embed(['doc'], 'document');
    expect(server.requests.map((r) => [r.auth, r.body.input])).toEqual([
      ['Bearer k-123', ['query: where']],
      ['Bearer k-123', ['doc']],
    ]);
    const ollama = createEmbedderFromConfig(resolveConfig({ env: { ENGRAM_EMBED_PROVIDER: 'ollama' } }), {
      env: {},
      engramHome: '/h',
    });
    expect(ollama?.id).toBe('ollama:nomic-embed-text');
  });

  it('the local embedder explains a missing library or model instead of crashing', async () => {
    const e = createLocalEmbedder({
      model: 'Xenova/all-MiniLM-L6-v2',
      modelPath: '/nonexistent/models',
      allowDownload: false,
      moduleName: '@engram-test/not-installed-transformers',
    });
    expect(e.id).toBe('local:Xenova/all-MiniLM-L6-v2');
    await expect(e.embed(['x'], 'document')).rejects.toThrow(/not installed/);
  });
});
