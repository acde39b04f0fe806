/**
 * The long-lived worker loop: hold the single-worker lock, drain the queue, prune old raw events,
 * back the database up on a schedule, and exit after a quiet spell (the next hook starts a new worker).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Config } from '../core/config.ts';
import { describeError } from '../core/errors.ts';
import type { ProjectLinks } from '../core/model.ts';
import type { Clock, Embedder, Logger } from '../core/ports.ts';
import { isStoreBusy } from '../store/database.ts';
import { WORKER_HEARTBEAT_MS, type ProcessStamp } from '../store/process-identity.ts';
import type { Distiller } from '../distill/heuristic-distiller.ts';
import { forgetDue } from '../app/forget.ts';
import type { Store } from '../store/store.ts';
import { pruneTold } from '../store/told-ledger.ts';
import { drainOnce, drainOnceAsync, type TurnPreparer } from './drain.ts';
import { createBackupScheduler } from './backup-scheduler.ts';
import { createEmbedScheduler } from './embed-pending.ts';
import { createSnapshotKeeper } from './context-snapshots.ts';
import { createGraphPass } from './graph-pass.ts';
import { importInboxInto } from './import-inbox.ts';
import type { StandingLocator } from './standing-pass.ts';
import { sealKeyringsAtRest } from './keyring-at-rest.ts';
import { rescreenBatch } from './rescreen.ts';
import { createTeamSyncScheduler } from './team-scheduler.ts';
import type { SyncReport } from './team-sync.ts';

export interface WorkerDeps {
  store: Store;
  distiller: Distiller;
  logger: Logger;
  clock: Clock;
  config: Config;
  /** This process (pid and start time): the worker lock names its holder by both. */
  stamp: ProcessStamp;
  signal: AbortSignal;
  /** Called with each heartbeat (every few seconds): the surface moves its pid file's time on. */
  onHeartbeat?: () => void;
  /** The inbox directory capture hooks write to. */
  inboxDir: string;
  /** Where session logs written from a host's store go (`$ENGRAM_HOME/host-sessions`). */
  hostSessionsDir?: string;
  /** Where context hooks note what they told each session (files older than a day are removed). */
  toldDir?: string;
  /** The LLM step (opt-in `distill.provider`); absent: heuristic only. */
  prepare?: TurnPreparer;
  /** Embeds memories in the background when configured (embed.provider); null: lexical only. */
  embedder?: Embedder | null;
  /** Confirmed `.engram.json` project links. */
  projectLinks?: ProjectLinks;
  /** One team sync of the shared projects (after `engram team login`); absent: no team. */
  teamSync?: (() => Promise<SyncReport>) | null;
  /** Where the database is backed up (backup.intervalHours, backup.keep); absent: no backups. */
  backupDir?: string;
  /** Where SessionStart snapshots are kept for the context hooks (context-snapshots.ts); absent: none. */
  snapshotDir?: string;
  /** Reads the store's state for the snapshots' note (its descriptor closed by the caller, after the store). */
  stateReader?: { read(): string | null };
  /** The projects' standing files (rules files, the user's notes), read again when a session starts. */
  standingFiles?: StandingLocator;
}

export type WorkerExit = 'idle' | 'stopped' | 'lock-held' | 'lock-lost';

/** The longest pause after the database was busy (the pause doubles from worker.pollMs). */
const MAX_BUSY_BACKOFF_MS = 5_000;

const DAY_MS = 86_400_000;

export async function runWorker(deps: WorkerDeps): Promise<WorkerExit> {
  const { store, logger, clock, config, signal } = deps;
  const pid = deps.stamp.pid;
  const lock = store.workerLock.acquire(deps.stamp, clock.now());
  if (!lock.ok) {
    logger.info('another worker is running; exiting', { holder: lock.holder });
    return 'lock-held';
  }
  logger.info('worker started', { pid });
  // The heartbeat runs on a timer, so a long LLM call or embedding never makes the worker look dead.
  let lockLost = false;
  const stopped = new AbortController();
  const beat = () => {
    try {
      if (!store.workerLock.heartbeat(pid, clock.now())) {
        lockLost = true;
        stopped.abort();
        return;
      }
      deps.onHeartbeat?.();
    } catch (error) {
      logger.warn('heartbeat failed', { error: describeError(error) });
    }
  };
  const heartbeat = setInterval(beat, WORKER_HEARTBEAT_MS);
  heartbeat.unref();
  let busyBackoff = 0;
  const waiting = new Map<string, string>();
  let lastWork = clock.now();
  let lastPrune = 0;
  // Background embedding runs beside the loop with its own abort, so an idle exit stops it too.
  const embedAbort = new AbortController();
  const stopEmbedding = () => embedAbort.abort();
  signal.addEventListener('abort', stopEmbedding);
  stopped.signal.addEventListener('abort', stopEmbedding);
  const stopRequested = () => signal.aborted || stopped.signal.aborted;
  const embeds = deps.embedder
    ? createEmbedScheduler({
        store,
        embedder: deps.embedder,
        logger,
        clock,
        batchSize: config['embed.batchSize'],
        timeoutMs: config['embed.timeoutMs'],
        signal: embedAbort.signal,
      })
    : null;
  const graph = createGraphPass({ store, config, logger });
  const snapshots = deps.snapshotDir
    ? createSnapshotKeeper({
        store,
        config,
        dir: deps.snapshotDir,
        logger,
        startedAt: clock.now(),
        ...(deps.stateReader ? { stateReader: deps.stateReader } : {}),
      })
    : null;
  const team = deps.teamSync
    ? createTeamSyncScheduler({
        sync: deps.teamSync,
        logger,
        clock,
        intervalMs: config['team.syncIntervalSeconds'] * 1000,
        signal: embedAbort.signal,
      })
    : null;
  try {
    // Before any backup: a project key an earlier engram kept in the clear is wrapped for this device.
    const sealed = sealKeyringsAtRest(store);
    if (sealed.length > 0)
      logger.info('wrapped project keys for this device', { projects: sealed.join(' ') });
  } catch (error) {
    logger.warn('could not wrap the project keys kept in the clear', { error: describeError(error) });
  }
  const backups = deps.backupDir
    ? createBackupScheduler({
        store,
        dir: deps.backupDir,
        logger,
        clock,
        intervalMs: config['backup.intervalHours'] * 3_600_000,
        keep: config['backup.keep'],
      })
    : null;
  try {
    while (!stopRequested()) {
      const now = clock.now();
      let busy = false;
      try {
        const imported = importInboxInto(store, deps.inboxDir, logger, deps.standingFiles);
        if (imported.imported > 0) lastWork = now;
        const drainDeps = {
          store,
          distiller: deps.distiller,
          logger,
          readTranscripts: true,
          inboxDir: deps.inboxDir,
          ...(deps.hostSessionsDir ? { hostSessionsDir: deps.hostSessionsDir } : {}),
          ...(deps.standingFiles ? { standingFiles: deps.standingFiles } : {}),
          waiting,
          ...(deps.projectLinks ? { projectLinks: deps.projectLinks } : {}),
        };
        const drainOptions = {
          force: false,
          now,
          staleTurnMs: config['worker.staleTurnSeconds'] * 1000,
          maxAttempts: config['worker.maxAttempts'],
        };
        const report = deps.prepare
          ? await drainOnceAsync(drainDeps, drainOptions, deps.prepare)
          : drainOnce(drainDeps, drainOptions);
        if (report.events > 0) {
          lastWork = now;
          logger.info('distilled', {
            turns: report.turns,
            events: report.events,
            observations: report.observations,
          });
        }
        if (report.failures > 0) lastWork = now;
        // Forgets asked for in a viewer that stopped before their undo window ended.
        const forgotten = forgetDue({ store, backupDir: deps.backupDir ?? null }, now, () => ({
          origin: 'viewer',
          at: clock.now(),
        })).length;
        if (forgotten > 0) logger.info('forgot memories whose undo window ended', { erased: forgotten });
        busy = report.busy > 0;
        if (now - lastPrune > 3_600_000) {
          lastPrune = now;
          const pruned = store.transaction(() =>
            store.events.pruneDone(now - config['retention.eventDays'] * DAY_MS),
          );
          if (pruned > 0) logger.info('pruned distilled raw events', { pruned });
          const told = store.transaction(() =>
            store.contextLog.pruneBefore(now - config['retention.contextLogDays'] * DAY_MS),
          );
          if (told > 0) logger.info('pruned the context log', { rows: told });
          if (embeds) store.transaction(() => store.vectors.prune());
          if (deps.toldDir) pruneTold(deps.toldDir, now - DAY_MS);
        }
        // Memories judged by an earlier screen version (or none) are judged again.
        const rescreened = rescreenBatch(store, clock.now());
        if (rescreened.held > 0) logger.warn('quarantined memories on a new screen', rescreened);
        if (rescreened.screened > 0) lastWork = now;
        // The graph grows from what was just distilled (edges, anchors, staleness, the vault).
        if (graph.tick(clock.now())) lastWork = now;
        // Last, once the round's changes are in: what the next session's hook will read.
        snapshots?.tick(clock.now());
        // After distillation, never before it: embedding only ever uses the time the queue leaves.
        embeds?.tick(clock.now());
        team?.tick(clock.now());
        backups?.tick(clock.now());
        // What the round wrote is in: the hooks can tell the snapshots still stand without SQLite.
        snapshots?.mark();
        // Open turns still waiting for their Stop keep the worker alive until they are distilled.
        if (store.events.hasPending()) lastWork = Math.max(lastWork, now - 1);
        // So do forgets whose undo window has not ended yet.
        if (store.pendingForgets.any()) lastWork = Math.max(lastWork, now - 1);
      } catch (error) {
        // A busy or failing database must not kill the worker; it tries again next round.
        busy = isStoreBusy(error);
        if (busy) logger.warn('the database is busy; trying again shortly', { error: describeError(error) });
        else logger.error('worker round failed', { error: describeError(error) });
        lastWork = Math.max(lastWork, now - 1);
      }
      if (embeds) lastWork = Math.max(lastWork, embeds.lastProgressAt());
      if (clock.now() - lastWork >= config['worker.idleExitSeconds'] * 1000) {
        logger.info('worker idle; exiting', { pid });
        return 'idle';
      }
      // Busy: back off (doubling, capped) so other writers get through; never counted as a failure.
      busyBackoff = busy
        ? Math.min(MAX_BUSY_BACKOFF_MS, Math.max(config['worker.pollMs'], busyBackoff * 2))
        : 0;
      try {
        await sleep(busy ? busyBackoff : config['worker.pollMs'], undefined, {
          signal: AbortSignal.any([signal, stopped.signal]),
        });
      } catch {
        // Aborted while sleeping: the loop condition ends the run.
      }
    }
    if (lockLost) {
      logger.warn('another worker took the lock over; exiting', { pid });
      return 'lock-lost';
    }
    logger.info('worker stopped', { pid });
    return 'stopped';
  } finally {
    clearInterval(heartbeat);
    stopEmbedding();
    stopped.signal.removeEventListener('abort', stopEmbedding);
    signal.removeEventListener('abort', stopEmbedding);
    await embeds?.settled();
    await team?.settled();
    await backups?.settled();
    store.workerLock.release(pid);
  }
}
