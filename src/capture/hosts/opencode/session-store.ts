/**
 * opencode's session store → engram's session logs (`session-log.ts`). opencode (1.18) keeps every
 * session in one SQLite database, `$XDG_DATA_HOME/opencode/opencode.db`: a `session` row (id, directory,
 * parent, version, times), `message` rows (`data`: the message's JSON without its id) and `part` rows
 * (`data`: the part's JSON), which engram opens read-only and never writes. `opencode export <id>`
 * prints the same session as one JSON document (`{info, messages: [{info, parts}]}`), which is read too.
 *
 * Each session is written as a log into a folder of engram's own, one `<session id>.jsonl` each, with
 * its finished messages only (the first unfinished assistant message and everything after it wait for
 * the next read): a log grows by appending new messages; one whose messages are no longer those it
 * holds (a reverted turn) is written anew, with a new `written` in its header so its reader starts over. The only SQL engram runs
 * outside `src/store/`, on opencode's database, never its own. Read by the worker at each turn's end
 * (`worker/host-transcripts.ts`, from where the last turn's read stopped: `session-cursor.ts`) and by
 * backfill; never loaded by the hook.
 */
import Database from 'better-sqlite3';
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import type { TranscriptFile } from '../../transcript/find-files.ts';
import { headerLine, SESSION_LOG_KEY } from './session-log.ts';
import { isRecord } from './tools.ts';

/** The database file in opencode's data folder. */
export const OPENCODE_DB = 'opencode.db';

/** One opencode session, as `opencode export` prints it (the fields engram reads). */
export interface OpencodeSession {
  info: { id: string; directory: string; version: string; parentID: string | null; created: number };
  messages: { info: Record<string, unknown>; parts: Record<string, unknown>[] }[];
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

export function parseObject(text: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(text);
    return isRecord(v) ? v : {};
  } catch {
    return {};
  }
}

export interface SessionRow {
  id: string;
  directory: string;
  version: string;
  parent_id: string | null;
  time_created: number;
}

export type Db = InstanceType<typeof Database>;

/** A session row with its messages and their parts, in order. */
export function loadSession(db: Db, s: SessionRow): OpencodeSession {
  const byMessage = new Map<string, Record<string, unknown>[]>();
  const parts = db.prepare('SELECT id, message_id, data FROM part WHERE session_id = ? ORDER BY id');
  for (const p of parts.all(s.id) as { id: string; message_id: string; data: string }[]) {
    const list = byMessage.get(p.message_id) ?? [];
    list.push({ ...parseObject(p.data), id: p.id });
    byMessage.set(p.message_id, list);
  }
  const messages = db.prepare('SELECT id, data FROM message WHERE session_id = ? ORDER BY time_created, id');
  return {
    info: {
      id: s.id,
      directory: s.directory,
      version: s.version,
      parentID: s.parent_id,
      created: s.time_created,
    },
    messages: (messages.all(s.id) as { id: string; data: string }[]).map((m) => ({
      info: { ...parseObject(m.data), id: m.id },
      parts: byMessage.get(m.id) ?? [],
    })),
  };
}

/** Open opencode's database read-only (never created); `busyMs`: how long to wait on its writer. */
export function openStore<T>(file: string, busyMs: number, read: (db: Db) => T): T {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    db.pragma(`busy_timeout = ${Math.max(0, Math.round(busyMs))}`);
    return read(db);
  } finally {
    db.close();
  }
}

export const SESSION_COLUMNS = 'id, directory, version, parent_id, time_created';

/** Every session of an opencode database, oldest first, with its messages and their parts in order. */
export function readOpencodeDatabase(file: string): OpencodeSession[] {
  return openStore(file, 2000, (db) =>
    (
      db.prepare(`SELECT ${SESSION_COLUMNS} FROM session ORDER BY time_created, id`).all() as SessionRow[]
    ).map((s) => loadSession(db, s)),
  );
}

/** A session as `opencode export` printed it, or null when the text is not one. */
export function readOpencodeExport(text: string): OpencodeSession | null {
  const doc = parseObject(text);
  const info = isRecord(doc['info']) ? doc['info'] : null;
  if (!info || str(info['id']) === '' || !Array.isArray(doc['messages'])) return null;
  const time = isRecord(info['time']) ? info['time'] : {};
  return {
    info: {
      id: str(info['id']),
      directory: str(info['directory']),
      version: str(info['version']),
      parentID: str(info['parentID']) || null,
      created: num(time['created']),
    },
    messages: (doc['messages'] as unknown[]).filter(isRecord).map((m) => ({
      info: isRecord(m['info']) ? m['info'] : {},
      parts: Array.isArray(m['parts']) ? (m['parts'] as unknown[]).filter(isRecord) : [],
    })),
  };
}

/** A message opencode will not change any more: the user's, or the assistant's once completed. */
function finished(info: Record<string, unknown>): boolean {
  if (info['role'] !== 'assistant') return true;
  const time = isRecord(info['time']) ? info['time'] : {};
  return typeof time['completed'] === 'number' || info['error'] !== undefined;
}

/** The finished messages: those up to the first unfinished one. */
export function finishedMessages(messages: OpencodeSession['messages']): OpencodeSession['messages'] {
  const out: OpencodeSession['messages'] = [];
  for (const m of messages) {
    if (!finished(m.info)) break;
    out.push(m);
  }
  return out;
}

export const messageLine = (m: OpencodeSession['messages'][number]): string =>
  `${JSON.stringify({ info: m.info, parts: m.parts })}\n`;

/** Where the log of session `id` lies in `dir`. */
export const sessionLogPath = (dir: string, id: string): string =>
  join(dir, `${id.replace(/[^\w.-]/g, '_')}.jsonl`);

/** A log's header (its `written` number) and the ids of the messages it holds, in order. */
function readLog(text: string): { written: number; ids: string[] } | null {
  const lines = text.split('\n').filter((l) => l !== '');
  const header = parseObject(lines[0] ?? '');
  if (typeof header[SESSION_LOG_KEY] !== 'string') return null;
  const ids = lines.slice(1).map((l) => {
    const info = parseObject(l)['info'];
    return isRecord(info) ? str(info['id']) : '';
  });
  return { written: num(header['written']), ids };
}

/**
 * Write `session` as its log into `dir`; returns the log's path. Messages the log holds are kept as
 * they are (opencode updates a finished message's data later — the diffs of a user message's turn —,
 * and engram's own erasure may have rewritten a line): only messages new after them are appended. A
 * session whose messages are no longer those (a reverted turn) is written anew, its `written` raised.
 */
export function writeSessionLog(session: OpencodeSession, dir: string): string {
  const path = sessionLogPath(dir, session.info.id);
  const header = (written: number) =>
    `${headerLine({
      id: session.info.id,
      directory: session.info.directory,
      version: session.info.version,
      created: session.info.created,
      parent: session.info.parentID,
      written,
    })}\n`;
  const messages = finishedMessages(session.messages);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const before = existsSync(path) ? readLog(readFileSync(path, 'utf8')) : null;
  if (before === null) {
    writeFileSync(path, header(0) + messages.map(messageLine).join(''), { mode: 0o600 });
    return path;
  }
  const held = before.ids.every((id, i) => messages[i]?.info['id'] === id);
  if (held) {
    const rest = messages.slice(before.ids.length).map(messageLine).join('');
    if (rest !== '') appendFileSync(path, rest);
  } else {
    writeFileSync(path, header(before.written + 1) + messages.map(messageLine).join(''), { mode: 0o600 });
  }
  return path;
}

/** Whether the log of `session` in `dir` already holds each of its finished messages (nothing to write). */
function logHolds(session: OpencodeSession, dir: string): boolean {
  const path = sessionLogPath(dir, session.info.id);
  if (!existsSync(path)) return false;
  const held = readLog(readFileSync(path, 'utf8'));
  const messages = finishedMessages(session.messages);
  return (
    held !== null &&
    held.ids.length === messages.length &&
    held.ids.every((id, i) => messages[i]?.info['id'] === id)
  );
}

/**
 * The sessions under `root` — an opencode data folder (its `opencode.db`) or a folder of `opencode
 * export` JSON files (`*.json`), or one such file — written as logs into `logDir`, for backfill. With
 * `scratchDir` (a dry run) nothing is written into `logDir`: a session whose log there is up to date is
 * read from it, any other is written into `scratchDir` instead.
 */
export function opencodeSessionLogs(root: string, logDir: string, scratchDir?: string): TranscriptFile[] {
  const sessions: OpencodeSession[] = [];
  const add = (file: string) => {
    if (file.endsWith('.db')) sessions.push(...readOpencodeDatabase(file));
    else {
      const s = readOpencodeExport(readFileSync(file, 'utf8'));
      if (s) sessions.push(s);
    }
  };
  let st;
  try {
    st = statSync(root);
  } catch {
    return []; // no opencode here
  }
  if (st.isFile()) add(root);
  else
    for (const name of readdirSync(root).sort())
      if (name === OPENCODE_DB || name.endsWith('.json')) add(join(root, name));
  return sessions.map((s) => {
    const path =
      scratchDir === undefined
        ? writeSessionLog(s, logDir)
        : logHolds(s, logDir)
          ? sessionLogPath(logDir, s.info.id)
          : writeSessionLog(s, scratchDir);
    const file = statSync(path);
    // The session's last message, not the log's writing, is when it was active (`--since`, the order).
    const last = Math.max(
      0,
      ...s.messages.map((m) => num(isRecord(m.info['time']) ? m.info['time']['created'] : 0)),
    );
    return {
      path,
      host: 'opencode' as const,
      subagent: s.info.parentID !== null,
      bytes: file.size,
      mtimeMs: last || s.info.created || file.mtimeMs,
      ...(s.info.directory ? { cwd: s.info.directory } : {}),
    };
  });
}
