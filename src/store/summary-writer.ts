/**
 * Session summaries through the mutation path: saved (cleaned and scrubbed) at each checkpoint, finished when the
 * session ends, and a phrase erased from them in place — each logged in the change log.
 */
import type { ProjectId } from '../core/ids.ts';
import type { SummaryDraft } from '../core/model.ts';
import { erasePhrase } from '../core/phrase.ts';
import type { Db } from './database.ts';
import { cleanList, storableText } from './memory-draft.ts';
import type { MutationContext, MutationKit } from './mutation-kit.ts';
import { lazyStatement } from './statements.ts';

/** Every text column of a summary (what erasure scans and rewrites). */
export const SUMMARY_TEXT_COLUMNS = [
  'request',
  'investigated',
  'learned',
  'completed',
  'next_steps',
  'notes',
  'files_read',
  'files_edited',
];

export function createSummaryWriter(db: Db, { tx, log }: MutationKit) {
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
  const markFinal = lazyStatement(
    db,
    `UPDATE summaries SET final = 1, updated_at = MAX(updated_at, ?) WHERE session_id = ? AND final = 0`,
  );
  const projectOf = lazyStatement(db, `SELECT project_id FROM summaries WHERE session_id = ?`);
  const row = lazyStatement(
    db,
    `SELECT ${SUMMARY_TEXT_COLUMNS.join(', ')} FROM summaries WHERE session_id = ?`,
  );
  const writeText = lazyStatement(
    db,
    `UPDATE summaries SET ${SUMMARY_TEXT_COLUMNS.map((f) => `${f} = ?`).join(', ')} WHERE session_id = ?`,
  );
  const project = (sessionId: string) =>
    (projectOf().get(sessionId) as { project_id: string } | undefined)?.project_id ?? null;

  return {
    /**
     * Save (create or replace) a session's rolling summary; `final` once the session ended.
     * `sessionAt`: when the last thing it describes happened (the session's own time: what orders
     * "Last session" and gives its age); the mutation's clock when absent.
     */
    saveSummary(
      sessionId: string,
      projectId: ProjectId,
      s: SummaryDraft,
      final: boolean,
      ctx: MutationContext,
      sessionAt?: number,
    ): void {
      const text = (v: string) => storableText(String(v ?? '')).trim();
      tx(() => {
        upsert().run(
          sessionId,
          projectId,
          text(s.request),
          text(s.investigated),
          text(s.learned),
          text(s.completed),
          text(s.nextSteps),
          JSON.stringify(cleanList(s.filesRead)),
          JSON.stringify(cleanList(s.filesEdited)),
          text(s.notes),
          final ? 1 : 0,
          sessionAt ?? ctx.at,
        );
        log('summary', sessionId, projectId, final ? 'final' : 'save', ctx, null);
      });
    },

    /** Mark a session's summary final (its session ended). False when there is none or it already was. */
    /** Mark a session's summary final; `sessionAt` (when the session ended) as for `saveSummary`. */
    finishSummary(sessionId: string, ctx: MutationContext, sessionAt?: number): boolean {
      return tx(() => {
        if (markFinal().run(sessionAt ?? ctx.at, sessionId).changes !== 1) return false;
        log('summary', sessionId, project(sessionId), 'final', ctx, null);
        return true;
      });
    },

    /** Erase a phrase from a session's summary, in place. False when the summary did not hold it. */
    redactSummary(sessionId: string, pattern: RegExp, ctx: MutationContext): boolean {
      return tx(() => {
        const current = row().get(sessionId) as Record<string, string> | undefined;
        if (!current) return false;
        const next = SUMMARY_TEXT_COLUMNS.map((f) => erasePhrase(current[f] ?? '', pattern));
        if (next.every((v, i) => v === current[SUMMARY_TEXT_COLUMNS[i] as string])) return false;
        writeText().run(...next, sessionId);
        log('summary', sessionId, project(sessionId), 'redact', ctx, null);
        return true;
      });
    },
  };
}

export type SummaryWriter = ReturnType<typeof createSummaryWriter>;
