/**
 * A session's log brought up to date from opencode's store at a turn's end, reading only what is new.
 * The cursor (kept by the worker beside the log's reading progress) says where the last read stopped:
 * how many messages the log holds, the last one's id and creation time (opencode orders a session's
 * messages by that time, then id, under its own index), and the log's size and modification time then.
 *
 * The cursor is used only while it still describes both sides: the log is as it was left (same size
 * and time — nothing else, a backfill or an erasure, wrote it since), and the store still holds the
 * last message at the same place (it exists, and exactly `count` messages sort up to it: a reverted turn
 * removes messages and fails this). Then the messages after it, with their parts, are the whole read's
 * new messages, and the log gets the same lines a whole read would append. Otherwise the session is
 * read whole (`writeSessionLog`, which appends or writes the log anew), and a cursor taken from that.
 */
import { existsSync, appendFileSync, statSync } from 'node:fs';
import {
  finishedMessages,
  loadSession,
  messageLine,
  openStore,
  parseObject,
  SESSION_COLUMNS,
  sessionLogPath,
  writeSessionLog,
  type Db,
  type OpencodeSession,
  type SessionRow,
} from './session-store.ts';

/** Where reading a session from opencode's store stopped (kept as JSON by the worker). */
export interface SessionCursor {
  /** The log's size and modification time once written. */
  bytes: number;
  mtimeMs: number;
  /** Messages the log holds, and the last one's id and `time_created` in the store. */
  count: number;
  lastId: string;
  lastCreated: number;
}

export interface LogUpdate {
  path: string;
  cursor: SessionCursor;
  /** Whether the session was read whole (no usable cursor) rather than from the cursor on. */
  whole: boolean;
}

const isCursor = (v: unknown): v is SessionCursor => {
  if (typeof v !== 'object' || v === null) return false;
  const c = v as Record<string, unknown>;
  return (
    ['bytes', 'mtimeMs', 'count', 'lastCreated'].every((k) => typeof c[k] === 'number') &&
    typeof c['lastId'] === 'string'
  );
};

/** A stored cursor's text → the cursor, or null when it is not one. */
export function parseSessionCursor(text: string | null): SessionCursor | null {
  if (text === null) return null;
  try {
    const v: unknown = JSON.parse(text);
    return isCursor(v) ? v : null;
  } catch {
    return null;
  }
}

/** Does the log still stand as the cursor left it? */
function logUnchanged(path: string, cursor: SessionCursor): boolean {
  try {
    const st = statSync(path);
    return st.size === cursor.bytes && st.mtimeMs === cursor.mtimeMs;
  } catch {
    return false;
  }
}

/** Does the store still hold the cursor's last message, with exactly `count` messages up to it? */
function storeHolds(db: Db, id: string, cursor: SessionCursor): boolean {
  if (cursor.count === 0) return true;
  const last = db
    .prepare('SELECT time_created AS t FROM message WHERE id = ? AND session_id = ?')
    .get(cursor.lastId, id) as { t: number } | undefined;
  if (last?.t !== cursor.lastCreated) return false;
  const upTo = db
    .prepare(
      `SELECT COUNT(*) AS n FROM message WHERE session_id = ?
         AND (time_created < ? OR (time_created = ? AND id <= ?))`,
    )
    .get(id, cursor.lastCreated, cursor.lastCreated, cursor.lastId) as { n: number };
  return upTo.n === cursor.count;
}

type Message = OpencodeSession['messages'][number];

/** The session's messages after the cursor, in order, each with its parts in order. */
function messagesAfter(db: Db, id: string, cursor: SessionCursor): (Message & { created: number })[] {
  const rows = (
    cursor.count === 0
      ? db
          .prepare(
            'SELECT id, time_created, data FROM message WHERE session_id = ? ORDER BY time_created, id',
          )
          .all(id)
      : db
          .prepare(
            `SELECT id, time_created, data FROM message WHERE session_id = ?
               AND (time_created > ? OR (time_created = ? AND id > ?)) ORDER BY time_created, id`,
          )
          .all(id, cursor.lastCreated, cursor.lastCreated, cursor.lastId)
  ) as { id: string; time_created: number; data: string }[];
  const parts = db.prepare('SELECT id, data FROM part WHERE message_id = ? AND session_id = ? ORDER BY id');
  return rows.map((m) => ({
    info: { ...parseObject(m.data), id: m.id },
    parts: (parts.all(m.id, id) as { id: string; data: string }[]).map((p) => ({
      ...parseObject(p.data),
      id: p.id,
    })),
    created: m.time_created,
  }));
}

function cursorOf(path: string, count: number, lastId: string, lastCreated: number): SessionCursor {
  const st = statSync(path);
  return { bytes: st.size, mtimeMs: st.mtimeMs, count, lastId, lastCreated };
}

/** The whole session read and written as its log (as backfill does), with a cursor taken from it. */
function wholeRead(db: Db, row: SessionRow, dir: string): LogUpdate {
  const session = loadSession(db, row);
  const path = writeSessionLog(session, dir);
  const held = finishedMessages(session.messages);
  const last = held[held.length - 1];
  const lastId = typeof last?.info['id'] === 'string' ? last.info['id'] : '';
  const created =
    lastId === ''
      ? 0
      : ((db.prepare('SELECT time_created AS t FROM message WHERE id = ?').get(lastId) as { t: number })?.t ??
        0);
  return { path, cursor: cursorOf(path, held.length, lastId, created), whole: true };
}

/**
 * Bring the log of session `id` in `dir` up to date from opencode's store `file` (read-only, waiting at
 * most `busyMs` on its writer), from `cursor` on when it still stands; null when the store holds no such
 * session. Throws when the store cannot be read.
 */
export function updateSessionLog(
  file: string,
  id: string,
  dir: string,
  cursor: SessionCursor | null,
  busyMs: number,
): LogUpdate | null {
  return openStore(file, busyMs, (db) =>
    db.transaction((): LogUpdate | null => {
      const row = db.prepare(`SELECT ${SESSION_COLUMNS} FROM session WHERE id = ?`).get(id) as
        SessionRow | undefined;
      if (!row) return null;
      const path = sessionLogPath(dir, id);
      if (!cursor || !existsSync(path) || !logUnchanged(path, cursor) || !storeHolds(db, id, cursor))
        return wholeRead(db, row, dir);
      const fresh = messagesAfter(db, id, cursor);
      const done = finishedMessages(fresh) as typeof fresh;
      const last = done[done.length - 1];
      if (!last) return { path, cursor, whole: false };
      appendFileSync(path, done.map((m) => messageLine({ info: m.info, parts: m.parts })).join(''));
      return {
        path,
        cursor: cursorOf(path, cursor.count + done.length, String(last.info['id']), last.created),
        whole: false,
      };
    })(),
  );
}
