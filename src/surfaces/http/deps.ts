/**
 * What the viewer's app is made of (injected by `engram ui`, or by a test), and what each route
 * module gets.
 */
import type { HealthDeps } from '../../app/health.ts';
import type { Config, ConfigIssue } from '../../core/config.ts';
import type { EngramPaths } from '../../core/paths.ts';
import type { Clock, Embedder, Logger } from '../../core/ports.ts';
import type { Prices } from '../../core/prices.ts';
import type { Store } from '../../store/store.ts';
import type { ChangeFeed } from './change-feed.ts';
import type { Forgetting } from '../../app/forgetting.ts';

import type { ViewerAuth } from './local-auth.ts';
import type { Settings } from './settings.ts';

/** The status verb's needs for the configuration in force (the viewer's settings can change). */
export type StatusDeps = (live: {
  config: Config;
  configIssues: readonly ConfigIssue[];
  now: number;
}) => Omit<HealthDeps, 'store'>;

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
  /** What the status verb needs beyond the store, for the configuration in force (from `engram ui`). */
  statusDeps: StatusDeps;
  /** Called when a browser opens a live stream; returns the function called when it closes. */
  onStreamOpen?: () => () => void;
}

/** What every route module gets: the deps and the configuration in force. */
export interface RouteDeps extends ViewerDeps {
  config: () => Config;
}
