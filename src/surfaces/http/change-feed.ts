/**
 * The live stream's source: one poller tails the store's change log (a primary-key range read every
 * `pollMs`, only while someone listens) and hands each new batch to every open stream. The worker
 * writes from its own process; committed changes show up on the next poll.
 */
import { describeError } from '../../core/errors.ts';
import type { Change } from '../../core/model.ts';
import type { Logger } from '../../core/ports.ts';
import type { Store } from '../../store/store.ts';

export type ChangeListener = (changes: readonly Change[]) => void;

export interface ChangeFeed {
  /** Listen to changes after the current end of the log; returns the unsubscribe function. */
  subscribe(listener: ChangeListener): () => void;
  /** The newest sequence number seen. */
  lastSeq(): number;
  /** How many streams are open. */
  listeners(): number;
  /** Stop polling (listeners stay subscribed but hear nothing more). */
  close(): void;
}

const BATCH = 500;

export function createChangeFeed(deps: { store: Store; logger: Logger; pollMs: number }): ChangeFeed {
  const { store, logger } = deps;
  const listeners = new Set<ChangeListener>();
  let last = store.changes.lastSeq();
  let timer: ReturnType<typeof setInterval> | null = null;
  let closed = false;

  const poll = () => {
    try {
      for (;;) {
        const batch = store.changes.since(last, BATCH);
        if (batch.length === 0) return;
        last = (batch[batch.length - 1] as Change).seq;
        for (const listener of listeners) listener(batch);
        if (batch.length < BATCH) return;
      }
    } catch (error) {
      // A busy database: the next poll reads from the same place.
      logger.warn('could not read the change log', { error: describeError(error) });
    }
  };
  const start = () => {
    if (timer || closed) return;
    last = store.changes.lastSeq();
    timer = setInterval(poll, deps.pollMs);
    timer.unref();
  };
  const stop = () => {
    if (timer) clearInterval(timer);
    timer = null;
  };

  return {
    subscribe(listener) {
      listeners.add(listener);
      start();
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) stop();
      };
    },
    lastSeq: () => (timer ? last : store.changes.lastSeq()),
    listeners: () => listeners.size,
    close() {
      closed = true;
      stop();
    },
  };
}
