/**
 * The vaults engram keeps in step with the store: per vault its scope and change-log cursor, each
 * project's folder, one row per note (where it is, its stored base, engram's last rendering, a flag
 * when it is left alone) and the conflict revisions (the store's side of lines both sides changed).
 */
import type { Db } from './database.ts';
import { lazyStatement } from './statements.ts';

export type VaultScope = 'all' | string[];

export interface VaultRecord {
  dir: string;
  scope: VaultScope;
  cursor: number;
  syncedAt: number | null;
}

export interface VaultNote {
  nodeId: string;
  projectId: string;
  /** Vault-relative, with `/`. */
  path: string;
  baseHash: string;
  baseText: string;
  /** engram's own last rendering of the note (the merge base of store changes). */
  renderText: string;
  flag: string | null;
  updatedAt: number;
}

export interface VaultRevision {
  id: number;
  nodeId: string;
  path: string;
  at: number;
  storeText: string;
  vaultText: string;
  resolvedAt: number | null;
}

interface NoteRow {
  node_id: string;
  project_id: string;
  path: string;
  base_hash: string;
  base_text: string;
  render_text: string | null;
  flag: string | null;
  updated_at: number;
}

const toNote = (r: NoteRow): VaultNote => ({
  nodeId: r.node_id,
  projectId: r.project_id,
  path: r.path,
  baseHash: r.base_hash,
  baseText: r.base_text,
  renderText: r.render_text ?? r.base_text,
  flag: r.flag,
  updatedAt: r.updated_at,
});

function parseScope(text: string): VaultScope {
  try {
    const value: unknown = JSON.parse(text);
    if (value === 'all') return 'all';
    if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
  } catch {
    // A damaged scope is read as "nothing chosen"; the next export sets it again.
  }
  return [];
}

export function createVaultRepo(db: Db) {
  const getVault = lazyStatement(db, `SELECT dir, scope, cursor, synced_at FROM vaults WHERE dir = ?`);
  const listVaults = lazyStatement(db, `SELECT dir, scope, cursor, synced_at FROM vaults ORDER BY dir`);
  const putVault = lazyStatement(
    db,
    `INSERT INTO vaults (dir, scope, cursor) VALUES (?, ?, 0) ON CONFLICT (dir) DO UPDATE SET scope = excluded.scope`,
  );
  const synced = lazyStatement(db, `UPDATE vaults SET cursor = ?, synced_at = ? WHERE dir = ?`);
  const folders = lazyStatement(db, `SELECT project_id, folder FROM vault_folders WHERE dir = ?`);
  const addFolder = lazyStatement(
    db,
    `INSERT INTO vault_folders (dir, project_id, folder) VALUES (?, ?, ?) ON CONFLICT DO NOTHING`,
  );
  const notes = lazyStatement(
    db,
    `SELECT node_id, project_id, path, base_hash, base_text, render_text, flag, updated_at
     FROM vault_notes WHERE dir = ?`,
  );
  const putNote = lazyStatement(
    db,
    `INSERT INTO vault_notes (dir, node_id, project_id, path, base_hash, base_text, render_text, flag, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (dir, node_id) DO UPDATE SET project_id = excluded.project_id, path = excluded.path,
       base_hash = excluded.base_hash, base_text = excluded.base_text, render_text = excluded.render_text,
       flag = excluded.flag, updated_at = excluded.updated_at`,
  );
  const setFlag = lazyStatement(
    db,
    `UPDATE vault_notes SET flag = ?, path = ?, updated_at = ? WHERE dir = ? AND node_id = ?`,
  );
  const dropNote = lazyStatement(db, `DELETE FROM vault_notes WHERE dir = ? AND node_id = ?`);
  const addRevision = lazyStatement(
    db,
    `INSERT INTO vault_revisions (dir, node_id, project_id, path, at, store_text, vault_text)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  const openRevisions = lazyStatement(
    db,
    `SELECT id, node_id, path, at, store_text, vault_text, resolved_at FROM vault_revisions
     WHERE dir = ? AND resolved_at IS NULL ORDER BY at, id`,
  );
  const resolve = lazyStatement(
    db,
    `UPDATE vault_revisions SET resolved_at = ? WHERE dir = ? AND id = ? AND resolved_at IS NULL`,
  );
  const dropRevisionsOf = lazyStatement(db, `DELETE FROM vault_revisions WHERE node_id = ?`);
  const dropNotesOf = lazyStatement(db, `DELETE FROM vault_notes WHERE node_id = ?`);
  const notesOf = lazyStatement(db, `SELECT dir, path FROM vault_notes WHERE node_id = ?`);

  const toVault = (r: {
    dir: string;
    scope: string;
    cursor: number;
    synced_at: number | null;
  }): VaultRecord => ({
    dir: r.dir,
    scope: parseScope(r.scope),
    cursor: r.cursor,
    syncedAt: r.synced_at,
  });

  return {
    get(dir: string): VaultRecord | null {
      const row = getVault().get(dir) as Parameters<typeof toVault>[0] | undefined;
      return row ? toVault(row) : null;
    },
    list(): VaultRecord[] {
      return (listVaults().all() as Parameters<typeof toVault>[0][]).map(toVault);
    },
    /** Register a vault (or change which projects it holds). */
    put(dir: string, scope: VaultScope): void {
      putVault().run(dir, JSON.stringify(scope));
    },
    markSynced(dir: string, cursor: number, at: number): void {
      synced().run(cursor, at, dir);
    },
    folders(dir: string): Map<string, string> {
      return new Map(
        (folders().all(dir) as { project_id: string; folder: string }[]).map((r) => [r.project_id, r.folder]),
      );
    },
    addFolder(dir: string, projectId: string, folder: string): void {
      addFolder().run(dir, projectId, folder);
    },
    notes(dir: string): VaultNote[] {
      return (notes().all(dir) as NoteRow[]).map(toNote);
    },
    /** Record a note's new base (and engram's rendering, when it differs from the base). */
    putNote(dir: string, n: Omit<VaultNote, 'updatedAt'>, at: number): void {
      putNote().run(
        dir,
        n.nodeId,
        n.projectId,
        n.path,
        n.baseHash,
        n.baseText,
        n.renderText === n.baseText ? null : n.renderText,
        n.flag,
        at,
      );
    },
    flag(dir: string, nodeId: string, path: string, flag: string | null, at: number): void {
      setFlag().run(flag, path, at, dir, nodeId);
    },
    dropNote(dir: string, nodeId: string): void {
      dropNote().run(dir, nodeId);
    },
    /** Keep the store's side of lines both sides changed (the vault's text was kept). */
    addRevision(
      dir: string,
      r: { nodeId: string; projectId: string; path: string; storeText: string; vaultText: string },
      at: number,
    ): void {
      addRevision().run(dir, r.nodeId, r.projectId, r.path, at, r.storeText, r.vaultText);
    },
    openRevisions(dir: string): VaultRevision[] {
      return (
        openRevisions().all(dir) as {
          id: number;
          node_id: string;
          path: string;
          at: number;
          store_text: string;
          vault_text: string;
          resolved_at: number | null;
        }[]
      ).map((r) => ({
        id: r.id,
        nodeId: r.node_id,
        path: r.path,
        at: r.at,
        storeText: r.store_text,
        vaultText: r.vault_text,
        resolvedAt: r.resolved_at,
      }));
    },
    resolveRevision(dir: string, id: number, at: number): boolean {
      return resolve().run(at, dir, id).changes === 1;
    },
    /** Where a node has notes, in every vault. */
    whereIs(nodeId: string): { dir: string; path: string }[] {
      return notesOf().all(nodeId) as { dir: string; path: string }[];
    },
    /** Forget everything about a node's notes (an erased memory). */
    dropNode(nodeId: string): void {
      dropNotesOf().run(nodeId);
      dropRevisionsOf().run(nodeId);
    },
  };
}

export type VaultRepo = ReturnType<typeof createVaultRepo>;
