/**
 * The durable event queue: hooks append, the worker drains per session in order.
 */
import { capturedEventProblem } from '../core/event-shape.ts';
import type { ProjectId } from '../core/ids.ts';
import type { CapturedEvent, QueuedEvent } from '../core/model.ts';
import type { Db } from './database.ts';
import { lazyStatement } from './statements.ts';

export interface NewEvent {
  /** Set for events imported from the inbox: a second import of the same file is ignored. */
  sourceKey?: string;
  sessionId: string;
  projectId: ProjectId;
  hook: string;
  cwd: string;
  transcriptPath: string | null;
  at: number;
  event: CapturedEvent;
}

export interface ParkedEvent {
  seq: number;
  sessionId: string;
  hook: string;
  attempts: number;
  lastError: string;
  at: number;
}

interface EventRow {
  seq: number;
  session_id: string;
  project_id: string;
  cwd: string;
  transcript_path: string | null;
  at: number;
  payload: string;
  attempts: number;
}

function toQueued(row: EventRow): QueuedEvent | null {
  let event: CapturedEvent;
  try {
    event = JSON.parse(row.payload) as CapturedEvent;
  } catch {
    return null; // a damaged row: the caller parks it
  }
  if (capturedEventProblem(event) !== null) return null;
  return {
    seq: row.seq,
    sessionId: row.session_id,
    projectId: row.project_id as ProjectId,
    cwd: row.cwd,
    transcriptPath: row.transcript_path,
    at: row.at,
    event,
    attempts: row.attempts,
  };
}

export function createEventsRepo(db: Db) {
  const insert = lazyStatement(
    db,
    `INSERT INTO events (source_key, session_id, project_id, hook, kind, cwd, transcript_path, payload, bytes, at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (source_key) DO NOTHING`,
  );
  const pendingSessions = lazyStatement(
    db,
    `SELECT session_id, MAX(at) AS last_at FROM events WHERE status = 'pending' GROUP BY session_id ORDER BY MIN(at), MIN(seq)`,
  );
  const pendingOf = lazyStatement(
    db,
    `SELECT seq, session_id, project_id, cwd, transcript_path, at, payload, attempts
     FROM events WHERE status = 'pending' AND session_id = ? ORDER BY at, seq`,
  );
  const stillPending = lazyStatement(
    db,
    `SELECT COUNT(*) AS n FROM events WHERE status = 'pending' AND seq IN (SELECT value FROM json_each(?))`,
  );
  const markDone = lazyStatement(
    db,
    `UPDATE events SET status = 'done', done_at = ?, last_error = NULL WHERE seq IN (SELECT value FROM json_each(?))`,
  );
  const markFailed = lazyStatement(
    db,
    `UPDATE events SET attempts = attempts + 1, last_error = ?,
       status = CASE WHEN attempts + 1 >= ? THEN 'parked' ELSE status END
     WHERE status = 'pending' AND seq IN (SELECT value FROM json_each(?))`,
  );
  const counts = lazyStatement(db, `SELECT status, COUNT(*) AS n FROM events GROUP BY status`);
  const stamp = lazyStatement(
    db,
    `SELECT COUNT(*) AS n, COALESCE(MAX(seq), 0) AS last_seq, COALESCE(MAX(at), 0) AS last_at,
       COALESCE(SUM(attempts), 0) AS attempts
     FROM events WHERE status = 'pending' AND session_id = ?`,
  );
  const anyPending = lazyStatement(db, `SELECT 1 FROM events WHERE status = 'pending' LIMIT 1`);
  const anyFor = lazyStatement(
    db,
    `SELECT 1 FROM events INDEXED BY events_by_session WHERE session_id = ? LIMIT 1`,
  );
  const parked = lazyStatement(
    db,
    `SELECT seq, session_id, hook, attempts, last_error, at FROM events WHERE status = 'parked' ORDER BY seq DESC LIMIT ?`,
  );
  const retryParked = lazyStatement(
    db,
    `UPDATE events SET status = 'pending', attempts = 0 WHERE status = 'parked'`,
  );
  const retrySessionsOf = lazyStatement(
    db,
    `UPDATE events SET status = 'pending', attempts = 0 WHERE status = 'parked' AND session_id IN
       (SELECT session_id FROM events WHERE status = 'parked' AND seq IN (SELECT value FROM json_each(?)))`,
  );
  const prune = lazyStatement(db, `DELETE FROM events WHERE status = 'done' AND done_at < ?`);
  const lastStop = lazyStatement(
    db,
    `SELECT payload FROM events INDEXED BY events_by_session
     WHERE session_id = ? AND kind = 'stop' AND at < ? ORDER BY at DESC, seq DESC LIMIT 1`,
  );

  const newestSessionOf = lazyStatement(
    db,
    `SELECT session_id FROM events WHERE project_id = ? ORDER BY at DESC, seq DESC LIMIT 1`,
  );
  const lastTurnOf = lazyStatement(
    db,
    `SELECT seq, session_id, project_id, cwd, transcript_path, at, payload, attempts
     FROM events INDEXED BY events_by_session
     WHERE session_id = @sid AND at >= (SELECT COALESCE(MAX(at), 0) FROM events INDEXED BY events_by_session
                                      WHERE session_id = @sid AND kind = 'prompt')
     ORDER BY at, seq LIMIT 500`,
  );

  return {
    /**
     * The events of the project's latest turn (its most recently active session, since that session's
     * last prompt), whatever their state: what the turn in progress has taken in so far.
     */
    latestTurnOf(projectId: string): QueuedEvent[] {
      const newest = newestSessionOf().get(projectId) as { session_id: string } | undefined;
      if (!newest) return [];
      return (lastTurnOf().all({ sid: newest.session_id }) as EventRow[]).flatMap((row) => toQueued(row) ?? []);
    },
    /** Append one event; returns its sequence number, or null when its source was imported before. */
    append(e: NewEvent): number | null {
      const payload = JSON.stringify(e.event);
      const info = insert().run(
        e.sourceKey ?? null,
        e.sessionId,
        e.projectId,
        e.hook,
        e.event.kind,
        e.cwd,
        e.transcriptPath,
        payload,
        Buffer.byteLength(payload),
        e.at,
      );
      return info.changes === 1 ? Number(info.lastInsertRowid) : null;
    },
    /** Sessions with pending events, oldest first, with the time of their newest pending event. */
    pendingSessions(): { sessionId: string; lastAt: number }[] {
      return (pendingSessions().all() as { session_id: string; last_at: number }[]).map((r) => ({
        sessionId: r.session_id,
        lastAt: r.last_at,
      }));
    },
    /** A session's pending events in capture order, and the sequence numbers of rows that cannot be read. */
    pendingOf(sessionId: string): { events: QueuedEvent[]; unreadable: number[] } {
      const events: QueuedEvent[] = [];
      const unreadable: number[] = [];
      for (const row of pendingOf().all(sessionId) as EventRow[]) {
        const queued = toQueued(row);
        if (queued) events.push(queued);
        else unreadable.push(row.seq);
      }
      return { events, unreadable };
    },
    /** What a session's pending events are, in brief: how many, the newest, their attempts. */
    pendingStamp(sessionId: string): { count: number; lastSeq: number; lastAt: number; attempts: number } {
      const r = stamp().get(sessionId) as { n: number; last_seq: number; last_at: number; attempts: number };
      return { count: r.n, lastSeq: r.last_seq, lastAt: r.last_at, attempts: r.attempts };
    },
    /** True when every one of `seqs` is still pending (nobody else distilled them meanwhile). */
    allPending(seqs: readonly number[]): boolean {
      const row = stillPending().get(JSON.stringify(seqs)) as { n: number };
      return row.n === seqs.length;
    },
    markDone(seqs: readonly number[], at: number): void {
      markDone().run(at, JSON.stringify(seqs));
    },
    /** Park events at once with a reason (they can never succeed, e.g. an unreadable payload). */
    park(seqs: readonly number[], error: string): void {
      markFailed().run(error, 0, JSON.stringify(seqs));
    },
    /** Count a failed attempt; events reaching `maxAttempts` are parked with the error. */
    markFailed(seqs: readonly number[], error: string, maxAttempts: number): void {
      markFailed().run(error, maxAttempts, JSON.stringify(seqs));
    },
    /** Whether hooks captured anything for this session (raw events are kept for retention.eventDays). */
    hasEventsFor(sessionId: string): boolean {
      return anyFor().get(sessionId) !== undefined;
    },
    hasPending(): boolean {
      return anyPending().get() !== undefined;
    },
    counts(): { pending: number; done: number; parked: number } {
      const out = { pending: 0, done: 0, parked: 0 };
      for (const row of counts().all() as { status: keyof typeof out; n: number }[]) out[row.status] = row.n;
      return out;
    },
    parked(limit: number): ParkedEvent[] {
      return (
        parked().all(limit) as {
          seq: number;
          session_id: string;
          hook: string;
          attempts: number;
          last_error: string | null;
          at: number;
        }[]
      ).map((r) => ({
        seq: r.seq,
        sessionId: r.session_id,
        hook: r.hook,
        attempts: r.attempts,
        lastError: r.last_error ?? '',
        at: r.at,
      }));
    },
    /** Put parked events back in the queue (all, or those of the sessions of `seqs`); returns how many. */
    retryParked(seqs?: readonly number[]): number {
      return seqs ? retrySessionsOf().run(JSON.stringify(seqs)).changes : retryParked().run().changes;
    },
    /** Delete distilled raw events older than `before`; returns how many. */
    /**
     * The assistant's last message before `at` in a session (its latest Stop event's), or '' — what
     * the user's next prompt answers, when no transcript can be read.
     */
    lastAssistantMessage(sessionId: string, at: number): string {
      const row = lastStop().get(sessionId, at) as { payload: string } | undefined;
      if (!row) return '';
      try {
        const event = JSON.parse(row.payload) as { lastMessage?: unknown };
        return typeof event.lastMessage === 'string' ? event.lastMessage : '';
      } catch {
        return '';
      }
    },
    pruneDone(before: number): number {
      return prune().run(before).changes;
    },
  };
}

export type EventsRepo = ReturnType<typeof createEventsRepo>;
