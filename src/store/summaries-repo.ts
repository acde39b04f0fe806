/**
 * Session summaries (one row per session, checkpointed at each Stop) and recorded user prompts.
 */
import type { ProjectId } from '../core/ids.ts';
import type { Summary, SummaryDraft } from '../core/model.ts';
import type { Db } from './database.ts';
import { lazyStatement, parseJsonList } from './statements.ts';

interface SummaryRow {
  session_id: string;
  project_id: string;
  request: string;
  investigated: string;
  learned: string;
  completed: string;
  next_steps: string;
  files_read: string;
  files_edited: string;
  notes: string;
  final: number;
  updated_at: number;
}

const COLUMNS = `session_id, project_id, request, investigated, learned, completed, next_steps, files_read,
  files_edited, notes, final, updated_at`;

function toSummary(row: SummaryRow): Summary {
  return {
    sessionId: row.session_id,
    projectId: row.project_id as ProjectId,
    request: row.request,
    investigated: row.investigated,
    learned: row.learned,
    completed: row.completed,
    nextSteps: row.next_steps,
    filesRead: parseJsonList(row.files_read),
    filesEdited: parseJsonList(row.files_edited),
    notes: row.notes,
    final: row.final === 1,
    updatedAt: row.updated_at,
  };
}

export function createSummariesRepo(db: Db) {
  const upsert = lazyStatement(
    db,
    `INSERT INTO summaries (session_id, project_id, request, investigated, learned, completed, next_steps,
       files_read, files_edited, notes, final, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (session_id) DO UPDATE SET request = excluded.request, investigated = excluded.investigated,
       learned = excluded.learned, completed = excluded.completed, next_steps = excluded.next_steps,
       files_read = excluded.files_read, files_edited = excluded.files_edited, notes = excluded.notes,
       final = MAX(summaries.final, excluded.final), updated_at = excluded.updated_at`,
  );
  const markFinal = lazyStatement(db, `UPDATE summaries SET final = 1, updated_at = ? WHERE session_id = ?`);
  const bySession = lazyStatement(db, `SELECT ${COLUMNS} FROM summaries WHERE session_id = ?`);
  const latest = lazyStatement(
    db,
    `SELECT ${COLUMNS} FROM summaries WHERE project_id = ? AND session_id <> ? ORDER BY updated_at DESC LIMIT ?`,
  );
  const count = lazyStatement(db, `SELECT COUNT(*) AS n FROM summaries`);
  const insertPrompt = lazyStatement(
    db,
    `INSERT INTO prompts (session_id, project_id, event_seq, prompt, at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (event_seq) DO NOTHING`,
  );
  const promptCount = lazyStatement(db, `SELECT COUNT(*) AS n FROM prompts`);

  return {
    save(sessionId: string, projectId: ProjectId, s: SummaryDraft, final: boolean, at: number): void {
      upsert().run(
        sessionId,
        projectId,
        s.request,
        s.investigated,
        s.learned,
        s.completed,
        s.nextSteps,
        JSON.stringify(s.filesRead),
        JSON.stringify(s.filesEdited),
        s.notes,
        final ? 1 : 0,
        at,
      );
    },
    markFinal(sessionId: string, at: number): void {
      markFinal().run(at, sessionId);
    },
    get(sessionId: string): Summary | null {
      const row = bySession().get(sessionId) as SummaryRow | undefined;
      return row ? toSummary(row) : null;
    },
    /** The newest summaries of a project, leaving out one session (the one asking). */
    latest(projectId: ProjectId, exceptSessionId: string, limit: number): Summary[] {
      return (latest().all(projectId, exceptSessionId, limit) as SummaryRow[]).map(toSummary);
    },
    count(): number {
      return (count().get() as { n: number }).n;
    },
    addPrompt(sessionId: string, projectId: ProjectId, eventSeq: number, prompt: string, at: number): void {
      insertPrompt().run(sessionId, projectId, eventSeq, prompt, at);
    },
    promptCount(): number {
      return (promptCount().get() as { n: number }).n;
    },
  };
}

export type SummariesRepo = ReturnType<typeof createSummariesRepo>;
