/**
 * Sessions as the viewer lists them: newest activity first, a page at a time, each with its project's
 * name, what was asked first and how much it holds; and a session's prompts (its turns) in order.
 */
import type { ProjectId } from '../core/ids.ts';
import type { SessionStatus } from '../core/model.ts';
import type { Db } from './database.ts';
import { lazyStatement } from './statements.ts';

export interface SessionListItem {
  id: string;
  projectId: ProjectId;
  projectName: string;
  cwd: string;
  startedAt: number;
  lastEventAt: number;
  endedAt: number | null;
  endReason: string | null;
  status: SessionStatus;
  /** The summary's request, when there is a summary. */
  request: string | null;
  prompts: number;
  memories: number;
}

export interface SessionCursor {
  lastEventAt: number;
  id: string;
}

export interface SessionPrompt {
  seq: number | null;
  at: number;
  prompt: string;
}

interface Row {
  id: string;
  project_id: string;
  project_name: string | null;
  cwd: string;
  started_at: number;
  last_event_at: number;
  ended_at: number | null;
  end_reason: string | null;
  status: SessionStatus;
  request: string | null;
  prompts: number;
  memories: number;
}

const toItem = (r: Row): SessionListItem => ({
  id: r.id,
  projectId: r.project_id as ProjectId,
  projectName: r.project_name ?? r.project_id,
  cwd: r.cwd,
  startedAt: r.started_at,
  lastEventAt: r.last_event_at,
  endedAt: r.ended_at,
  endReason: r.end_reason,
  status: r.status,
  request: r.request,
  prompts: r.prompts,
  memories: r.memories,
});

const SELECT = `SELECT s.id, s.project_id, p.name AS project_name, s.cwd, s.started_at, s.last_event_at,
    s.ended_at, s.end_reason, s.status,
    (SELECT request FROM summaries m WHERE m.session_id = s.id) AS request,
    (SELECT COUNT(*) FROM prompts q WHERE q.session_id = s.id) AS prompts,
    (SELECT COUNT(*) FROM observations o WHERE o.session_id = s.id AND o.status <> 'forgotten') AS memories
  FROM sessions s LEFT JOIN projects p ON p.id = s.project_id`;

export function createSessionListRepo(db: Db) {
  const all = lazyStatement(
    db,
    `${SELECT} WHERE (s.last_event_at, s.id) < (?, ?) ORDER BY s.last_event_at DESC, s.id DESC LIMIT ?`,
  );
  const ofProject = lazyStatement(
    db,
    `${SELECT} WHERE s.project_id = ? AND (s.last_event_at, s.id) < (?, ?)
     ORDER BY s.last_event_at DESC, s.id DESC LIMIT ?`,
  );
  const one = lazyStatement(db, `${SELECT} WHERE s.id = ?`);
  const prompts = lazyStatement(
    db,
    `SELECT event_seq, at, prompt FROM prompts WHERE session_id = ? ORDER BY at, rowid LIMIT ?`,
  );
  return {
    /** Sessions by latest activity, newest first, after `cursor`. */
    page(projectId: ProjectId | null, limit: number, cursor?: SessionCursor): SessionListItem[] {
      const at = cursor?.lastEventAt ?? Number.MAX_SAFE_INTEGER;
      const id = cursor?.id ?? '\uffff';
      const rows = (
        projectId ? ofProject().all(projectId, at, id, limit) : all().all(at, id, limit)
      ) as Row[];
      return rows.map(toItem);
    },
    get(sessionId: string): SessionListItem | null {
      const row = one().get(sessionId) as Row | undefined;
      return row ? toItem(row) : null;
    },
    /** A session's prompts, oldest first. */
    prompts(sessionId: string, limit = 1000): SessionPrompt[] {
      return (
        prompts().all(sessionId, limit) as { event_seq: number | null; at: number; prompt: string }[]
      ).map((r) => ({ seq: r.event_seq, at: r.at, prompt: r.prompt }));
    },
  };
}

export type SessionListRepo = ReturnType<typeof createSessionListRepo>;
