/**
 * The long-lived worker loop: hold the single-worker lock, drain the queue, prune old raw events,
 * and exit after a quiet spell (the next hook starts a new worker).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Config } from '../core/config.ts';
import { describeError } from '../core/errors.ts';
import type { ProjectLinks } from '../core/model.ts';
import type { Clock, Embedder, Logger } from '../core/ports.ts';
import type { Distiller } from '../distill/heuristic-distiller.ts';
import type { Store } from '../store/store.ts';
import { drainOnce, drainOnceAsync, type TurnPreparer } from './drain.ts';
import { createEmbedScheduler } from './embed-pending.ts';
import { importInboxInto } from './import-inbox.ts';

export interface WorkerDeps {
  store: Store;
  distiller: Distiller;
  logger: Logger;
  clock: Clock;
  config: Config;
  pid: number;
  signal: AbortSignal;
  /** The inbox directory capture hooks write to. */
  inboxDir: string;
  /** The LLM step (opt-in `distill.provider`); absent: heuristic only. */
  prepare?: TurnPreparer;
  /** Embeds memories in the background when configured (embed.provider); null: lexical only. */
  embedder?: Embedder | null;
  /** Confirmed `.engram.json` project links. */
  projectLinks?: ProjectLinks;
}

export type WorkerExit = 'idle' | 'stopped' | 'lock-held';

const DAY_MS = 86_400_000;

export async function runWorker(deps: WorkerDeps): Promise<WorkerExit> {
  const { store, logger, clock, config, pid, signal } = deps;
  const lock = store.workerLock.acquire(pid, clock.now());
  if (!lock.ok) {
    logger.info('another worker is running; exiting', { holder: lock.holder });
    return 'lock-held';
  }
  logger.info('worker started', { pid });
  let lastWork = clock.now();
  let lastPrune = 0;
  // Background embedding runs beside the loop with its own abort, so an idle exit stops it too.
  const embedAbort = new AbortController();
  const stopEmbedding = () => embedAbort.abort();
  signal.addEventListener('abort', stopEmbedding);
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
  try {
    while (!signal.aborted) {
      const now = clock.now();
      try {
        const imported = importInboxInto(store, deps.inboxDir);
        if (imported.imported > 0) lastWork = now;
        if (imported.rejected > 0)
          logger.warn('unreadable inbox files moved to inbox/rejected', { count: imported.rejected });
        const drainDeps = {
          store,
          distiller: deps.distiller,
          logger,
          readTranscripts: true,
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
        if (now - lastPrune > 3_600_000) {
          lastPrune = now;
          const pruned = store.transaction(() =>
            store.events.pruneDone(now - config['retention.eventDays'] * DAY_MS),
          );
          if (pruned > 0) logger.info('pruned distilled raw events', { pruned });
          if (embeds) store.transaction(() => store.vectors.prune());
        }
        // After distillation, never before it: embedding only ever uses the time the queue leaves.
        embeds?.tick(clock.now());
        store.workerLock.heartbeat(pid, now);
      } catch (error) {
        // A busy or failing database must not kill the worker; it tries again next round.
        logger.error('worker round failed', { error: describeError(error) });
      }
      // Open turns still waiting for their Stop keep the worker alive until they are distilled.
      if (store.events.hasPending()) lastWork = Math.max(lastWork, now - 1);
      if (embeds) lastWork = Math.max(lastWork, embeds.lastProgressAt());
      if (clock.now() - lastWork >= config['worker.idleExitSeconds'] * 1000) {
        logger.info('worker idle; exiting', { pid });
        return 'idle';
      }
      try {
        await sleep(config['worker.pollMs'], undefined, { signal });
      } catch {
        // Aborted while sleeping: the loop condition ends the run.
      }
    }
    logger.info('worker stopped', { pid });
    return 'stopped';
  } finally {
    stopEmbedding();
    signal.removeEventListener('abort', stopEmbedding);
    await embeds?.settled();
    store.workerLock.release(pid);
  }
}
