/**
 * Two-way sync of an Obsidian vault with the store (SQLite stays the source of truth; the vault is a
 * projection people can edit without losing anything). One writer per vault (a lock). Identity is the
 * frontmatter `id`, never the file name; content hashes decide, never modification times.
 *
 * Phase 1, vault → store, for each note whose hash differs from its stored base (what engram last
 * wrote or accepted; a note equal to it is unchanged, or an echo of engram's own write):
 *  - a memory note: merged three ways with engram's current rendering (the human wins on the keys a
 *    human owns and on overlapping body hunks; the store's side of those is kept as a revision), and
 *    the human's changes are applied to the memory (origin `vault`, scrubbed by the mutation path);
 *  - malformed YAML: the note is flagged and left alone; the store keeps its last good state;
 *  - a memory note gone from the vault: the memory is archived (restorable), never erased;
 *  - a new note written by hand with a `type` (in a project's folder): a new memory, and an `id` line
 *    added to its frontmatter, every other byte untouched.
 * Phase 2, store → vault: every node is rendered; a note whose rendering changed is merged three ways
 * (base: engram's last rendering) and written atomically — only if the file still has the hash read in
 * phase 1 (a concurrent edit waits for the next sync). Notes of memories archived in engram are removed
 * (kept and flagged if edited meanwhile, unless this sync took the whole edit in — a note set to
 * `status: archived` goes quietly; always removed when forgotten). `index.md` and `graph.json`
 * are made anew. Nothing changed on either side → nothing is written.
 *
 * Phase 1 is `vault-pull`, phase 2 `vault-push`; what they share while a sync runs is `vault-sync-state`.
 */
import type { Project } from '../core/model.ts';
import type { Store } from '../store/store.ts';
import { safeName } from './note-names.ts';
import { pullChangedNotes, pullHandWrittenNotes } from './vault-pull.ts';
import { pushVault } from './vault-push.ts';
import { lockVault } from './vault-lock.ts';
import { scanVault, type VaultFile } from './vault-scan.ts';
import {
  newReport,
  REJECTED,
  syncState,
  type VaultSyncOptions,
  type VaultSyncReport,
} from './vault-sync-state.ts';

export type { VaultSyncOptions, VaultSyncReport } from './vault-sync-state.ts';

export function syncVault(store: Store, options: VaultSyncOptions): VaultSyncReport {
  const lock = lockVault(options.dir);
  try {
    return runSync(store, options);
  } finally {
    lock.release();
  }
}

function runSync(store: Store, options: VaultSyncOptions): VaultSyncReport {
  const { dir } = options;
  const started = options.now();
  const report = newReport(dir);
  const startSeq = store.changes.lastSeq();
  if (!store.vaults.get(dir))
    store.vaults.put(
      dir,
      options.projects.map((p) => p.id),
    );
  const vault = store.vaults.get(dir);
  const rows = new Map(store.vaults.notes(dir).map((r) => [r.nodeId, r]));
  const rejected = new Map<string, string>();
  for (const [id, r] of rows)
    if (id.startsWith(REJECTED)) {
      rejected.set(r.path, r.baseHash);
      rows.delete(id);
    }
  const files = scanVault(dir);
  const folders = assignFolders(store, dir, options.projects);
  const folderProject = new Map([...folders].map(([projectId, folder]) => [folder.toLowerCase(), projectId]));
  const projectOfPath = (path: string) => folderProject.get(path.split('/')[0]?.toLowerCase() ?? '') ?? null;
  const inScope = new Set(options.projects.map((p) => p.id as string));
  // A note whose id line was deleted, still where it was: the same note (the id comes back).
  const byPath = new Map(files.map((f) => [f.path, f]));
  const idLost = new Map<string, VaultFile>();
  if (rows.size > 0) {
    const ids = new Set(files.map((f) => f.id));
    for (const r of rows.values()) {
      const f = byPath.get(r.path);
      if (f && f.id === null && !ids.has(r.nodeId)) idLost.set(f.path, { ...f, id: r.nodeId });
    }
  }
  const handWritten = files.filter(
    (f) =>
      f.id === null &&
      !idLost.has(f.path) &&
      f.type !== null &&
      f.type !== 'index' &&
      projectOfPath(f.path) !== null &&
      rejected.get(f.path) !== f.hash,
  );
  if (!options.full && vault?.cursor === startSeq && rows.size > 0 && handWritten.length === 0) {
    const same = [...rows.values()].every(
      (r) => !inScope.has(r.projectId) || byPath.get(r.path)?.hash === r.baseHash,
    );
    if (same) {
      report.quiet = true;
      report.ms = options.now() - started;
      return report;
    }
  }
  const fileById = new Map<string, VaultFile>();
  for (const f of idLost.values()) fileById.set(f.id as string, f);
  for (const f of files) {
    if (f.id === null) continue;
    const first = fileById.get(f.id);
    if (!first) fileById.set(f.id, f);
    else {
      // A copied note: the one at the known path keeps the id, the other is left alone and reported.
      const keep = rows.get(f.id)?.path === f.path ? f : first;
      const other = keep === f ? first : f;
      fileById.set(f.id, keep);
      report.flagged.push({ path: other.path, reason: `same id as ${keep.path}; left alone` });
    }
  }
  const state = syncState({
    store,
    options,
    dir,
    report,
    ctx: { origin: 'vault', at: options.now() },
    vault,
    rows,
    files,
    fileById,
    folders,
    projectOfPath,
    inScope,
    handWritten,
  });
  pullChangedNotes(state);
  pullHandWrittenNotes(state);
  pushVault(state);
  const endSeq = store.changes.lastSeq();
  // The cursor passes this sync's own changes (origin vault); anyone else's are looked at next time.
  // A note left for later (flagged, edited meanwhile) keeps the cursor where it was: no quiet syncs
  // until it is done.
  const ownOnly = store.changes.since(startSeq, 100_000).every((c) => c.origin === 'vault');
  const settled = report.busy === 0 && report.flagged.length === 0;
  const cursor = !settled ? (vault?.cursor ?? 0) : ownOnly ? endSeq : startSeq;
  store.vaults.markSynced(dir, cursor, options.now());
  report.ms = options.now() - started;
  return report;
}

/** Each project's folder in the vault: its name, made unique; given once and kept. */
function assignFolders(store: Store, dir: string, projects: readonly Project[]): Map<string, string> {
  const folders = store.vaults.folders(dir);
  const used = new Set([...folders.values()].map((f) => f.toLowerCase()));
  for (const p of projects) {
    if (folders.has(p.id)) continue;
    let name = safeName(p.name) || p.id;
    if (used.has(name.toLowerCase())) name = `${name} (${p.id.slice(-6)})`;
    used.add(name.toLowerCase());
    folders.set(p.id, name);
    store.vaults.addFolder(dir, p.id, name);
  }
  return folders;
}
