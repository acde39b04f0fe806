/**
 * The single-worker lock: a row holding the worker's pid, start time and heartbeat, taken in a write
 * transaction so two workers starting at once cannot both win. A holder that is gone, is another
 * process under a reused pid, or has not beaten for `staleMs` is taken over.
 */
import type { Db } from './database.ts';
import { writeTransaction } from './database.ts';
import { WORKER_STALE_MS, type ProcessStamp } from './process-identity.ts';
import { lazyStatement } from './statements.ts';

export function createWorkerLockRepo(db: Db, isSame: (stamp: ProcessStamp) => boolean) {
  const read = lazyStatement(db, `SELECT pid, proc_start, heartbeat_at FROM worker_lock WHERE id = 1`);
  const take = lazyStatement(
    db,
    `INSERT INTO worker_lock (id, pid, proc_start, started_at, heartbeat_at) VALUES (1, ?, ?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET pid = excluded.pid, proc_start = excluded.proc_start,
       started_at = excluded.started_at, heartbeat_at = excluded.heartbeat_at`,
  );
  const beat = lazyStatement(db, `UPDATE worker_lock SET heartbeat_at = ? WHERE id = 1 AND pid = ?`);
  const release = lazyStatement(db, `DELETE FROM worker_lock WHERE id = 1 AND pid = ?`);
  type Row = { pid: number; proc_start: string | null; heartbeat_at: number };
  const live = (row: Row | undefined, now: number): row is Row =>
    row !== undefined &&
    now - row.heartbeat_at < WORKER_STALE_MS &&
    isSame({ pid: row.pid, start: row.proc_start });

  return {
    /** Take the lock for `me`; returns the live holder's pid instead when another worker has it. */
    acquire(me: ProcessStamp, at: number): { ok: true } | { ok: false; holder: number } {
      return writeTransaction(db, () => {
        const row = read().get() as Row | undefined;
        if (live(row, at) && row.pid !== me.pid) return { ok: false as const, holder: row.pid };
        take().run(me.pid, me.start, at, at);
        return { ok: true as const };
      });
    },
    /** The live holder's pid, or null. */
    holder(now: number): number | null {
      const row = read().get() as Row | undefined;
      return live(row, now) ? row.pid : null;
    },
    /** Prove the holder is alive; false when the lock was taken over (the worker should stop). */
    heartbeat(pid: number, at: number): boolean {
      return beat().run(at, pid).changes === 1;
    },
    release(pid: number): void {
      release().run(pid);
    },
  };
}

export type WorkerLockRepo = ReturnType<typeof createWorkerLockRepo>;
