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
  return {
    record(sessionId: string, ids: readonly string[], at: number): void {
      for (const id of ids) add().run(sessionId, id, at);
    },
    has(sessionId: string, id: string): boolean {
      return has().get(sessionId, id) !== undefined;
    },
  };
}

export type InjectionsRepo = ReturnType<typeof createInjectionsRepo>;
