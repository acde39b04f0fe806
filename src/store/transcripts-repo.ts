/**
 * Transcript reading progress (offset + fingerprint per file; for a log written from a host's store,
 * where reading that store stopped), record-type counts, and token usage.
 */
import type { ChainLink, TranscriptEntry, UsageRecord } from '../core/transcript.ts';
import type { Db } from './database.ts';
import { lazyStatement } from './statements.ts';

export interface TranscriptProgress {
  path: string;
  offset: number;
  fingerprint: string;
  records: number;
  badLines: number;
  /** The last entries before `offset`, as context for the next read. */
  tail: TranscriptEntry[];
  /** The end of the record chain before `offset` (to recognise a rewind to a point read before). */
  chain: ChainLink[];
}

export interface UsageTotals {
  key: string;
  model: string;
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  messages: number;
}

export function createTranscriptsRepo(db: Db) {
  const get = lazyStatement(
    db,
    `SELECT path, offset, fingerprint, records, bad_lines, tail, chain FROM transcript_files WHERE path = ?`,
  );
  const save = lazyStatement(
    db,
    `INSERT INTO transcript_files (path, session_id, project_id, offset, fingerprint, records, bad_lines, tail, chain,
       updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (path) DO UPDATE SET session_id = excluded.session_id, project_id = excluded.project_id,
       offset = excluded.offset, fingerprint = excluded.fingerprint, records = excluded.records,
       bad_lines = excluded.bad_lines, tail = excluded.tail, chain = excluded.chain, updated_at = excluded.updated_at`,
  );
  const getSource = lazyStatement(db, `SELECT cursor FROM transcript_sources WHERE path = ?`);
  const saveSource = lazyStatement(
    db,
    `INSERT INTO transcript_sources (path, cursor, updated_at) VALUES (?, ?, ?)
     ON CONFLICT (path) DO UPDATE SET cursor = excluded.cursor, updated_at = excluded.updated_at`,
  );
  const bumpType = lazyStatement(
    db,
    `INSERT INTO transcript_record_types (record_type, seen, skipped) VALUES (?, ?, ?)
     ON CONFLICT (record_type) DO UPDATE SET seen = seen + excluded.seen, skipped = skipped + excluded.skipped`,
  );
  const addUsage = lazyStatement(
    db,
    `INSERT INTO usage_messages (message_id, session_id, project_id, model, day, input_tokens, output_tokens,
       cache_read_tokens, cache_write_tokens) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
  );
  const totals = lazyStatement(
    db,
    `SELECT COUNT(*) AS files, COALESCE(SUM(records), 0) AS records, COALESCE(SUM(bad_lines), 0) AS bad FROM transcript_files`,
  );
  const types = lazyStatement(
    db,
    `SELECT record_type, seen, skipped FROM transcript_record_types ORDER BY seen DESC`,
  );
  const usageBy = (column: string) =>
    lazyStatement(
      db,
      `SELECT ${column} AS key, model, SUM(input_tokens) AS input, SUM(output_tokens) AS output,
         SUM(cache_read_tokens) AS cacheRead, SUM(cache_write_tokens) AS cacheWrite, COUNT(*) AS messages
       FROM usage_messages GROUP BY ${column}, model ORDER BY ${column}`,
    );
  const byStatement = {
    session_id: usageBy('session_id'),
    project_id: usageBy('project_id'),
    day: usageBy('day'),
  };

  return {
    progress(path: string): TranscriptProgress | null {
      const row = get().get(path) as
        | {
            path: string;
            offset: number;
            fingerprint: string;
            records: number;
            bad_lines: number;
            tail: string;
            chain: string;
          }
        | undefined;
      if (!row) return null;
      const list = <T>(text: string): T[] => {
        try {
          const parsed: unknown = JSON.parse(text);
          return Array.isArray(parsed) ? (parsed as T[]) : [];
        } catch {
          return []; // a damaged tail or chain only costs context, never progress
        }
      };
      const tail = list<TranscriptEntry>(row.tail);
      const chain = list<ChainLink>(row.chain);
      return {
        path: row.path,
        offset: row.offset,
        fingerprint: row.fingerprint,
        records: row.records,
        badLines: row.bad_lines,
        tail,
        chain,
      };
    },
    saveProgress(
      p: TranscriptProgress & { sessionId: string | null; projectId: string | null },
      at: number,
    ): void {
      save().run(
        p.path,
        p.sessionId,
        p.projectId,
        p.offset,
        p.fingerprint,
        p.records,
        p.badLines,
        JSON.stringify(p.tail),
        JSON.stringify(p.chain),
        at,
      );
    },
    /** Where reading the host's store for the log at `path` stopped (its adapter's JSON), if known. */
    sourceCursor(path: string): string | null {
      const row = getSource().get(path) as { cursor: string } | undefined;
      return row?.cursor ?? null;
    },
    saveSourceCursor(path: string, cursor: string, at: number): void {
      saveSource().run(path, cursor, at);
    },
    countTypes(types: Map<string, { seen: number; skipped: number }>): void {
      for (const [type, c] of types) bumpType().run(type, c.seen, c.skipped);
    },
    addUsage(sessionId: string, projectId: string, usage: readonly UsageRecord[]): number {
      let added = 0;
      for (const u of usage) {
        const day = new Date(u.at || 0).toISOString().slice(0, 10);
        added += addUsage().run(
          u.messageId,
          sessionId,
          projectId,
          u.model,
          day,
          u.input,
          u.output,
          u.cacheRead,
          u.cacheWrite,
        ).changes;
      }
      return added;
    },
    /** Every transcript file the store has read or a session named, wherever it lies. */
    knownPaths(): string[] {
      return db
        .prepare(
          `SELECT path FROM transcript_files
           UNION SELECT transcript_path FROM sessions WHERE transcript_path IS NOT NULL`,
        )
        .pluck()
        .all() as string[];
    },
    totals(): { files: number; records: number; badLines: number } {
      const r = totals().get() as { files: number; records: number; bad: number };
      return { files: r.files, records: r.records, badLines: r.bad };
    },
    recordTypes(): { type: string; seen: number; skipped: number }[] {
      return (types().all() as { record_type: string; seen: number; skipped: number }[]).map((r) => ({
        type: r.record_type,
        seen: r.seen,
        skipped: r.skipped,
      }));
    },
    usageBy(group: 'session_id' | 'project_id' | 'day'): UsageTotals[] {
      return byStatement[group]().all() as UsageTotals[];
    },
  };
}

export type TranscriptsRepo = ReturnType<typeof createTranscriptsRepo>;
