/**
 * The health page's model: the worker, the queue and its parked turns, files the inbox set aside,
 * configuration problems, the distiller's budget state, the database, and the viewer itself.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { Config, ConfigIssue } from '../../core/config.ts';
import type { EngramPaths } from '../../core/paths.ts';
import { listInbox, listRejected } from '../../store/inbox.ts';
import { SCHEMA_VERSION } from '../../store/migrations/index.ts';
import type { Store } from '../../store/store.ts';
import { problemsSince } from '../cli/log-errors.ts';
import { distillStatus } from '../distill-status.ts';
import { runningWorkerPid } from '../worker-launcher.ts';

/** What the viewer knows of its own process. */
export interface ViewerProcess {
  pid: number;
  startedAt: number;
  /** Open live streams (browser tabs). */
  streams: () => number;
}

export function healthReport(
  deps: {
    store: Store;
    paths: EngramPaths;
    config: Config;
    viewer: ViewerProcess;
    configIssues: readonly ConfigIssue[];
  },
  now: number,
) {
  const { store, paths } = deps;
  const pid = runningWorkerPid(paths);
  let dbBytes = 0;
  try {
    dbBytes = statSync(paths.db).size;
  } catch {
    // An in-memory or not yet created database has no size to show.
  }
  return {
    worker: { running: pid !== null, pid },
    queue: { inbox: listInbox(paths.inboxDir).length, ...store.events.counts() },
    parked: store.events.parked(50),
    rejected: listRejected(paths.inboxDir, 50),
    config: { issues: deps.configIssues },
    // Read only: `engram status` keeps its own mark of what it has reported.
    hookLog: problemsSince(paths.hookLog, join(paths.logDir, '.hook-log-seen'), { keepMark: true }),
    distill: distillStatus(store, deps.config, now),
    database: { path: paths.db, bytes: dbBytes, schemaVersion: SCHEMA_VERSION },
    memories: store.observations.countByStatus(),
    viewer: {
      pid: deps.viewer.pid,
      startedAt: deps.viewer.startedAt,
      streams: deps.viewer.streams(),
    },
  };
}

export type HealthReport = ReturnType<typeof healthReport>;
