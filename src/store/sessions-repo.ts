/**
 * Projects, sessions and capture counters (per project and hook, per host): the bookkeeping each
 * captured event updates.
 */
import type { ProjectId } from '../core/ids.ts';
import { CHANGE_ORIGINS, type Project, type Session, type SessionStatus } from '../core/model.ts';
import type { Db } from './database.ts';
import { lazyStatement } from './statements.ts';

export interface ProjectStats {
  id: ProjectId;
  name: string;
  root: string;
  lastCaptureAt: number | null;
  sessions: number;
  observations: number;
}

interface SessionRow {
  id: string;
  project_id: string;
  host: string;
  started_at: number;
  ended_at: number | null;
  status: SessionStatus;
}

function toSession(row: SessionRow): Session {
  return {
    id: row.id,
    projectId: row.project_id as ProjectId,
    host: row.host,
    startedAt: row.started_at,
    endedAt: row.ended_at,
    status: row.status,
  };
}

/**
 * The remember verb's pseudo-sessions (the caller: `cli`, `viewer`, `mcp`, `mcp:<host>`), which are
 * no host's sessions and are left out of the per-host counts.
 */
const PSEUDO_SESSION = `(s.id IN (${CHANGE_ORIGINS.map((o) => `'${o}'`).join(', ')})
  OR substr(s.id, 1, instr(s.id, ':') - 1) IN (${CHANGE_ORIGINS.map((o) => `'${o}'`).join(', ')}))`;

export function createSessionsRepo(db: Db) {
  const upsertProject = lazyStatement(
    db,
    `INSERT INTO projects (id, name, key, root, created_at, last_capture_at) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET last_capture_at = MAX(projects.last_capture_at, excluded.last_capture_at), name = excluded.name`,
  );
  const upsertSession = lazyStatement(
    db,
    `INSERT INTO sessions (id, project_id, cwd, transcript_path, started_at, last_event_at, host) VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET last_event_at = MAX(sessions.last_event_at, excluded.last_event_at),
       transcript_path = COALESCE(excluded.transcript_path, sessions.transcript_path),
       status = CASE WHEN sessions.status = 'interrupted' THEN 'active' ELSE sessions.status END`,
  );
  const bumpStat = lazyStatement(
    db,
    `INSERT INTO capture_stats (project_id, hook, count, last_at) VALUES (?, ?, 1, ?)
     ON CONFLICT (project_id, hook) DO UPDATE SET count = count + 1, last_at = excluded.last_at`,
  );
  const endSession = lazyStatement(
    db,
    `UPDATE sessions SET ended_at = ?, end_reason = ?, status = 'completed' WHERE id = ?`,
  );
  const getSession = lazyStatement(
    db,
    `SELECT id, project_id, host, started_at, ended_at, status FROM sessions WHERE id = ?`,
  );
  const ofProject = lazyStatement(
    db,
    `SELECT id, project_id, host, started_at, ended_at, status FROM sessions WHERE project_id = ? ORDER BY started_at`,
  );
  const getProject = lazyStatement(db, `SELECT id, name, key, root FROM projects WHERE id = ?`);
  const cwdOf = lazyStatement(db, `SELECT cwd FROM sessions WHERE id = ?`);
  const projectStats = lazyStatement(
    db,
    `SELECT p.id, p.name, p.root, p.last_capture_at,
       (SELECT COUNT(*) FROM sessions s WHERE s.project_id = p.id) AS sessions,
       (SELECT COUNT(*) FROM observations o WHERE o.project_id = p.id AND o.status = 'active') AS observations
     FROM projects p ORDER BY p.last_capture_at DESC`,
  );
  const hostStats = lazyStatement(
    db,
    `SELECT s.host, COUNT(*) AS sessions, MAX(s.last_event_at) AS last_at,
       COALESCE((SELECT h.events FROM host_stats h WHERE h.host = s.host), 0) AS events
     FROM sessions s WHERE NOT ${PSEUDO_SESSION} GROUP BY s.host ORDER BY s.host`,
  );
  const bumpHost = lazyStatement(
    db,
    `INSERT INTO host_stats (host, events, last_at) VALUES (?, 1, ?)
     ON CONFLICT (host) DO UPDATE SET events = events + 1, last_at = MAX(last_at, excluded.last_at)`,
  );
  const hookStats = lazyStatement(
    db,
    `SELECT hook, SUM(count) AS count, MAX(last_at) AS last_at FROM capture_stats GROUP BY hook ORDER BY hook`,
  );

  return {
    /**
     * Record that `project` and `session` were seen at `at` (one hook event; a transcript read spans
     * `at` to `lastAt`).
     */
    touch(
      project: Project,
      session: { id: string; cwd: string; transcriptPath: string | null; host?: string },
      hook: string,
      at: number,
      lastAt: number = at,
    ) {
      upsertProject().run(project.id, project.name, project.key, project.root, at, Math.max(at, lastAt));
      upsertSession().run(
        session.id,
        project.id,
        session.cwd,
        session.transcriptPath,
        at,
        Math.max(at, lastAt),
        session.host ?? 'claude-code',
      );
      bumpStat().run(project.id, hook, at);
    },
    /** One captured hook event of `host` (the worker's inbox import; not transcript reads, not MCP). */
    countEvent(host: string, at: number): void {
      bumpHost().run(host, at);
    },
    end(sessionId: string, reason: string, at: number): void {
      endSession().run(at, reason, sessionId);
    },
    get(sessionId: string): Session | null {
      const row = getSession().get(sessionId) as SessionRow | undefined;
      return row ? toSession(row) : null;
    },
    /** The working directory a session was first seen in, or null for a session not seen. */
    cwdOf(sessionId: string): string | null {
      const row = cwdOf().get(sessionId) as { cwd: string | null } | undefined;
      return row?.cwd || null;
    },
    /** A project's sessions, oldest first. */
    ofProject(projectId: ProjectId): Session[] {
      return (ofProject().all(projectId) as SessionRow[]).map(toSession);
    },
    project(id: ProjectId): Project | null {
      const row = getProject().get(id) as { id: string; name: string; key: string; root: string } | undefined;
      return row ? { id: row.id as ProjectId, name: row.name, key: row.key, root: row.root } : null;
    },
    projectStats(): ProjectStats[] {
      return (
        projectStats().all() as {
          id: string;
          name: string;
          root: string;
          last_capture_at: number | null;
          sessions: number;
          observations: number;
        }[]
      ).map((r) => ({
        id: r.id as ProjectId,
        name: r.name,
        root: r.root,
        lastCaptureAt: r.last_capture_at,
        sessions: r.sessions,
        observations: r.observations,
      }));
    },
    /** Sessions and captured events per host (`claude-code`, `codex`, …), and when each last captured anything. */
    hostStats(): { host: string; sessions: number; events: number; lastAt: number | null }[] {
      return (
        hostStats().all() as { host: string; sessions: number; events: number; last_at: number | null }[]
      ).map((r) => ({
        host: r.host,
        sessions: r.sessions,
        events: r.events,
        lastAt: r.last_at,
      }));
    },
    hookStats(): { hook: string; count: number; lastAt: number }[] {
      return (hookStats().all() as { hook: string; count: number; last_at: number }[]).map((r) => ({
        hook: r.hook,
        count: r.count,
        lastAt: r.last_at,
      }));
    },
  };
}

export type SessionsRepo = ReturnType<typeof createSessionsRepo>;
