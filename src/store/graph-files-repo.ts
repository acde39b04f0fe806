/**
 * File nodes: the files a project's memories touch, with what is known of each (language, size,
 * lines, blob hash, a summary for large files) and its rank among the project's files.
 */
import type { FileNode } from '../core/graph.ts';
import type { Db } from './database.ts';
import { lazyStatement, parseJsonList } from './statements.ts';

interface FileRow {
  id: string;
  project_id: string;
  path: string;
  language: string;
  lines: number;
  size: number;
  blob_hash: string;
  summarized: number;
  purpose: string;
  symbols: string;
  rank: number;
  created_at: number;
  updated_at: number;
  deleted_at: number | null;
}

const COLUMNS = `id, project_id, path, language, lines, size, blob_hash, summarized, purpose, symbols, rank,
  created_at, updated_at, deleted_at`;

function toFile(r: FileRow): FileNode {
  return {
    id: r.id,
    projectId: r.project_id,
    path: r.path,
    language: r.language,
    lines: r.lines,
    size: r.size,
    blobHash: r.blob_hash,
    summarized: r.summarized === 1,
    purpose: r.purpose,
    symbols: parseJsonList(r.symbols),
    rank: r.rank,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    deletedAt: r.deleted_at,
  };
}

/** What the graph step learned of a file (rank and times are the store's). */
export type FileFacts = Omit<FileNode, 'rank' | 'createdAt' | 'updatedAt' | 'deletedAt'>;

export function createGraphFilesRepo(db: Db) {
  const upsert = lazyStatement(
    db,
    `INSERT INTO graph_files (id, project_id, path, language, lines, size, blob_hash, summarized, purpose, symbols,
       created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET language = excluded.language, lines = excluded.lines, size = excluded.size,
       blob_hash = excluded.blob_hash, summarized = excluded.summarized, purpose = excluded.purpose,
       symbols = excluded.symbols, updated_at = excluded.updated_at, deleted_at = NULL
     WHERE graph_files.blob_hash <> excluded.blob_hash OR graph_files.deleted_at IS NOT NULL
       OR graph_files.summarized <> excluded.summarized`,
  );
  const touch = lazyStatement(
    db,
    `INSERT INTO graph_files (id, project_id, path, created_at, updated_at, deleted_at) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET deleted_at = excluded.deleted_at
     WHERE graph_files.deleted_at IS NULL AND excluded.deleted_at IS NOT NULL`,
  );
  const deletedMarks = lazyStatement(
    db,
    `SELECT id, deleted_at IS NOT NULL FROM graph_files WHERE project_id = ?`,
  );
  const byId = lazyStatement(db, `SELECT ${COLUMNS} FROM graph_files WHERE id = ?`);
  const byPath = lazyStatement(db, `SELECT ${COLUMNS} FROM graph_files WHERE project_id = ? AND path = ?`);
  const ofProject = lazyStatement(
    db,
    `SELECT ${COLUMNS} FROM graph_files WHERE project_id = ? ORDER BY path`,
  );
  const top = lazyStatement(
    db,
    `SELECT ${COLUMNS} FROM graph_files WHERE project_id = ? AND deleted_at IS NULL AND rank > 0
     ORDER BY rank DESC, path LIMIT ?`,
  );
  const removed = lazyStatement(
    db,
    `UPDATE graph_files SET deleted_at = ? WHERE project_id = ? AND deleted_at IS NULL
       AND (path = ? OR substr(path, 1, length(?) + 1) = ? || '/')`,
  );
  const present = lazyStatement(
    db,
    `UPDATE graph_files SET deleted_at = NULL WHERE id = ? AND deleted_at IS NOT NULL AND deleted_at < ?`,
  );
  const setRank = lazyStatement(db, `UPDATE graph_files SET rank = ? WHERE id = ?`);
  const clearRanks = lazyStatement(db, `UPDATE graph_files SET rank = 0 WHERE project_id = ? AND rank <> 0`);

  return {
    /** Record what a file is now; returns whether anything changed. */
    save(f: FileFacts, at: number): boolean {
      return (
        upsert().run(
          f.id,
          f.projectId,
          f.path,
          f.language,
          f.lines,
          f.size,
          f.blobHash,
          f.summarized ? 1 : 0,
          f.purpose,
          JSON.stringify(f.symbols),
          at,
          at,
        ).changes === 1
      );
    },
    /**
     * A file that is not on disk: a node all the same, marked deleted — unless the project itself is
     * not on this machine (`deleted` false: nothing is known of the file). A node there already is
     * written only when it becomes deleted (it never becomes undeleted here).
     */
    saveMissing(id: string, projectId: string, path: string, at: number, deleted = true): void {
      touch().run(id, projectId, path, at, at, deleted ? at : null);
    },
    /**
     * A project not on this machine: what its memories say happened to its files is all that is known.
     * `markRemoved`: a path (a file, or a folder and all under it) a memory says was removed at `at`;
     * `markPresent`: a file a memory changed at `at`, after its removal (made again).
     */
    markRemoved(projectId: string, path: string, at: number): number {
      return removed().run(at, projectId, path, path, path).changes;
    },
    markPresent(id: string, at: number): boolean {
      return present().run(id, at).changes === 1;
    },
    /** A project's file nodes: id → whether it is marked deleted. */
    deletedMarks(projectId: string): Map<string, boolean> {
      const rows = deletedMarks().raw().all(projectId) as [string, number][];
      return new Map(rows.map(([id, deleted]) => [id, deleted === 1]));
    },
    get(id: string): FileNode | null {
      const row = byId().get(id) as FileRow | undefined;
      return row ? toFile(row) : null;
    },
    byPath(projectId: string, path: string): FileNode | null {
      const row = byPath().get(projectId, path) as FileRow | undefined;
      return row ? toFile(row) : null;
    },
    ofProject(projectId: string): FileNode[] {
      return (ofProject().all(projectId) as FileRow[]).map(toFile);
    },
    /** The project's key files: highest rank first. */
    keyFiles(projectId: string, limit: number): FileNode[] {
      return (top().all(projectId, limit) as FileRow[]).map(toFile);
    },
    /** Replace a project's ranks (files not given get 0). */
    setRanks(projectId: string, ranks: ReadonlyMap<string, number>): void {
      clearRanks().run(projectId);
      for (const [id, rank] of ranks) setRank().run(rank, id);
    },
  };
}

export type GraphFilesRepo = ReturnType<typeof createGraphFilesRepo>;
