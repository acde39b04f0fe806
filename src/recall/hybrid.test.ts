import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { projectIdFromKey } from '../core/ids.ts';
import { openDatabase } from '../store/database.ts';
import { loadSqliteVec } from '../store/sqlite-vec-loader.ts';
import { createStore, type Store } from '../store/store.ts';
import { embedMemories } from './embed-memories.ts';
import { startFakeEmbedServer, type FakeEmbedServer } from './embedders/fake-embed-server.test-support.ts';
import { createOllamaEmbedder } from './embedders/ollama-embedder.ts';
import { hybridSearch } from './hybrid.ts';
import { insertMemory } from '../store/store.test-support.ts';

describe('hybridSearch (real store, sqlite-vec, loopback embedder)', () => {
  const pid = projectIdFromKey('path:/shop');
  let server: FakeEmbedServer;
  let dir: string;
  let store: Store;
  let ids: Record<string, string>;
  beforeAll(async () => {
    // The fake model knows that a vehicle is an automobile and storage a garage.
    server = await startFakeEmbedServer({ vehicle: 'automobile', vehicles: 'automobile', storage: 'garage' });
  });
  afterAll(async () => {
    await server.close();
  });
  beforeEach(async () => {
    server.mode = 'ok';
    dir = mkdtempSync(join(tmpdir(), 'engram-hybrid-'));
    store = createStore(openDatabase(join(dir, 'db')), { loadVectorExtension: loadSqliteVec });
    ids = {};
    const memories: Record<string, string> = {
      garage: 'Automobile garage opening hours',
      cache: 'Cache invalidation runs on deploy',
      tax: 'Sales tax is rounded per line',
    };
    for (const [key, title] of Object.entries(memories)) {
      ids[key] = insertMemory(store, { projectId: pid, title });
    }
    const embedder = createOllamaEmbedder({ model: 'fake', url: server.url });
    await embedMemories(store, embedder, store.vectors.missing(embedder.id, 10), { at: 2 });
  });
  afterEach(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const embedder = () => createOllamaEmbedder({ model: 'fake', url: server.url });

  it('finds a memory that shares no word with the query through its vector', async () => {
    const query = 'where do vehicles go for storage';
    expect((await hybridSearch(store, null, { query, projectId: pid, limit: 5, now: 2 })).hits).toEqual([]);
    const result = await hybridSearch(store, embedder(), { query, projectId: pid, limit: 5, now: 2 });
    expect(result.mode).toBe('hybrid');
    expect(result.vectorError).toBeNull();
    expect(result.hits[0]?.observation.id).toBe(ids['garage']);
    expect(result.hits[0]?.via).toBe('vector');
    expect(result.hits[0]?.distance).toBeLessThan(result.hits[1]?.distance ?? 2);
    expect(server.requests.at(-1)?.body.input).toEqual([query]);
  });

  it('fuses both lists: a memory found by both halves ranks first, and forgotten memories never come back', async () => {
    const result = await hybridSearch(store, embedder(), {
      query: 'cache deploy',
      projectId: pid,
      limit: 3,
      now: 2,
    });
    expect(result.hits[0]?.via).toBe('both');
    expect(result.hits[0]?.observation.id).toBe(ids['cache']);
    store.memory.forget(ids['cache'] as string, { origin: 'cli', at: 3 });
    const after = await hybridSearch(store, embedder(), {
      query: 'cache deploy',
      projectId: pid,
      limit: 3,
      now: 2,
    });
    expect(after.hits.map((h) => h.observation.id)).not.toContain(ids['cache']);
  });

  it('falls back to lexical results when the embedder fails or is too slow', async () => {
    server.mode = 'error500';
    const failed = await hybridSearch(store, embedder(), {
      query: 'sales tax',
      projectId: pid,
      limit: 3,
      now: 2,
    });
    expect(failed.mode).toBe('lexical');
    expect(failed.vectorError).toMatch(/HTTP 500/);
    expect(failed.hits.map((h) => h.observation.id)).toEqual([ids['tax']]);
    server.mode = 'hang';
    const started = Date.now();
    const slow = await hybridSearch(store, embedder(), {
      query: 'sales tax',
      projectId: pid,
      limit: 3,
      now: 2,
      queryTimeoutMs: 150,
    });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(slow).toMatchObject({ mode: 'lexical', vectorError: expect.stringMatching(/in time/) });
    expect(slow.hits.map((h) => h.observation.id)).toEqual([ids['tax']]);
    const other = createOllamaEmbedder({ model: 'never-used', url: server.url });
    expect(
      (await hybridSearch(store, other, { query: 'sales tax', projectId: pid, limit: 3, now: 2 }))
        .vectorError,
    ).toMatch(/no memories embedded yet/);
  });
});
