/**
 * Backups in the worker: each round, backups that could bring erased text back are dropped; when the
 * newest backup is older than `intervalMs` (or there is none), a new one is copied beside the loop —
 * never awaited by a round (SQLite's backup API copies a few pages per step, the loop goes on) — and
 * only the newest `keep` are kept. Each round also raises the change log's high-water mark, so a
 * database that later loses committed changes (a deleted WAL) is told apart by `engram doctor`.
 */
import { describeError } from '../core/errors.ts';
import type { Clock, Logger } from '../core/ports.ts';
import { backupDatabase, dropErasedBackups, listBackups, pruneBackups } from '../store/backup.ts';
import { noteHighWater } from '../store/store-mark.ts';
import type { Store } from '../store/store.ts';

export interface BackupScheduler {
  /** Drop erased backups, raise the mark, and start a backup when one is due. Never throws or waits. */
  tick(now: number): void;
  /** Resolves when the backup in flight (if any) has ended. */
  settled(): Promise<void>;
}

const RETRY_MS = 600_000;

export function createBackupScheduler(deps: {
  store: Store;
  dir: string;
  logger: Logger;
  clock: Clock;
  /** 0: no backups (the mark is still kept). */
  intervalMs: number;
  keep: number;
}): BackupScheduler {
  const { store, dir, logger } = deps;
  let running: Promise<void> | null = null;
  let retryAt = 0;
  // The change log's end at the last look: the mark and erasures are looked at only when it moved.
  let seen = -1;
  const run = async (now: number): Promise<void> => {
    try {
      const b = await backupDatabase(store.db, dir, now);
      const pruned = pruneBackups(dir, deps.keep);
      logger.info('backed up the database', { path: b.path, bytes: b.bytes, seq: b.seq, pruned });
    } catch (error) {
      retryAt = deps.clock.now() + RETRY_MS;
      logger.warn('database backup failed; will retry', { error: describeError(error) });
    }
  };
  return {
    tick(now: number): void {
      if (running) return;
      try {
        const seq = store.changes.lastSeq();
        if (seq !== seen) {
          noteHighWater(store.db, now);
          const dropped = dropErasedBackups(store.db, dir, Math.max(0, seen));
          if (dropped > 0) logger.info('dropped backups that held erased memories', { dropped });
          seen = seq;
        }
        if (deps.intervalMs <= 0 || now < retryAt) return;
        const newest = listBackups(dir)[0];
        if (newest && now - newest.at < deps.intervalMs) return;
      } catch (error) {
        logger.warn('backup check failed', { error: describeError(error) });
        return;
      }
      running = run(now).finally(() => {
        running = null;
      });
    },
    settled: () => running ?? Promise.resolve(),
  };
}
