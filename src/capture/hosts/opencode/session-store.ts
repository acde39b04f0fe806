/**
 * opencode's session store → engram's session logs (`session-log.ts`). opencode (1.18) keeps every
 * session in one SQLite database, `$XDG_DATA_HOME/opencode/opencode.db`: a `session` row (id, directory,
 * parent, version, times), `message` rows (`data`: the message's JSON without its id) and `part` rows
 * (`data`: the part's JSON), which engram opens read-only and never writes. `opencode export <id>`
 * prints the same session as one JSON document (`{info, messages: [{info, parts}]}`), which is read too.
 *
 * Each session is written as a log into a folder of engram's own, one `<session id>.jsonl` each, with
 * its finished messages only (the first unfinished assistant message and everything after it wait for
 * the next read): a log grows by appending; one whose messages changed otherwise (a reverted turn) is
 * written anew, with a new `written` in its header so its reader starts over. The only SQL engram runs
 * outside `src/store/`, on opencode's database, never its own. Never loaded by the hook.
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

function parseObject(text: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(text);
    return isRecord(v) ? v : {};
  } catch {
    return {};
  }
}

interface SessionRow {
  id: string;
  directory: string;
  version: string;
  parent_id: string | null;
  time_created: number;
}

/** Every session of an opencode database, oldest first, with its messages and their parts in order. */
export function readOpencodeDatabase(file: string): OpencodeSession[] {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    db.pragma('busy_timeout = 2000');
    const sessions = db
      .prepare(
        'SELECT id, directory, version, parent_id, time_created FROM session ORDER BY time_created, id',
      )
      .all() as SessionRow[];
    const messages = db.prepare(
      'SELECT id, data FROM message WHERE session_id = ? ORDER BY time_created, id',
    );
    const parts = db.prepare('SELECT id, message_id, data FROM part WHERE session_id = ? ORDER BY id');
    return sessions.map((s) => {
      const byMessage = new Map<string, Record<string, unknown>[]>();
      for (const p of parts.all(s.id) as { id: string; message_id: string; data: string }[]) {
        const list = byMessage.get(p.message_id) ?? [];
        list.push({ ...parseObject(p.data), id: p.id });
        byMessage.set(p.message_id, list);
      }
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
    });
  } finally {
    db.close();
  }
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

/** The log's message lines: the finished messages up to the first unfinished one. */
function messageLines(session: OpencodeSession): string {
  let out = '';
  for (const m of session.messages) {
    if (!finished(m.info)) break;
    out += `${JSON.stringify({ info: m.info, parts: m.parts })}\n`;
  }
  return out;
}

/** The `written` number of the log at `path` (0 when it has none). */
function writtenOf(text: string): number {
  const first = text.slice(0, text.indexOf('\n') + 1 || undefined);
  const header = parseObject(first);
  return typeof header[SESSION_LOG_KEY] === 'string' ? num(header['written']) : 0;
}

/**
 * Write `session` as its log into `dir` (appending what is new, or anew when it changed otherwise);
 * returns the log's path.
 */
export function writeSessionLog(session: OpencodeSession, dir: string): string {
  const path = join(dir, `${session.info.id.replace(/[^\w.-]/g, '_')}.jsonl`);
  const header = (written: number) =>
    `${headerLine({
      id: session.info.id,
      directory: session.info.directory,
      version: session.info.version,
      created: session.info.created,
      parent: session.info.parentID,
      written,
    })}\n`;
  const body = messageLines(session);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const before = existsSync(path) ? readFileSync(path, 'utf8') : null;
  if (before === null) {
    writeFileSync(path, header(0) + body, { mode: 0o600 });
    return path;
  }
  const written = writtenOf(before);
  const next = header(written) + body;
  if (next === before) return path;
  if (next.startsWith(before)) appendFileSync(path, next.slice(before.length));
  else writeFileSync(path, header(written + 1) + body, { mode: 0o600 });
  return path;
}

/**
 * The sessions under `root` — an opencode data folder (its `opencode.db`) or a folder of `opencode
 * export` JSON files (`*.json`), or one such file — written as logs into `logDir`, for backfill.
 */
export function opencodeSessionLogs(root: string, logDir: string): TranscriptFile[] {
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
    const path = writeSessionLog(s, logDir);
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
