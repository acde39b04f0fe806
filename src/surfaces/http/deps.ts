/**
 * What the viewer's app is made of (injected by `engram ui`, or by a test), and what each route
 * module gets.
 */
import type { Config } from '../../core/config.ts';
import type { EngramPaths } from '../../core/paths.ts';
import type { Clock, Embedder, Logger } from '../../core/ports.ts';
import type { Prices } from '../../core/prices.ts';
import type { Store } from '../../store/store.ts';
import type { ChangeFeed } from './change-feed.ts';
import type { Forgetting } from '../../app/forgetting.ts';

import type { ViewerAuth } from './local-auth.ts';
import type { Settings } from './settings.ts';

/** What the viewer knows of its own process. */
export interface ViewerProcess {
  pid: number;
  startedAt: number;
  /** Open live streams (browser tabs). */
  streams: () => number;
}

/** The browser script and stylesheet (built into dist/viewer/), with a version for cache-busting. */
export interface ViewerAssets {
  js: string;
  css: string;
  version: string;
}

export interface ViewerDeps {
  store: Store;
  clock: Clock;
  logger: Logger;
  auth: ViewerAuth;
  /** The port the server listens on (the Host and Origin checks need it). */
  port: () => number;
  assets: ViewerAssets;
  settings: Settings;
  feed: ChangeFeed;
  forgetting: Forgetting;
  paths: EngramPaths;
  /** The embedder for hybrid search (null: lexical only). */
  embedder: Embedder | null;
  prices: () => Prices;
  viewer: ViewerProcess;
  /** The environment it was started with (HOME: where the host keeps transcripts) and its directory. */
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  /** Called when a browser opens a live stream; returns the function called when it closes. */
  onStreamOpen?: () => () => void;
}

/** What every route module gets: the deps and the configuration in force. */
export interface RouteDeps extends ViewerDeps {
  config: () => Config;
}
