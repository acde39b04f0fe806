/**
 * A vault sync's phase 2, store → vault (see `vault-sync`): every node placed (its found path, else a
 * new unique name in its project's type folder), the notes that may have changed rendered, merged three
 * ways with the vault's text where a human changed it, and written atomically only if the file still has
 * the hash read in phase 1; notes whose node left the vault removed (or kept and flagged); each project's
 * `index.md` and `graph.json` made anew; the notes' new bases recorded in batches.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join, posix } from 'node:path';
import type { Project } from '../core/model.ts';
import { scrubText } from '../core/scrub.ts';
import { mergeNote } from './note-merge.ts';
import { createNamer, noteNameOf, preferredName, typeFolder } from './note-names.ts';
import { parseMemoryNote } from './note-parse.ts';
import { DERIVED_NOTE_USER_KEYS, MEMORY_USER_KEYS, renderNode, type RenderContext } from './note-render.ts';
import { loadProjectGraph, type GraphNode, type ProjectGraph } from './project-graph.ts';
import { dirtyNodes } from './vault-dirty.ts';
import { writeAtomically, writeNew } from './vault-files.ts';
import { renderGraphJson, renderIndexNote } from './vault-index.ts';
import { noteHash, readVaultFile } from './vault-scan.ts';
import { countLinks, type SyncState } from './vault-sync-state.ts';
import { createLinkResolver } from './wiki-links.ts';

interface Located {
  node: GraphNode;
  project: Project;
  graph: ProjectGraph;
}

/** Base rows recorded per transaction. */
const RECORD_BATCH = 500;

/** Every node of the vault's projects that has a note (a file node only when a memory touches it). */
function locateNodes(state: SyncState): Map<string, Located> {
  const located = new Map<string, Located>();
  for (const project of state.options.projects) {
    const g = loadProjectGraph(state.store, project);
    state.graphs.set(project.id, g);
    for (const node of g.nodes.values()) {
      if (node.kind === 'file' && !(g.in.get(node.id) ?? []).some((e) => e.kind === 'touches')) continue;
      located.set(node.id, { node, project, graph: g });
    }
  }
  return located;
}

/** Each node's note path: where its note is, else a new unique name in its project's type folder. */
function assignPaths(state: SyncState, located: Map<string, Located>): Map<string, string> {
  const namer = createNamer(state.files.map((f) => noteNameOf(f.path)));
  const assigned = new Map<string, string>();
  for (const [id, { node, project }] of located) {
    const existing = state.pathOf(id);
    if (existing !== null) {
      assigned.set(id, existing);
      continue;
    }
    const hint = node.kind === 'file' ? posix.dirname(node.title) : undefined;
    const name = namer.name(preferredName(node.kind, node.title, id), id, hint === '.' ? undefined : hint);
    assigned.set(id, `${state.folders.get(project.id)}/${typeFolder(node.type)}/${name}.md`);
  }
  return assigned;
}

export function pushVault(state: SyncState): void {
  const { store, options, dir, report, ctx, rows, fileById, skip } = state;
  const located = locateNodes(state);
  const assigned = assignPaths(state, located);
  state.linkResolver = createLinkResolver([
    ...new Set([...state.files.map((f) => f.path), ...assigned.values()]),
  ]);
  // Every note's name, worked out once: links, backlinks and graph.json ask for them many times each.
  const names = new Map<string, string>();
  for (const [id, p] of assigned) names.set(id, noteNameOf(p));
  const nameOf = (id: string) => names.get(id) ?? null;
  // Folders this sync made or wrote into (a mkdir per folder, not per note).
  const madeFolders = new Set<string>();
  // A first export (no note recorded for this vault) creates its new notes in place: no stat, temporary
  // file or rename per note. A later sync writes every note atomically (Obsidian may be reading it).
  const firstExport = rows.size === 0;
  const write = (path: string, text: string, expectedHash: string | null): boolean => {
    options.beforeWrite?.(path);
    if (expectedHash === null && firstExport) {
      if (writeNew(join(dir, path), text, madeFolders)) {
        report.written++;
        return true;
      }
      report.busy++;
      return false;
    }
    // A new note is written only where no file is (a stat, not a failed read); a known one only if it
    // still has the hash read in phase 1.
    const found =
      expectedHash === null
        ? existsSync(join(dir, path))
        : (readVaultFile(dir, path)?.hash ?? null) !== expectedHash;
    if (found) {
      report.busy++;
      return false;
    }
    writeAtomically(join(dir, path), text, madeFolders);
    report.written++;
    return true;
  };
  // The notes' new bases are recorded in batches (one transaction each, not one per note).
  const records: (() => void)[] = [];
  const flush = () => {
    if (records.length > 0) store.transaction(() => records.splice(0).forEach((r) => r()));
  };
  // With no note recorded yet (a first export) every note is written: the change log is not read.
  const dirty = dirtyNodes(store, {
    since: options.full || rows.size === 0 ? null : (state.vault?.cursor ?? null),
    rows,
    files: fileById,
  });
  // One render context per project (not per note).
  const contexts = new Map<ProjectGraph, RenderContext>();
  for (const [id, { node, graph }] of located) {
    if (records.length >= RECORD_BATCH) flush();
    report.notes++;
    const row = rows.get(id);
    const file = fileById.get(id);
    // Untouched on both sides since the last sync: its note is as engram last rendered it.
    if (dirty !== 'all' && row && file && !dirty.has(id)) continue;
    const path = assigned.get(id) as string;
    let renderCtx = contexts.get(graph);
    if (!renderCtx) contexts.set(graph, (renderCtx = state.renderCtx(graph, nameOf)));
    const s = renderNode(renderCtx, node);
    report.links += countLinks(s);
    if (skip.has(id)) continue;
    const record = (base: string, render: string, at: string) =>
      records.push(() =>
        store.vaults.putNote(
          dir,
          {
            nodeId: id,
            projectId: graph.project.id,
            path: at,
            baseHash: noteHash(base),
            // engram's own rendering holds only scrubbed store text; a human's version is scrubbed here.
            baseText: base === render ? base : scrubText(base),
            renderText: render,
            flag: null,
          },
          ctx.at,
        ),
      );
    const fresh = state.newNotes.get(id);
    if (fresh) {
      if (write(fresh.file.path, fresh.text, fresh.file.hash)) record(fresh.text, s, fresh.file.path);
      continue;
    }
    if (!file) {
      if (write(path, s, null)) {
        record(s, s, path);
        report.created++;
      }
      continue;
    }
    if (!row) {
      // A note of ours the store has no base for (a new database, or a vault copied in): adopt it as it is
      // — unless it is the start of engram's rendering, a write cut short (an export that crashed): then
      // it is written whole.
      if (file.text !== s && s.startsWith(file.text)) {
        if (write(file.path, s, file.hash)) record(s, s, file.path);
        continue;
      }
      const parsed = parseMemoryNote(file.text);
      if (parsed.ok) record(file.text, s, file.path);
      else report.flagged.push({ path: file.path, reason: parsed.error });
      continue;
    }
    if (file.path !== row.path) report.renamed++;
    const vaultChanged = file.hash !== row.baseHash;
    if (!vaultChanged && s === row.renderText) {
      if (file.path !== row.path || row.flag !== null) record(row.baseText, row.renderText, file.path);
      continue;
    }
    const keys = node.kind === 'memory' ? MEMORY_USER_KEYS : DERIVED_NOTE_USER_KEYS;
    const pending = state.merged.get(id);
    let target: string;
    if (pending) target = mergeNote(pending.s0, pending.text, s, keys).text;
    else if (!parseMemoryNote(file.text).ok) {
      // Malformed and unchanged since it was flagged: left alone until the human fixes it.
      continue;
    } else {
      const m = mergeNote(row.renderText, file.text, s, keys);
      if (m.conflicts > 0) {
        report.conflicts += m.conflicts;
        store.vaults.addRevision(
          dir,
          {
            nodeId: id,
            projectId: graph.project.id,
            path: file.path,
            storeText: s,
            vaultText: scrubText(file.text),
          },
          ctx.at,
        );
      }
      target = m.text;
    }
    if (target === file.text) record(file.text, s, file.path);
    else if (write(file.path, target, file.hash)) record(target, s, file.path);
  }
  flush();
  removeGoneNotes(state, located);
  writeIndexes(state, nameOf);
}

/** Notes whose node left the vault's scope (archived, forgotten or pruned in engram). */
function removeGoneNotes(state: SyncState, located: ReadonlyMap<string, Located>): void {
  const { store, dir, report, ctx, rows, fileById, inScope } = state;
  for (const row of rows.values()) {
    if (!inScope.has(row.projectId) || located.has(row.nodeId)) continue;
    const file = fileById.get(row.nodeId);
    const forgotten = store.observations.get(row.nodeId)?.status === 'forgotten';
    if (file && file.hash !== row.baseHash && !forgotten && !state.accepted.has(row.nodeId)) {
      store.vaults.flag(
        dir,
        row.nodeId,
        file.path,
        'its memory was archived in engram; kept because it was edited',
        ctx.at,
      );
      report.flagged.push({
        path: file.path,
        reason: 'its memory was archived in engram; kept because it was edited',
      });
      continue;
    }
    if (file) {
      rmSync(join(dir, file.path), { force: true });
      report.removed++;
    }
    if (forgotten) store.vaults.dropNode(row.nodeId);
    else store.vaults.dropNote(dir, row.nodeId);
  }
}

/** Each project's `index.md` and `graph.json`, written when their text changed. */
function writeIndexes(state: SyncState, nameOf: (id: string) => string | null): void {
  const { store, dir, report } = state;
  for (const project of state.options.projects) {
    const g = state.graphs.get(project.id) as ProjectGraph;
    const folder = state.folders.get(project.id) as string;
    const keyFiles = store.graphFiles
      .keyFiles(project.id, 10)
      .map((f) => f.id)
      .filter((id) => nameOf(id) !== null);
    const ctx = state.renderCtx(g, nameOf);
    const index = renderIndexNote(ctx, keyFiles);
    writeIfChanged(dir, `${folder}/index.md`, index, report);
    writeIfChanged(dir, `${folder}/graph.json`, renderGraphJson(ctx), report);
    report.notes++;
    report.links += countLinks(index);
  }
}

/** The file's text, or null when there is none. */
function readText(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

function writeIfChanged(dir: string, path: string, text: string, report: { written: number }): void {
  if (readText(join(dir, path)) === text) return;
  writeAtomically(join(dir, path), text);
  report.written++;
}
