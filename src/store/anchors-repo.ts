/**
 * Anchors and staleness: per memory and file, the file's content hash and the anchored part; whether
 * (and since when) that part changed. Derived bookkeeping like the full-text index — a staleness
 * transition itself is logged through the mutation path (`store.memory.markStale`).
 */
import type { Anchor, AnchorScope, AnchorState, StaleMark } from '../core/graph.ts';
import type { Db } from './database.ts';
import { lazyStatement } from './statements.ts';

interface AnchorRow {
  rowid: number;
  memory_id: string;
  project_id: string;
  first_path: string;
  path: string;
  blob_hash: string;
  size: number;
  scope: string;
  part_hash: string;
  file_mtime_ms: number | null;
  created_at: number;
  checked_at: number;
  stale_since: number | null;
  stale_reason: string | null;
}

const COLUMNS = `rowid, memory_id, project_id, first_path, path, blob_hash, size, scope, part_hash, file_mtime_ms,
  created_at, checked_at, stale_since, stale_reason`;

function parseScope(text: string): AnchorScope {
  try {
    const value = JSON.parse(text) as AnchorScope;
    if (value && (value.kind === 'file' || value.kind === 'lines' || value.kind === 'symbol')) return value;
  } catch {
    // A damaged scope falls back to the whole file below: the anchor stays usable.
  }
  return { kind: 'file' };
}

function toAnchor(r: AnchorRow): Anchor {
  return {
    rowid: r.rowid,
    memoryId: r.memory_id,
    projectId: r.project_id,
    firstPath: r.first_path,
    path: r.path,
    blobHash: r.blob_hash,
    size: r.size,
    scope: parseScope(r.scope),
    partHash: r.part_hash,
    fileMtimeMs: r.file_mtime_ms,
    createdAt: r.created_at,
    checkedAt: r.checked_at,
    staleSince: r.stale_since,
    staleReason: r.stale_reason,
  };
}

/** The columns an anchor's state is stored in: path, blob_hash, size, scope, part_hash. */
const stateColumns = (s: AnchorState) => [s.path, s.blobHash, s.size, JSON.stringify(s.scope), s.partHash];

/** Placeholders for an IN list, in chunks SQLite accepts. */
function chunks<T>(items: readonly T[], size = 500): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

export function createAnchorsRepo(db: Db) {
  const insert = lazyStatement(
    db,
    `INSERT INTO anchors (memory_id, project_id, first_path, path, blob_hash, size, scope, part_hash, file_mtime_ms,
       created_at, checked_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (memory_id, first_path) DO NOTHING`,
  );
  const update = lazyStatement(
    db,
    `UPDATE anchors SET path = ?, blob_hash = ?, size = ?, scope = ?, part_hash = ?, file_mtime_ms = ?,
       checked_at = ? WHERE rowid = ?`,
  );
  const checked = lazyStatement(db, `UPDATE anchors SET file_mtime_ms = ?, checked_at = ? WHERE rowid = ?`);
  const stale = lazyStatement(
    db,
    `UPDATE anchors SET stale_since = COALESCE(stale_since, ?), stale_reason = ?, checked_at = ? WHERE rowid = ?`,
  );
  const fresh = lazyStatement(
    db,
    `UPDATE anchors SET stale_since = NULL, stale_reason = NULL, checked_at = ? WHERE rowid = ?`,
  );
  const ofProject = lazyStatement(db, `SELECT ${COLUMNS} FROM anchors WHERE project_id = ? ORDER BY rowid`);
  const ofPath = lazyStatement(
    db,
    `SELECT ${COLUMNS} FROM anchors WHERE project_id = ? AND path = ? ORDER BY rowid`,
  );
  const ofMemory = lazyStatement(db, `SELECT ${COLUMNS} FROM anchors WHERE memory_id = ? ORDER BY rowid`);
  const dropMemory = lazyStatement(db, `DELETE FROM anchors WHERE memory_id = ?`);
  const staleOfProject = lazyStatement(
    db,
    `SELECT memory_id, MIN(stale_since) AS since, GROUP_CONCAT(stale_reason, '; ') AS reason
     FROM anchors WHERE project_id = ? AND stale_since IS NOT NULL GROUP BY memory_id`,
  );
  const stillStale = lazyStatement(
    db,
    `SELECT 1 FROM anchors WHERE memory_id = ? AND stale_since IS NOT NULL LIMIT 1`,
  );

  const staleRows = (rows: { memory_id: string; since: number; reason: string | null }[]) =>
    new Map<string, StaleMark>(rows.map((r) => [r.memory_id, { since: r.since, reason: r.reason ?? '' }]));

  return {
    /** Anchor a memory to a file (once per memory and first path). */
    add(
      memoryId: string,
      projectId: string,
      state: AnchorState,
      fileMtimeMs: number | null,
      at: number,
    ): boolean {
      return (
        insert().run(memoryId, projectId, state.path, ...stateColumns(state), fileMtimeMs, at, at).changes ===
        1
      );
    },
    /** The anchor follows the file (whitespace, lines moved, file moved). */
    follow(rowid: number, state: AnchorState, fileMtimeMs: number | null, at: number): void {
      update().run(...stateColumns(state), fileMtimeMs, at, rowid);
    },
    /** Checked and unchanged: remember the file's stat. */
    checked(rowid: number, fileMtimeMs: number | null, at: number): void {
      checked().run(fileMtimeMs, at, rowid);
    },
    /** The anchored part changed (or the file is gone) at `since`; the first time is kept. */
    markStale(rowid: number, since: number, reason: string, at: number): void {
      stale().run(since, reason, at, rowid);
    },
    /** The anchored content is back as it was (a revert): not stale any more. */
    clearStale(rowid: number, at: number): void {
      fresh().run(at, rowid);
    },
    ofProject(projectId: string): Anchor[] {
      return (ofProject().all(projectId) as AnchorRow[]).map(toAnchor);
    },
    ofPath(projectId: string, path: string): Anchor[] {
      return (ofPath().all(projectId, path) as AnchorRow[]).map(toAnchor);
    },
    ofMemory(memoryId: string): Anchor[] {
      return (ofMemory().all(memoryId) as AnchorRow[]).map(toAnchor);
    },
    /** Anchors of some memories (any project). */
    ofMemories(memoryIds: readonly string[]): Anchor[] {
      const out: Anchor[] = [];
      for (const part of chunks([...new Set(memoryIds)])) {
        const rows = db
          .prepare(`SELECT ${COLUMNS} FROM anchors WHERE memory_id IN (${part.map(() => '?').join(',')})`)
          .all(...part) as AnchorRow[];
        out.push(...rows.map(toAnchor));
      }
      return out;
    },
    /** Whether any anchor of the memory is stale. */
    isStale(memoryId: string): boolean {
      return stillStale().get(memoryId) !== undefined;
    },
    /** Stale memories among `memoryIds`: since when, and why. */
    staleOf(memoryIds: readonly string[]): Map<string, StaleMark> {
      const out = new Map<string, StaleMark>();
      for (const part of chunks([...new Set(memoryIds)])) {
        const rows = db
          .prepare(
            `SELECT memory_id, MIN(stale_since) AS since, GROUP_CONCAT(stale_reason, '; ') AS reason
             FROM anchors WHERE stale_since IS NOT NULL AND memory_id IN (${part.map(() => '?').join(',')})
             GROUP BY memory_id`,
          )
          .all(...part) as { memory_id: string; since: number; reason: string | null }[];
        for (const [id, mark] of staleRows(rows)) out.set(id, mark);
      }
      return out;
    },
    /** Every stale memory of a project. */
    staleInProject(projectId: string): Map<string, StaleMark> {
      return staleRows(
        staleOfProject().all(projectId) as { memory_id: string; since: number; reason: string | null }[],
      );
    },
    /** A forgotten memory's anchors go with it. */
    dropMemory(memoryId: string): number {
      return dropMemory().run(memoryId).changes;
    },
  };
}

export type AnchorsRepo = ReturnType<typeof createAnchorsRepo>;
