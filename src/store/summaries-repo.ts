/**
 * Session summaries (read side: they are written through the mutation path, memory-writer.ts) and
 * recorded user prompts (scrubbed again here: every text engram stores passes the scrubber, which the
 * store hands in — the context hooks' reading store hands in a refusal instead, so their bundle carries
 * no scrubber: ~18 KB, a third of that bundle's top-level work at every SessionStart).
 */
import type { ProjectId } from '../core/ids.ts';
import type { Summary } from '../core/model.ts';
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

export function createSummariesRepo(db: Db, scrub: (text: string) => string) {
  const bySession = lazyStatement(db, `SELECT ${COLUMNS} FROM summaries WHERE session_id = ?`);
  const latest = lazyStatement(
    db,
    `SELECT ${COLUMNS} FROM summaries WHERE project_id = ? AND session_id <> ? ORDER BY updated_at DESC LIMIT ?`,
  );
  // A summary pulled from the team has a synced row and no session on this machine.
  const fromTeam = `EXISTS (SELECT 1 FROM team_entities te WHERE te.entity = 'summary' AND te.entity_id = s.session_id)
    AND NOT EXISTS (SELECT 1 FROM sessions se WHERE se.id = s.session_id)`;
  const latestHere = lazyStatement(
    db,
    `SELECT ${COLUMNS} FROM summaries s WHERE project_id = ? AND session_id <> ? AND NOT (${fromTeam})
      ORDER BY updated_at DESC LIMIT ?`,
  );
  const latestOfTeam = lazyStatement(
    db,
    `SELECT ${COLUMNS.replace(/(\w+)/g, 's.$1')}, te.author, te.device FROM summaries s
       JOIN team_entities te ON te.entity = 'summary' AND te.entity_id = s.session_id
      WHERE s.project_id = ? AND NOT EXISTS (SELECT 1 FROM sessions se WHERE se.id = s.session_id)
      ORDER BY s.updated_at DESC LIMIT ?`,
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
    /** The newest summaries of sessions of this machine (not pulled from the team), leaving one out. */
    latestHere(projectId: ProjectId, exceptSessionId: string, limit: number): Summary[] {
      return (latestHere().all(projectId, exceptSessionId, limit) as SummaryRow[]).map(toSummary);
    },
    /** The newest summaries pulled from the team, with who wrote them on which machine. */
    latestOfTeam(projectId: ProjectId, limit: number): (Summary & { author: string; device: string })[] {
      return (
        latestOfTeam().all(projectId, limit) as (SummaryRow & { author: string; device: string })[]
      ).map((r) => ({ ...toSummary(r), author: r.author, device: r.device }));
    },
    /** Every summary of a project, newest first. */
    ofProject(projectId: ProjectId): Summary[] {
      return (ofProject().all(projectId) as SummaryRow[]).map(toSummary);
    },
    count(): number {
      return (count().get() as { n: number }).n;
    },
    addPrompt(sessionId: string, projectId: ProjectId, eventSeq: number, prompt: string, at: number): void {
      insertPrompt().run(sessionId, projectId, eventSeq, scrub(prompt), at);
    },
    promptCount(): number {
      return (promptCount().get() as { n: number }).n;
    },
  };
}

export type SummariesRepo = ReturnType<typeof createSummariesRepo>;
