/**
 * Observations: insert with content-hash dedup, read by id, list recent, full-text search, status changes.
 */
import { searchTermsOf } from '../core/identifiers.ts';
import { contentHash, newObservationId, type ObservationId, type ProjectId } from '../core/ids.ts';
import type {
  Observation,
  ObservationDraft,
  ObservationSource,
  ObservationStatus,
  ObservationType,
} from '../core/model.ts';
import { estimateTokens } from '../core/tokens.ts';
import type { Db } from './database.ts';
import { lazyStatement, parseJsonList } from './statements.ts';

interface ObservationRow {
  id: string;
  project_id: string;
  session_id: string | null;
  type: string;
  title: string;
  subtitle: string;
  narrative: string;
  facts: string;
  concepts: string;
  files_read: string;
  files_modified: string;
  source: string;
  status: string;
  created_at: number;
  content_hash: string;
  tokens: number;
  provenance: string;
}

const COLUMNS = `id, project_id, session_id, type, title, subtitle, narrative, facts, concepts, files_read,
  files_modified, source, status, created_at, content_hash, tokens, provenance`;

function toObservation(row: ObservationRow): Observation {
  return {
    id: row.id as ObservationId,
    projectId: row.project_id as ProjectId,
    sessionId: row.session_id,
    type: row.type as ObservationType,
    title: row.title,
    subtitle: row.subtitle,
    narrative: row.narrative,
    facts: parseJsonList(row.facts),
    concepts: parseJsonList(row.concepts),
    filesRead: parseJsonList(row.files_read),
    filesModified: parseJsonList(row.files_modified),
    source: row.source as ObservationSource,
    status: row.status as ObservationStatus,
    createdAt: row.created_at,
    contentHash: row.content_hash,
    tokens: row.tokens,
    provenance: parseJsonList(row.provenance),
  };
}

/** What ranking needs of a memory, without its text. */
export interface ObservationBrief {
  id: ObservationId;
  projectId: ProjectId;
  sessionId: string | null;
  type: ObservationType;
  status: ObservationStatus;
  createdAt: number;
  /** Its title or narrative holds a question mark. */
  asksQuestion: boolean;
}

interface BriefRow {
  id: string;
  project_id: string;
  session_id: string | null;
  type: string;
  status: string;
  created_at: number;
  asks: number;
}

function toBrief(row: BriefRow): ObservationBrief {
  return {
    id: row.id as ObservationId,
    projectId: row.project_id as ProjectId,
    sessionId: row.session_id,
    type: row.type as ObservationType,
    status: row.status as ObservationStatus,
    createdAt: row.created_at,
    asksQuestion: row.asks === 1,
  };
}

/** The hash that makes two observations "the same": type, title and facts, normalised. */
export function observationHash(draft: ObservationDraft): string {
  const norm = (s: string) => s.trim().toLowerCase().replace(/\s+/g, ' ');
  return contentHash([draft.type, norm(draft.title), ...draft.facts.map(norm).sort()]);
}

/** The text whose size is the "token cost of the details". */
export function observationDetailTokens(d: ObservationDraft): number {
  return estimateTokens(
    [d.title, d.subtitle, d.narrative, ...d.facts, ...d.filesRead, ...d.filesModified].join('\n'),
  );
}

export interface InsertObservation {
  projectId: ProjectId;
  sessionId: string | null;
  source: ObservationSource;
  createdAt: number;
  provenance: string[];
  draft: ObservationDraft;
}

export interface SearchHit {
  observation: Observation;
  /** bm25 rank from FTS5: lower is better. */
  rank: number;
}

export function createObservationsRepo(db: Db) {
  const insert = lazyStatement(
    db,
    `INSERT INTO observations (id, project_id, session_id, type, title, subtitle, narrative, facts, concepts,
       files_read, files_modified, source, created_at, updated_at, content_hash, tokens, provenance, search_terms)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (project_id, content_hash) DO NOTHING`,
  );
  const byId = lazyStatement(db, `SELECT ${COLUMNS} FROM observations WHERE id = ?`);
  const recent = lazyStatement(
    db,
    `SELECT ${COLUMNS} FROM observations WHERE project_id = ? AND status = 'active'
     ORDER BY created_at DESC, rowid ASC LIMIT ?`,
  );
  const bySession = lazyStatement(
    db,
    `SELECT ${COLUMNS} FROM observations WHERE session_id = ? AND status = 'active' ORDER BY created_at, rowid`,
  );
  const setStatus = lazyStatement(
    db,
    `UPDATE observations SET status = ?, status_reason = ?, updated_at = ? WHERE id = ?`,
  );
  const before = lazyStatement(
    db,
    `SELECT ${COLUMNS} FROM observations WHERE project_id = ? AND status = 'active' AND created_at <= ?
     ORDER BY created_at DESC, rowid DESC LIMIT ?`,
  );
  const after = lazyStatement(
    db,
    `SELECT ${COLUMNS} FROM observations WHERE project_id = ? AND status = 'active' AND created_at > ?
     ORDER BY created_at ASC, rowid ASC LIMIT ?`,
  );
  const forget = lazyStatement(
    db,
    `UPDATE observations SET status = 'forgotten', status_reason = 'forgotten by request', title = '[forgotten]',
       subtitle = '', narrative = '', facts = '[]', concepts = '[]', files_read = '[]', files_modified = '[]',
       search_terms = '', tokens = 0, updated_at = ? WHERE id = ? AND status <> 'forgotten'`,
  );
  const supersede = lazyStatement(
    db,
    `UPDATE observations SET status = 'superseded', status_reason = ?, updated_at = ?
     WHERE id = ? AND project_id = ? AND status = 'active'`,
  );
  const setSupersedes = lazyStatement(db, `UPDATE observations SET supersedes = ? WHERE id = ?`);
  const count = lazyStatement(db, `SELECT status, COUNT(*) AS n FROM observations GROUP BY status`);
  const maxRowid = lazyStatement(db, `SELECT COALESCE(MAX(rowid), 0) AS n FROM observations`);
  const countSource = lazyStatement(db, `SELECT COUNT(*) AS n FROM observations WHERE source = ?`);
  // bm25 weights: title, subtitle, narrative, facts, concepts, files_read, files_modified, search_terms
  const BM25 = 'bm25(observations_fts, 8.0, 4.0, 1.0, 3.0, 2.0, 1.0, 2.0, 1.0)';
  const searchSql = (scoped: boolean, hidden: boolean, order: 'rank' | 'newest') =>
    `SELECT ${COLUMNS.split(',')
      .map((c) => `o.${c.trim()}`)
      .join(', ')}, ${order === 'rank' ? BM25 : '0'} AS rank
     FROM observations_fts JOIN observations o ON o.rowid = observations_fts.rowid
     WHERE observations_fts MATCH ? AND ${hidden ? "o.status <> 'forgotten'" : "o.status = 'active'"}
       ${scoped ? 'AND o.project_id = ?' : ''}
     ORDER BY ${order === 'rank' ? 'rank' : 'observations_fts.rowid DESC'} LIMIT ?`;
  const searches = new Map<string, ReturnType<typeof lazyStatement>>();
  const searchStatement = (scoped: boolean, hidden: boolean, order: 'rank' | 'newest') => {
    const key = `${scoped}/${hidden}/${order}`;
    let statement = searches.get(key);
    if (!statement) {
      statement = lazyStatement(db, searchSql(scoped, hidden, order));
      searches.set(key, statement);
    }
    return statement();
  };
  // How many memories hold a term, counted only up to a cap (reads at most `cap` postings).
  const postings = lazyStatement(
    db,
    `SELECT COUNT(*) AS n FROM (SELECT rowid FROM observations_fts WHERE observations_fts MATCH ? LIMIT ?)`,
  );
  // The memory before one in its session and the two after it, briefly (no text): one statement.
  const BRIEF = `o.id, o.project_id, o.session_id, o.type, o.status, o.created_at,
    (instr(o.title, '?') > 0 OR instr(o.narrative, '?') > 0) AS asks`;
  const neighbours = lazyStatement(
    db,
    `WITH me AS (SELECT session_id, created_at, rowid AS r FROM observations WHERE id = ?)
     SELECT 'previous' AS side, * FROM (SELECT ${BRIEF} FROM observations o, me
       WHERE o.session_id = me.session_id AND o.status = 'active' AND (o.created_at, o.rowid) < (me.created_at, me.r)
       ORDER BY o.created_at DESC, o.rowid DESC LIMIT 1)
     UNION ALL
     SELECT 'next' AS side, * FROM (SELECT ${BRIEF} FROM observations o, me
       WHERE o.session_id = me.session_id AND o.status = 'active' AND (o.created_at, o.rowid) > (me.created_at, me.r)
       ORDER BY o.created_at ASC, o.rowid ASC LIMIT 2)`,
  );

  return {
    /** Insert unless an identical observation (same content hash) exists in the project; returns the new id or null. */
    insert(o: InsertObservation): ObservationId | null {
      const id = newObservationId(o.createdAt);
      const d = o.draft;
      const info = insert().run(
        id,
        o.projectId,
        o.sessionId,
        d.type,
        d.title,
        d.subtitle,
        d.narrative,
        JSON.stringify(d.facts),
        JSON.stringify(d.concepts),
        JSON.stringify(d.filesRead),
        JSON.stringify(d.filesModified),
        o.source,
        o.createdAt,
        o.createdAt,
        observationHash(d),
        observationDetailTokens(d),
        JSON.stringify(o.provenance),
        searchTermsOf([d.title, d.subtitle, d.narrative, ...d.facts, ...d.concepts]),
      );
      return info.changes === 1 ? id : null;
    },
    get(id: string): Observation | null {
      const row = byId().get(id) as ObservationRow | undefined;
      return row ? toObservation(row) : null;
    },
    recent(projectId: ProjectId, limit: number): Observation[] {
      return (recent().all(projectId, limit) as ObservationRow[]).map(toObservation);
    },
    ofSession(sessionId: string): Observation[] {
      return (bySession().all(sessionId) as ObservationRow[]).map(toObservation);
    },
    /**
     * Full-text search with an already-safe FTS5 query (see recall/fts-query): best BM25 first, or with
     * `order: 'newest'` the newest matches without scoring (BM25 reads every posting of every term, too
     * slow for words found in most memories). Active memories only, unless `includeHidden` (then
     * superseded and invalidated too; forgotten never).
     */
    search(
      ftsQuery: string,
      projectId: ProjectId | null,
      limit: number,
      options: { includeHidden?: boolean; order?: 'rank' | 'newest' } = {},
    ): SearchHit[] {
      const statement = searchStatement(
        projectId !== null,
        options.includeHidden ?? false,
        options.order ?? 'rank',
      );
      const rows = (
        projectId ? statement.all(ftsQuery, projectId, limit) : statement.all(ftsQuery, limit)
      ) as (ObservationRow & { rank: number })[];
      return rows.map((row) => ({ observation: toObservation(row), rank: row.rank }));
    },
    /**
     * How many memories (any project, any status) match an FTS5 expression, counted up to `cap`: cheap
     * even for a word in every memory, since it stops reading after `cap` postings.
     */
    matchCount(ftsQuery: string, cap: number): number {
      return (postings().get(ftsQuery, cap) as { n: number }).n;
    },
    /**
     * The active memories around one in its session, briefly (no text): the one just before, and the
     * two just after, oldest first.
     */
    sessionNeighbours(id: string): { previous: ObservationBrief | null; next: ObservationBrief[] } {
      let previous: ObservationBrief | null = null;
      const next: ObservationBrief[] = [];
      for (const row of neighbours().all(id) as (BriefRow & { side: string })[]) {
        const brief = toBrief(row);
        if (row.side === 'previous') previous = brief;
        else next.push(brief);
      }
      return { previous, next };
    },
    setStatus(id: string, status: ObservationStatus, reason: string | null, at: number): boolean {
      return setStatus().run(status, reason, at, id).changes === 1;
    },
    /** Active memories of a project around a time: up to `nBefore` at or before it, `nAfter` after, oldest first. */
    around(projectId: ProjectId, at: number, nBefore: number, nAfter: number): Observation[] {
      const older = (before().all(projectId, at, nBefore) as ObservationRow[]).map(toObservation).reverse();
      const newer = (after().all(projectId, at, nAfter) as ObservationRow[]).map(toObservation);
      return [...older, ...newer];
    },
    /**
     * `newId` replaces `oldId` (same project, still active): the old one becomes superseded and the new
     * one records what it supersedes. False when there was nothing to supersede.
     */
    supersede(oldId: string, newId: string, projectId: ProjectId, at: number): boolean {
      if (oldId === newId) return false;
      if (supersede().run(`superseded by ${newId}`, at, oldId, projectId).changes !== 1) return false;
      setSupersedes().run(oldId, newId);
      return true;
    },
    /** Erase a memory's content (a tombstone keeps its id, so it is never re-created or re-synced). */
    forget(id: string, at: number): boolean {
      return forget().run(at, id).changes === 1;
    },
    countBySource(source: ObservationSource): number {
      return (countSource().get(source) as { n: number }).n;
    },
    /** The newest row's rowid (0 when empty): a cheap "has anything been added since" check. */
    lastRowid(): number {
      return (maxRowid().get() as { n: number }).n;
    },
    countByStatus(): Record<ObservationStatus, number> {
      const out: Record<ObservationStatus, number> = {
        active: 0,
        superseded: 0,
        invalidated: 0,
        forgotten: 0,
      };
      for (const row of count().all() as { status: ObservationStatus; n: number }[]) out[row.status] = row.n;
      return out;
    },
  };
}

export type ObservationsRepo = ReturnType<typeof createObservationsRepo>;
