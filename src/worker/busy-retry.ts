/**
 * A worker that finds the database busy when it starts waits instead of exiting: another process may
 * hold the write lock longer than SQLite's busy timeout (one creating the store runs every migration
 * in one transaction, which a loaded machine can stretch to seconds), and a worker that gave up then
 * left no trace but an exit code nobody reads.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { describeError } from '../core/errors.ts';
import type { Logger } from '../core/ports.ts';
import { isStoreBusy } from '../store/database.ts';

export interface BusyRetryOptions {
  /** When to stop trying (epoch ms): the last busy error is thrown then. */
  giveUpAt: number;
  now: () => number;
  logger: Logger;
  /** Pause between attempts; each attempt has already waited SQLite's busy timeout. */
  pauseMs?: number;
  /** Aborted (the worker was told to stop): the last busy error is thrown at once. */
  signal?: AbortSignal;
}

/** `attempt()`, tried again while it fails because the database is busy; any other error is thrown. */
export async function retryWhileBusy<T>(attempt: () => T, options: BusyRetryOptions): Promise<T> {
  for (;;) {
    try {
      return attempt();
    } catch (error) {
      if (!isStoreBusy(error) || options.signal?.aborted || options.now() >= options.giveUpAt) throw error;
      options.logger.warn('the database is busy; the worker waits for it', { error: describeError(error) });
    }
    try {
      await sleep(options.pauseMs ?? 100, undefined, options.signal ? { signal: options.signal } : {});
    } catch {
      // Aborted while pausing: the next attempt's failure, if busy, is thrown.
    }
  }
}
