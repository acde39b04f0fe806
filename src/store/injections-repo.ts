/**
 * What each session has been told already, so context is never repeated within a session.
 */
import type { Db } from './database.ts';
import { lazyStatement } from './statements.ts';

export function createInjectionsRepo(db: Db) {
  const add = lazyStatement(
    db,
    `INSERT INTO injections (session_id, observation_id, at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING`,
  );
  const has = lazyStatement(db, `SELECT 1 FROM injections WHERE session_id = ? AND observation_id = ?`);
  const sessionsTold = lazyStatement(
    db,
    `SELECT session_id, at FROM injections WHERE observation_id = ? ORDER BY at DESC LIMIT ?`,
  );
  return {
    record(sessionId: string, ids: readonly string[], at: number): void {
      for (const id of ids) add().run(sessionId, id, at);
    },
    has(sessionId: string, id: string): boolean {
      return has().get(sessionId, id) !== undefined;
    },
    /** The sessions a memory was injected into, latest first. */
    sessionsTold(id: string, limit: number): { sessionId: string; at: number }[] {
      return (sessionsTold().all(id, limit) as { session_id: string; at: number }[]).map((r) => ({
        sessionId: r.session_id,
        at: r.at,
      }));
    },
  };
}

export type InjectionsRepo = ReturnType<typeof createInjectionsRepo>;
