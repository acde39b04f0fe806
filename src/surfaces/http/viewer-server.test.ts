import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { projectIdFromKey } from '../../core/ids.ts';
import { pathsFor, type EngramPaths } from '../../core/paths.ts';
import { createMemoryLogger } from '../../core/ports.ts';
import { openDatabase } from '../../store/database.ts';
import { createStore, type Store } from '../../store/store.ts';
import { insertMemory } from '../../store/store.test-support.ts';
import { LAUNCH_TTL_MS } from './local-auth.ts';
import { healthDeps } from '../cli/health-deps.ts';
import { startViewer } from './viewer-server.ts';
import { loadViewerSecret } from './viewer-secret.ts';

describe('the running viewer', () => {
  let root: string;
  let paths: EngramPaths;
  let store: Store;
  let now: number;
  const clock = { now: () => now };
  const start = () =>
    startViewer({
      store,
      paths,
      env: {},
      secret: loadViewerSecret(paths.viewerSecret),
      assets: { js: '', css: '', version: 'test' },
      clock,
      logger: createMemoryLogger(),
      embedder: null,
      port: 0,
      pollMs: 20,
      statusDeps: (live) => healthDeps({ paths, env: { HOME: root }, cwd: root, embedderId: null, ...live }),
    });

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'engram-viewer-server-'));
    paths = pathsFor(join(root, 'home'));
    mkdirSync(paths.home, { recursive: true });
    store = createStore(openDatabase(paths.db));
    now = Date.UTC(2026, 10, 20);
  });
  afterEach(() => {
    store.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('listens on 127.0.0.1 only and answers its launch link once', async () => {
    const viewer = await start();
    try {
      const url = new URL(viewer.launchUrl());
      expect(url.hostname).toBe('127.0.0.1');
      const first = await fetch(url, { redirect: 'manual' });
      expect(first.status).toBe(303);
      expect(first.headers.get('set-cookie')).toMatch(/HttpOnly/);
      expect((await fetch(url, { redirect: 'manual' })).status).toBe(401);
    } finally {
      await viewer.stop();
    }
    await expect(viewer.done).resolves.toBe('stopped');
  });

  it('stops when no tab has come for the launch link’s lifetime, erasing what waited to be forgotten', async () => {
    const viewer = await start();
    const id = insertMemory(store, { projectId: projectIdFromKey('path:/p'), title: 'to be forgotten' });
    const secret = loadViewerSecret(paths.viewerSecret);
    const forgot = await fetch(`http://127.0.0.1:${viewer.port}/api/memories/${id}/forget`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secret}` },
    });
    expect(forgot.status).toBe(200);
    expect(store.observations.get(id)?.status).toBe('archived');
    now += LAUNCH_TTL_MS + 1000; // nobody opened the link
    await expect(viewer.done).resolves.toBe('idle');
    expect(store.observations.get(id)?.status).toBe('forgotten');
    await expect(fetch(`http://127.0.0.1:${viewer.port}/`)).rejects.toThrow();
  });
});
