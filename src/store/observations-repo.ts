/**
 * Observations, read side: by id, recent, full-text search, neighbours, history, counts. Every write
 * goes through the mutation path (memory-writer.ts), never through here.
 */
import { contentHash, type ObservationId, type ProjectId } from '../core/ids.ts';
import type {
  ChangeOrigin,
  MemoryOp,
  MemorySnapshot,
  MemoryVersion,
  Observation,
  ObservationDraft,
  ObservationSource,
  ObservationStatus,
  ObservationType,
} from '../core/model.ts';
import { estimateTokens } from '../core/tokens.ts';
import { isTrustClass } from '../core/trust.ts';
import type { Db } from './database.ts';
import { matchCounts } from './match-counts.ts';
import { lazyStatement, parseJsonList } from './statements.ts';

export interface ObservationRow {
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
  modified_at: number;
  content_hash: string;
  tokens: number;
  provenance: string;
  status_reason: string | null;
  supersedes: string | null;
  version: number;
  pinned: number;
  seen_count: number;
  last_seen_at: number;
  subject: string | null;
  trust: string;
  review: string;
  review_reason: string | null;
  screen_version: number;
}

export const OBSERVATION_COLUMNS = `id, project_id, session_id, type, title, subtitle, narrative, facts, concepts,
  files_read, files_modified, source, status, created_at, modified_at, content_hash, tokens, provenance,
  status_reason, supersedes, version, pinned, seen_count, last_seen_at, subject, trust, review, review_reason,
  screen_version`;
const COLUMNS = OBSERVATION_COLUMNS;

export function toObservation(row: ObservationRow): Observation {
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
    modifiedAt: row.modified_at,
    contentHash: row.content_hash,
    tokens: row.tokens,
    provenance: parseJsonList(row.provenance),
    statusReason: row.status_reason,
    supersedes: row.supersedes,
    version: row.version,
    pinned: row.pinned === 1,
    seenCount: row.seen_count,
    lastSeenAt: row.last_seen_at,
    ...(row.subject ? { subject: row.subject } : {}),
    trust: isTrustClass(row.trust) ? row.trust : 'external',
    review: row.review === 'held' || row.review === 'approved' ? row.review : 'clear',
    reviewReason: row.review_reason,
    screenVersion: row.screen_version,
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
}

/** A memory's row, briefly (no text). */
export interface BriefRow {
  id: string;
  project_id: string;
  session_id: string | null;
  type: string;
  status: string;
  created_at: number;
}

function toBrief(row: BriefRow): ObservationBrief {
  return {
    id: row.id as ObservationId,
    projectId: row.project_id as ProjectId,
    sessionId: row.session_id,
    type: row.type as ObservationType,
    status: row.status as ObservationStatus,
    createdAt: row.created_at,
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

export interface SearchHit {
  observation: Observation;
  /** bm25 rank from FTS5: lower is better. */
  rank: number;
}

/**
 * `oneShot`: a process that asks once and exits (the context hooks): match counts are not remembered,
 * which could never pay for the check of whether the database changed.
 */
export function createObservationsRepo(db: Db, options: { oneShot?: boolean } = {}) {
  const byId = lazyStatement(db, `SELECT ${COLUMNS} FROM observations WHERE id = ?`);
  const recent = lazyStatement(
    db,
    `SELECT ${COLUMNS} FROM observations WHERE project_id = ? AND status = 'active' AND review <> 'held'
     ORDER BY created_at DESC, rowid ASC LIMIT ?`,
  );
  const bySession = lazyStatement(
    db,
    `SELECT ${COLUMNS} FROM observations WHERE session_id = ? AND status = 'active' ORDER BY created_at, rowid`,
  );
  const bySessionShown = lazyStatement(
    db,
    `SELECT ${COLUMNS} FROM observations WHERE session_id = ? AND status IN ('active', 'superseded')
     ORDER BY created_at, rowid`,
  );
  const before = lazyStatement(
    db,
    `SELECT ${COLUMNS} FROM observations WHERE project_id = ? AND status = 'active' AND review <> 'held' AND created_at <= ?
     ORDER BY created_at DESC, rowid DESC LIMIT ?`,
  );
  const after = lazyStatement(
    db,
    `SELECT ${COLUMNS} FROM observations WHERE project_id = ? AND status = 'active' AND review <> 'held' AND created_at > ?
     ORDER BY created_at ASC, rowid ASC LIMIT ?`,
  );
  const count = lazyStatement(db, `SELECT status, COUNT(*) AS n FROM observations GROUP BY status`);
  const versions = lazyStatement(
    db,
    `SELECT version, snapshot, replaced_by_op, origin, replaced_at FROM observation_versions
     WHERE observation_id = ? ORDER BY version DESC`,
  );
  const pinned = lazyStatement(
    db,
    `SELECT ${COLUMNS} FROM observations INDEXED BY observations_pinned
     WHERE project_id = ? AND pinned = 1 AND status = 'active' AND review <> 'held'
     ORDER BY created_at DESC LIMIT ?`,
  );
  const countSource = lazyStatement(db, `SELECT COUNT(*) AS n FROM observations WHERE source = ?`);
  // bm25 weights: title, subtitle, narrative, facts, concepts, files_read, files_modified, search_terms.
  // Mild: a title or fact holds what the memory is about, but weights of 8 and 3 let one title word
  // outrank a memory holding the rest of the query (measured with bench:recall and bench:locomo).
  const BM25 = 'bm25(observations_fts, 2.0, 1.0, 1.0, 1.5, 1.0, 1.0, 1.5, 1.0)';
  const searchSql = (scoped: boolean, hidden: boolean, order: 'rank' | 'newest') =>
    `SELECT ${COLUMNS.split(',')
      .map((c) => `o.${c.trim()}`)
      .join(', ')}, ${order === 'rank' ? BM25 : '0'} AS rank
     FROM observations_fts JOIN observations o ON o.rowid = observations_fts.rowid
     WHERE observations_fts MATCH ? AND ${hidden ? "o.status <> 'forgotten'" : "o.status = 'active' AND o.review <> 'held'"}
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
  const counts = options.oneShot
    ? (_query: string, _cap: number, count: () => number) => count()
    : matchCounts(db);
  const lastRowid = lazyStatement(db, `SELECT COALESCE(MAX(rowid), 0) AS n FROM observations`);
  const postings = lazyStatement(
    db,
    `SELECT COUNT(*) AS n FROM (SELECT rowid FROM observations_fts WHERE observations_fts MATCH ? LIMIT ?)`,
  );
  // The memories just before and just after one in its session, briefly (no text): one statement, two
  // index probes (observations_by_session).
  const BRIEF = 'o.id, o.project_id, o.session_id, o.type, o.status, o.created_at';
  const neighbours = lazyStatement(
    db,
    `WITH me AS (SELECT session_id, created_at, rowid AS r FROM observations WHERE id = ?)
     SELECT * FROM (SELECT ${BRIEF} FROM observations o, me
       WHERE o.session_id = me.session_id AND o.status = 'active' AND (o.created_at, o.rowid) < (me.created_at, me.r)
       ORDER BY o.created_at DESC, o.rowid DESC LIMIT 1)
     UNION ALL
     SELECT * FROM (SELECT ${BRIEF} FROM observations o, me
       WHERE o.session_id = me.session_id AND o.status = 'active' AND (o.created_at, o.rowid) > (me.created_at, me.r)
       ORDER BY o.created_at ASC, o.rowid ASC LIMIT 1)`,
  );

  const bySubject = lazyStatement(
    db,
    `SELECT ${COLUMNS} FROM observations INDEXED BY observations_by_subject
     WHERE project_id = ? AND subject = ? AND status = 'active' ORDER BY created_at DESC, rowid DESC LIMIT 1`,
  );

  const bySubjectPrefix = lazyStatement(
    db,
    `SELECT ${COLUMNS} FROM observations INDEXED BY observations_by_subject
     WHERE project_id = ? AND subject >= ? AND subject < ? AND status = 'active' ORDER BY subject, rowid`,
  );

  const held = lazyStatement(
    db,
    `SELECT ${COLUMNS} FROM observations INDEXED BY observations_held
     WHERE review = 'held' AND status = 'active' AND (? IS NULL OR project_id = ?)
     ORDER BY modified_at DESC, rowid DESC LIMIT ?`,
  );
  const heldCount = lazyStatement(
    db,
    `SELECT COUNT(*) AS n FROM observations INDEXED BY observations_held WHERE review = 'held' AND status = 'active'`,
  );
  const unscreened = lazyStatement(
    db,
    `SELECT id FROM observations INDEXED BY observations_unscreened
     WHERE status = 'active' AND screen_version < ? LIMIT ?`,
  );

  return {
    /** Quarantined memories awaiting review (active ones), newest change first; every project when null. */
    held(projectId: ProjectId | null, limit: number): Observation[] {
      return (held().all(projectId, projectId, limit) as ObservationRow[]).map(toObservation);
    },
    /** How many active memories are quarantined, awaiting review. */
    heldCount(): number {
      return (heldCount().get() as { n: number }).n;
    },
    /** Ids of active memories not yet screened by `version` of the instruction screen. */
    unscreened(version: number, limit: number): string[] {
      return (unscreened().all(version, limit) as { id: string }[]).map((r) => r.id);
    },
    /** The active memory of a project about a subject (`command:test`…), the newest when several. */
    bySubject(projectId: ProjectId, subject: string): Observation | null {
      const row = bySubject().get(projectId, subject) as ObservationRow | undefined;
      return row ? toObservation(row) : null;
    },
    /** The active memories of a project whose subject starts with `prefix` (one source's rules). */
    bySubjectPrefix(projectId: ProjectId, prefix: string): Observation[] {
      return (bySubjectPrefix().all(projectId, prefix, `${prefix}\uffff`) as ObservationRow[]).map(
        toObservation,
      );
    },
    get(id: string): Observation | null {
      const row = byId().get(id) as ObservationRow | undefined;
      return row ? toObservation(row) : null;
    },
    /** Earlier versions of a memory, newest first (the current one is `get`). */
    history(id: string): MemoryVersion[] {
      return (
        versions().all(id) as {
          version: number;
          snapshot: string;
          replaced_by_op: MemoryOp;
          origin: string;
          replaced_at: number;
        }[]
      ).map((r) => ({
        version: r.version,
        snapshot: JSON.parse(r.snapshot) as MemorySnapshot,
        replacedByOp: r.replaced_by_op,
        origin: r.origin as ChangeOrigin,
        replacedAt: r.replaced_at,
      }));
    },
    /** A project's active pinned (standing) memories, newest first. */
    pinned(projectId: ProjectId, limit: number): Observation[] {
      return (pinned().all(projectId, limit) as ObservationRow[]).map(toObservation);
    },
    recent(projectId: ProjectId, limit: number): Observation[] {
      return (recent().all(projectId, limit) as ObservationRow[]).map(toObservation);
    },
    ofSession(sessionId: string): Observation[] {
      return (bySession().all(sessionId) as ObservationRow[]).map(toObservation);
    },
    /** A session's active memories and those a later one superseded, oldest first. */
    ofSessionWithSuperseded(sessionId: string): Observation[] {
      return (bySessionShown().all(sessionId) as ObservationRow[]).map(toObservation);
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
      return counts(ftsQuery, cap, () => (postings().get(ftsQuery, cap) as { n: number }).n);
    },
    /** About how many memories the store holds (its highest row id: no scan, whatever the size). */
    sizeEstimate(): number {
      return (lastRowid().get() as { n: number }).n;
    },
    /** The active memories just before and just after one in its session (0-2), briefly (no text), older first. */
    neighboursInSession(id: string): ObservationBrief[] {
      return (neighbours().all(id) as BriefRow[]).map(toBrief);
    },
    /** Active memories of a project around a time: up to `nBefore` at or before it, `nAfter` after, oldest first. */
    around(projectId: ProjectId, at: number, nBefore: number, nAfter: number): Observation[] {
      const older = (before().all(projectId, at, nBefore) as ObservationRow[]).map(toObservation).reverse();
      const newer = (after().all(projectId, at, nAfter) as ObservationRow[]).map(toObservation);
      return [...older, ...newer];
    },
    countBySource(source: ObservationSource): number {
      return (countSource().get(source) as { n: number }).n;
    },
    countByStatus(): Record<ObservationStatus, number> {
      const out: Record<ObservationStatus, number> = {
        active: 0,
        superseded: 0,
        invalidated: 0,
        archived: 0,
        forgotten: 0,
      };
      for (const row of count().all() as { status: ObservationStatus; n: number }[]) out[row.status] = row.n;
      return out;
    },
  };
}

export type ObservationsRepo = ReturnType<typeof createObservationsRepo>;
