/**
 * Background team sync in the worker: every `intervalMs`, one sync of the shared projects runs beside
 * the worker loop — never awaited by a round, so a dead or slow server delays only the sync (each
 * request has its own timeout). Failures back off from 5 s doubling to 5 min; nothing is lost, the
 * outbox and the cursors are in the database.
 */
import { describeError } from '../core/errors.ts';
import type { Clock, Logger } from '../core/ports.ts';
import type { SyncReport } from './team-sync.ts';

export interface TeamSyncScheduler {
  /** Start a sync if none runs and one is due. Never throws, never waits. */
  tick(now: number): void;
  /** Resolves when the sync in flight (if any) has ended. */
  settled(): Promise<void>;
}

const FIRST_BACKOFF_MS = 5000;
const MAX_BACKOFF_MS = 300_000;

export function createTeamSyncScheduler(deps: {
  sync: () => Promise<SyncReport>;
  logger: Logger;
  clock: Clock;
  intervalMs: number;
  signal: AbortSignal;
}): TeamSyncScheduler {
  let running: Promise<void> | null = null;
  let dueAt = 0;
  let backoff = FIRST_BACKOFF_MS;
  const run = async (): Promise<void> => {
    try {
      const report = await deps.sync();
      if (report.errors.length > 0)
        throw new Error(report.errors.map((e) => `${e.project}: ${e.error}`).join('; '));
      const moved = report.pushed.accepted + report.pulled;
      if (moved > 0 || report.blocked.length > 0) {
        deps.logger.info('team sync', {
          pushed: report.pushed.accepted,
          pulled: report.pulled,
          blocked: report.blocked.length,
          conflicts: report.conflicts,
        });
      }
      backoff = FIRST_BACKOFF_MS;
      dueAt = deps.clock.now() + deps.intervalMs;
    } catch (error) {
      dueAt = deps.clock.now() + backoff;
      deps.logger.warn('team sync failed; will retry', { error: describeError(error), retryInMs: backoff });
      backoff = Math.min(MAX_BACKOFF_MS, backoff * 2);
    }
  };
  return {
    tick(now: number): void {
      if (running || now < dueAt || deps.signal.aborted) return;
      running = run().finally(() => {
        running = null;
      });
    },
    settled: () => running ?? Promise.resolve(),
  };
}

/**
 * A scheduler ticked by a timer, for a process without a loop of its own (the viewer). `stop` ends
 * the ticks and waits for the sync in flight.
 */
export function tickEvery(
  scheduler: TeamSyncScheduler,
  clock: Clock,
  everyMs: number,
): { stop(): Promise<void> } {
  scheduler.tick(clock.now());
  const timer = setInterval(() => scheduler.tick(clock.now()), everyMs);
  return {
    stop: async () => {
      clearInterval(timer);
      await scheduler.settled();
    },
  };
}
