/**
 * The single-worker lock: a row holding the worker's pid, taken in a write transaction so two workers
 * starting at once cannot both win.
 */
import type { Db } from './database.ts';
import { writeTransaction } from './database.ts';
import { lazyStatement } from './statements.ts';

export function createWorkerLockRepo(db: Db, isAlive: (pid: number) => boolean) {
  const read = lazyStatement(db, `SELECT pid FROM worker_lock WHERE id = 1`);
  const take = lazyStatement(
    db,
    `INSERT INTO worker_lock (id, pid, started_at, heartbeat_at) VALUES (1, ?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET pid = excluded.pid, started_at = excluded.started_at,
       heartbeat_at = excluded.heartbeat_at`,
  );
  const beat = lazyStatement(db, `UPDATE worker_lock SET heartbeat_at = ? WHERE id = 1 AND pid = ?`);
  const release = lazyStatement(db, `DELETE FROM worker_lock WHERE id = 1 AND pid = ?`);

  return {
    /** Take the lock for `pid`; returns the live holder's pid instead when another worker has it. */
    acquire(pid: number, at: number): { ok: true } | { ok: false; holder: number } {
      return writeTransaction(db, () => {
        const row = read().get() as { pid: number } | undefined;
        if (row && row.pid !== pid && isAlive(row.pid)) return { ok: false as const, holder: row.pid };
        take().run(pid, at, at);
        return { ok: true as const };
      });
    },
    holder(): number | null {
      const row = read().get() as { pid: number } | undefined;
      return row && isAlive(row.pid) ? row.pid : null;
    },
    heartbeat(pid: number, at: number): void {
      beat().run(at, pid);
    },
    release(pid: number): void {
      release().run(pid);
    },
  };
}

export type WorkerLockRepo = ReturnType<typeof createWorkerLockRepo>;
