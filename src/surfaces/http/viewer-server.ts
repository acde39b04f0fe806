/**
 * The viewer as a running server (what `engram ui` starts, in a process of its own): the app wired to
 * the store, served on 127.0.0.1 only, erasing forgets once their undo window ends, and stopping once
 * no browser tab has been connected (no live stream, no request) for `viewer.idleExitSeconds`. The
 * capture worker is a separate process and is unaffected.
 */
import { serve, type ServerType } from '@hono/node-server';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describeError, EngramError } from '../../core/errors.ts';
import type { EngramPaths } from '../../core/paths.ts';
import type { Clock, Embedder, Logger } from '../../core/ports.ts';
import type { Store } from '../../store/store.ts';
import { loadPrices } from '../prices-file.ts';
import { createApp } from './app.ts';
import type { StatusDeps, ViewerAssets } from './deps.ts';
import { createChangeFeed } from './change-feed.ts';
import { createForgetting } from '../../app/forgetting.ts';
import { createLocalAuth, LAUNCH_TTL_MS, mintLaunchToken } from './local-auth.ts';
import { createSettings } from './settings.ts';

export interface ViewerOptions {
  store: Store;
  paths: EngramPaths;
  env: Readonly<Record<string, string | undefined>>;
  secret: string;
  assets: ViewerAssets;
  clock: Clock;
  logger: Logger;
  embedder: Embedder | null;
  /** 0 picks a free port. */
  port: number;
  /** How often the live stream reads the change log (default 250 ms). */
  pollMs?: number;
  /** What the status verb needs beyond the store (the health page and API). */
  statusDeps: StatusDeps;
}

export interface RunningViewer {
  port: number;
  /** A fresh one-time launch link. */
  launchUrl(): string;
  /** Resolves when the viewer stopped (idle, or `stop()`). */
  done: Promise<'idle' | 'stopped'>;
  stop(): Promise<void>;
}

/** `http://127.0.0.1:<port>/auth/launch?token=…` */
export function launchUrlFor(port: number, secret: string, now: number): string {
  return `http://127.0.0.1:${port}/auth/launch?token=${mintLaunchToken(secret, now)}`;
}

function listen(
  fetch: (request: Request) => Response | Promise<Response>,
  port: number,
): Promise<ServerType> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch, hostname: '127.0.0.1', port }, () => resolve(server));
    server.once('error', (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'EADDRINUSE'
          ? new EngramError('INPUT_INVALID', `port ${port} on 127.0.0.1 is taken`, {
              hint: 'Pick another with --port N (0 picks a free one), or set viewer.port.',
            })
          : error,
      );
    });
  });
}

export async function startViewer(options: ViewerOptions): Promise<RunningViewer> {
  const { store, clock, logger, paths } = options;
  const settings = createSettings({ path: paths.config, env: options.env });
  const feed = createChangeFeed({ store, logger, pollMs: options.pollMs ?? 250 });
  const forgetting = createForgetting({
    store,
    clock,
    logger,
    undoMs: () => settings.current()['viewer.forgetUndoSeconds'] * 1000,
    backupDir: paths.backupDir,
  });
  const startedAt = clock.now();
  let lastActivity = startedAt;
  let streams = 0;
  let everConnected = false;
  let port = 0;
  const app = createApp({
    store,
    clock,
    logger,
    auth: createLocalAuth({ secret: options.secret, now: () => clock.now() }),
    port: () => port,
    assets: options.assets,
    settings,
    feed,
    forgetting,
    paths,
    embedder: options.embedder,
    prices: () => loadPrices(join(paths.home, 'prices.json')),
    viewer: { pid: process.pid, startedAt, streams: () => streams },
    statusDeps: options.statusDeps,
    onStreamOpen: () => {
      streams++;
      everConnected = true;
      return () => {
        streams--;
        lastActivity = clock.now();
      };
    },
  });
  const server = await listen((request) => {
    lastActivity = clock.now();
    return app.fetch(request);
  }, options.port);
  port = (server.address() as AddressInfo).port;
  forgetting.sweep(); // forgets left pending by a viewer that stopped early

  let finish: (how: 'idle' | 'stopped') => void = () => undefined;
  const done = new Promise<'idle' | 'stopped'>((resolve) => (finish = resolve));
  let stopping: Promise<void> | null = null;
  const stop = (how: 'idle' | 'stopped') =>
    (stopping ??= (async () => {
      clearInterval(timer);
      feed.close();
      (server as Server).closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      // Nobody can undo once the viewer is gone: what was asked to be forgotten is forgotten now.
      forgetting.sweep(Number.MAX_SAFE_INTEGER);
      logger.info('viewer stopped', { how });
      finish(how);
    })());
  const timer = setInterval(() => {
    try {
      forgetting.sweep();
    } catch (error) {
      logger.warn('could not erase forgotten memories yet', { error: describeError(error) });
    }
    // Until a tab first connects, the launch link gets its whole lifetime to be opened.
    const idleMs = Math.max(
      settings.current()['viewer.idleExitSeconds'] * 1000,
      everConnected ? 0 : LAUNCH_TTL_MS,
    );
    if (streams === 0 && clock.now() - lastActivity >= idleMs) void stop('idle');
  }, 1000);
  logger.info('viewer listening', { port });
  return {
    port,
    launchUrl: () => launchUrlFor(port, options.secret, clock.now()),
    done,
    stop: () => stop('stopped'),
  };
}
