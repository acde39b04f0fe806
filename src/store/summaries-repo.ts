/**
 * Session summaries (read side: they are written through the mutation path, memory-writer.ts) and
 * recorded user prompts (scrubbed again here: every text engram stores passes the scrubber).
 */
import type { ProjectId } from '../core/ids.ts';
import type { Summary } from '../core/model.ts';
import { scrubText } from '../core/scrub.ts';
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
  const bySession = lazyStatement(db, `SELECT ${COLUMNS} FROM summaries WHERE session_id = ?`);
  const latest = lazyStatement(
    db,
    `SELECT ${COLUMNS} FROM summaries WHERE project_id = ? AND session_id <> ? ORDER BY updated_at DESC LIMIT ?`,
  );
  const ofProject = lazyStatement(
    db,
    `SELECT ${COLUMNS} FROM summaries WHERE project_id = ? ORDER BY updated_at DESC`,
  );
  const count = lazyStatement(db, `SELECT COUNT(*) AS n FROM summaries`);
  const insertPrompt = lazyStatement(
    db,
    `INSERT INTO prompts (session_id, project_id, event_seq, prompt, at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (event_seq) DO NOTHING`,
  );
  const promptCount = lazyStatement(db, `SELECT COUNT(*) AS n FROM prompts`);

  return {
    get(sessionId: string): Summary | null {
      const row = bySession().get(sessionId) as SummaryRow | undefined;
      return row ? toSummary(row) : null;
    },
    /** The newest summaries of a project, leaving out one session (the one asking). */
    latest(projectId: ProjectId, exceptSessionId: string, limit: number): Summary[] {
      return (latest().all(projectId, exceptSessionId, limit) as SummaryRow[]).map(toSummary);
    },
    /** Every summary of a project, newest first. */
    ofProject(projectId: ProjectId): Summary[] {
      return (ofProject().all(projectId) as SummaryRow[]).map(toSummary);
    },
    count(): number {
      return (count().get() as { n: number }).n;
    },
    addPrompt(sessionId: string, projectId: ProjectId, eventSeq: number, prompt: string, at: number): void {
      insertPrompt().run(sessionId, projectId, eventSeq, scrubText(prompt), at);
    },
    promptCount(): number {
      return (promptCount().get() as { n: number }).n;
    },
  };
}

export type SummariesRepo = ReturnType<typeof createSummariesRepo>;
