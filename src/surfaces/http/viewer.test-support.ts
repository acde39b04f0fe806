/**
 * A real viewer app over a real store in a temporary home, for `app.request()` tests: signed in with a
 * launch token like a browser, requests carrying the viewer's own Host and Origin.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Hono } from 'hono';
import { projectIdFromKey } from '../../core/ids.ts';
import type { Project } from '../../core/model.ts';
import { pathsFor, type EngramPaths } from '../../core/paths.ts';
import { createMemoryLogger } from '../../core/ports.ts';
import { openDatabase } from '../../store/database.ts';
import { createStore, type Store } from '../../store/store.ts';
import { createApp } from './app.ts';
import { createChangeFeed, type ChangeFeed } from './change-feed.ts';
import { createForgetting, type Forgetting } from '../../app/forgetting.ts';
import { createLocalAuth, mintLaunchToken } from './local-auth.ts';
import type { ViewerEnv } from './security.ts';
import { createSettings } from './settings.ts';
import { loadViewerSecret } from './viewer-secret.ts';
import { healthDeps } from '../cli/health-deps.ts';

export const PORT = 7431;
export const ORIGIN = `http://127.0.0.1:${PORT}`;

export interface TestViewer {
  app: Hono<ViewerEnv>;
  store: Store;
  paths: EngramPaths;
  secret: string;
  feed: ChangeFeed;
  forgetting: Forgetting;
  project: Project;
  /** The test clock (ms); move it forward to end an undo window. */
  clock: { now: () => number; set: (at: number) => void };
  /** A request as the signed-in browser sends it (cookie, own Origin on writes). */
  request: (
    path: string,
    init?: { method?: string; body?: unknown; headers?: Record<string, string> },
  ) => Promise<Response>;
  /** The session cookie (`name=value`). */
  cookie: string;
  close: () => void;
}

export async function createTestViewer(options: { env?: Record<string, string> } = {}): Promise<TestViewer> {
  const root = mkdtempSync(join(tmpdir(), 'engram-viewer-'));
  const paths = pathsFor(join(root, 'engram-home'));
  mkdirSync(paths.home, { recursive: true });
  const store = createStore(openDatabase(paths.db));
  let now = Date.UTC(2026, 10, 20, 12);
  const clock = { now: () => now, set: (at: number) => void (now = at) };
  const logger = createMemoryLogger();
  const secret = loadViewerSecret(paths.viewerSecret);
  const settings = createSettings({ path: paths.config, env: options.env ?? {} });
  const feed = createChangeFeed({ store, logger, pollMs: 20 });
  const forgetting = createForgetting({
    store,
    clock,
    logger,
    undoMs: () => settings.current()['viewer.forgetUndoSeconds'] * 1000,
    backupDir: paths.backupDir,
  });
  const app = createApp({
    store,
    clock,
    logger,
    auth: createLocalAuth({ secret, now: clock.now }),
    port: () => PORT,
    assets: { js: '', css: '', version: 'test' },
    settings,
    feed,
    forgetting,
    paths,
    embedder: null,
    prices: () => ({}),
    viewer: { pid: process.pid, startedAt: now, streams: () => feed.listeners() },
    statusDeps: (live) =>
      healthDeps({ paths, env: { HOME: root, ...options.env }, cwd: root, embedderId: null, ...live }),
  });
  const launch = await app.request(`${ORIGIN}/auth/launch?token=${mintLaunchToken(secret, now)}`);
  const cookie = (launch.headers.get('set-cookie') ?? '').split(';')[0] as string;
  const project: Project = {
    id: projectIdFromKey('path:/work/app'),
    name: 'app',
    key: 'path:/work/app',
    root: '/work/app',
  };
  store.sessions.touch(
    project,
    { id: 'session-1', cwd: project.root, transcriptPath: null },
    'SessionStart',
    now,
  );
  return {
    app,
    store,
    paths,
    secret,
    feed,
    forgetting,
    project,
    clock,
    cookie,
    request: async (path, init = {}) => {
      const method = init.method ?? (init.body === undefined ? 'GET' : 'POST');
      const headers: Record<string, string> = { cookie, ...init.headers };
      if (method !== 'GET' && !('origin' in headers)) headers['origin'] = ORIGIN;
      if (init.body !== undefined) headers['content-type'] = 'application/json';
      return app.request(`${ORIGIN}${path}`, {
        method,
        headers,
        ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
      });
    },
    close: () => {
      feed.close();
      store.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}
