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
 */
import { rmSync } from 'node:fs';
import { join, posix } from 'node:path';
import { isEngramError } from '../core/errors.ts';
import type { ProjectId } from '../core/ids.ts';
import type { Project } from '../core/model.ts';
import { scrubText } from '../core/scrub.ts';
import type { MutationContext } from '../store/memory-writer.ts';
import type { Store } from '../store/store.ts';
import { insertFrontmatterLine } from './frontmatter.ts';
import { mergeNote } from './note-merge.ts';
import { createNamer, noteNameOf, preferredName, safeName, typeFolder } from './note-names.ts';
import { parseMemoryNote, type NoteFields } from './note-parse.ts';
import { DERIVED_NOTE_USER_KEYS, MEMORY_USER_KEYS, renderNode, type RenderContext } from './note-render.ts';
import { loadProjectGraph, type GraphNode, type ProjectGraph } from './project-graph.ts';
import { writeAtomically } from './vault-files.ts';
import { ingestNoteEdit, isMemoryType, memoryFromNote, type TargetResolver } from './vault-ingest.ts';
import { renderGraphJson, renderIndexNote } from './vault-index.ts';
import { lockVault } from './vault-lock.ts';
import { noteHash, readVaultFile, scanVault, type VaultFile } from './vault-scan.ts';
import { createLinkResolver } from './wiki-links.ts';
import { sessionNodeId } from './node-ids.ts';

export interface VaultSyncOptions {
  /** The vault's folder (absolute). */
  dir: string;
  /** The projects the vault holds. */
  projects: readonly Project[];
  now: () => number;
  /** Render and compare everything even when neither side changed since the last sync. */
  full?: boolean;
  /** Called just before a note is written (tests use it to edit the note concurrently). */
  beforeWrite?: (path: string) => void;
}

export interface VaultSyncReport {
  dir: string;
  /** Neither side changed since the last sync: nothing was rendered or written. */
  quiet: boolean;
  notes: number;
  links: number;
  written: number;
  created: number;
  ingested: number;
  handWritten: number;
  archived: number;
  removed: number;
  renamed: number;
  conflicts: number;
  /** Notes edited while this sync ran: left for the next one. */
  busy: number;
  flagged: { path: string; reason: string }[];
  notices: { path: string; message: string }[];
  ms: number;
}

interface Located {
  node: GraphNode;
  project: Project;
  graph: ProjectGraph;
}

const LINK_RE = /\[\[[^[\]\n]+\]\]/g;

/** Rows for hand-written notes that could not become memories: not tried again until they change. */
const REJECTED = 'rejected:';

/** Human-changed fields of a note: the merged value where the vault differs from the base. */
function humanFields(base: NoteFields, vault: NoteFields, merged: NoteFields): NoteFields {
  const pick = <K extends keyof NoteFields>(k: K): NoteFields[K] =>
    JSON.stringify(vault[k]) !== JSON.stringify(base[k]) ? merged[k] : base[k];
  return {
    ...base,
    type: pick('type'),
    title: pick('title'),
    subtitle: pick('subtitle'),
    status: pick('status'),
    tags: pick('tags'),
    pinned: pick('pinned'),
    narrative: pick('narrative'),
    facts: pick('facts'),
    links: pick('links'),
    textLinks: pick('textLinks'),
  };
}

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
  const report: VaultSyncReport = {
    dir,
    quiet: false,
    notes: 0,
    links: 0,
    written: 0,
    created: 0,
    ingested: 0,
    handWritten: 0,
    archived: 0,
    removed: 0,
    renamed: 0,
    conflicts: 0,
    busy: 0,
    flagged: [],
    notices: [],
    ms: 0,
  };
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
  for (const r of rows.values()) {
    const f = byPath.get(r.path);
    if (f && f.id === null && !files.some((other) => other.id === r.nodeId))
      idLost.set(f.path, { ...f, id: r.nodeId });
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
  const ctx: MutationContext = { origin: 'vault', at: options.now() };
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
  const skip = new Set<string>();
  const merged = new Map<string, { text: string; s0: string }>();
  // Memory notes whose every human change is now in the store (ingested whole, no conflict): if their
  // memory leaves the vault (the note set it to archived), removing the note loses nothing.
  const accepted = new Set<string>();
  // Phase 1 reads a project's graph only when one of its notes changed in the vault.
  const graphs = new Map<string, ProjectGraph>();
  const projectById = new Map(options.projects.map((p) => [p.id as string, p]));
  const graphOf = (projectId: string): ProjectGraph | undefined => {
    const project = projectById.get(projectId);
    if (!project) return undefined;
    let g = graphs.get(projectId);
    if (!g) graphs.set(projectId, (g = loadProjectGraph(store, project)));
    return g;
  };

  // Paths now (for names and link resolution): a found file's path, else the stored one.
  const pathOf = (id: string): string | null => fileById.get(id)?.path ?? rows.get(id)?.path ?? null;
  let resolveTargets: ((target: string, source: string) => string | null) | null = null;
  const resolverFor = (source: string): TargetResolver => {
    if (resolveTargets === null) {
      const resolver = createLinkResolver(files.map((f) => f.path));
      const idByPath = new Map<string, string>();
      for (const [id, f] of fileById) idByPath.set(f.path, id);
      for (const r of rows.values()) if (!idByPath.has(r.path)) idByPath.set(r.path, r.nodeId);
      resolveTargets = (target, from) => {
        const path = resolver.resolve(target, from);
        if (path !== null) return idByPath.get(path) ?? null;
        return /^obs_[0-9a-z]{20}$/.test(target) ? target : null;
      };
    }
    const resolve = resolveTargets;
    return (target) => resolve(target, source);
  };
  // Links written in memories' text that resolve to no note are escaped when rendered.
  let linkResolver = createLinkResolver(files.map((f) => f.path));
  const renderCtx = (g: ProjectGraph, known: (id: string) => string | null): RenderContext => ({
    graph: g,
    projectName: g.project.name,
    nameOf: known,
    linkResolves: (target) => linkResolver.resolve(target, '') !== null,
  });
  const currentName = (id: string) => {
    const p = pathOf(id);
    return p === null ? null : noteNameOf(p);
  };

  // Phase 1: vault → store.
  for (const row of rows.values()) {
    if (!inScope.has(row.projectId)) continue;
    const file = fileById.get(row.nodeId);
    if (file && file.hash === row.baseHash) continue;
    const g = graphOf(row.projectId);
    const node = g?.nodes.get(row.nodeId);
    if (!file) {
      if (node?.kind === 'memory' && node.memory.status !== 'archived') {
        store.memory.archive(node.id, 'its note was deleted in the vault', ctx);
        report.archived++;
      }
      if (node?.kind === 'memory' || !node) store.vaults.dropNote(dir, row.nodeId);
      continue;
    }
    if (file.hash === row.baseHash || !g || !node) continue;
    const parsed = parseMemoryNote(file.text);
    if (!parsed.ok) {
      skip.add(row.nodeId);
      report.flagged.push({ path: file.path, reason: parsed.error });
      store.vaults.flag(dir, row.nodeId, file.path, parsed.error, ctx.at);
      continue;
    }
    const s0 = renderNode(renderCtx(g, currentName), node);
    const keys = node.kind === 'memory' ? MEMORY_USER_KEYS : DERIVED_NOTE_USER_KEYS;
    const m = mergeNote(row.renderText, file.text, s0, keys);
    if (m.conflicts > 0) {
      report.conflicts += m.conflicts;
      store.vaults.addRevision(
        dir,
        {
          nodeId: row.nodeId,
          projectId: row.projectId,
          path: file.path,
          storeText: s0,
          vaultText: scrubText(file.text),
        },
        ctx.at,
      );
    }
    merged.set(row.nodeId, { text: m.text, s0 });
    if (node.kind !== 'memory') continue;
    const base = parseMemoryNote(row.baseText);
    const after = parseMemoryNote(m.text);
    if (!base.ok || !after.ok) continue;
    try {
      const r = ingestNoteEdit(
        store,
        node.memory,
        base.fields,
        humanFields(base.fields, parsed.fields, after.fields),
        resolverFor(file.path),
        ctx,
      );
      if (r.edited) report.ingested++;
      if (m.conflicts === 0) accepted.add(row.nodeId);
      for (const message of r.notices) report.notices.push({ path: file.path, message });
    } catch (error) {
      if (!isEngramError(error, 'INPUT_INVALID', 'NOT_FOUND')) throw error;
      skip.add(row.nodeId);
      report.flagged.push({ path: file.path, reason: error.message });
      store.vaults.flag(dir, row.nodeId, file.path, error.message, ctx.at);
    }
  }
  const newNotes = new Map<string, { file: VaultFile; text: string }>();
  const reject = (f: VaultFile, reason: string) => {
    report.flagged.push({ path: f.path, reason });
    store.vaults.putNote(
      dir,
      {
        nodeId: `${REJECTED}${f.path}`,
        projectId: projectOfPath(f.path) as string,
        path: f.path,
        baseHash: f.hash,
        baseText: '',
        renderText: '',
        flag: reason,
      },
      ctx.at,
    );
  };
  for (const f of handWritten) {
    const projectId = projectOfPath(f.path) as string;
    const parsed = parseMemoryNote(f.text);
    if (!parsed.ok) {
      reject(f, parsed.error);
      continue;
    }
    if (!isMemoryType(parsed.fields.type)) continue; // a note of the human's own kind: not engram's
    const made = memoryFromNote(
      store,
      projectId as ProjectId,
      f.path,
      parsed.fields,
      noteNameOf(f.path),
      ctx,
    );
    if (!made.ok) {
      reject(f, made.reason);
      continue;
    }
    store.vaults.dropNote(dir, `${REJECTED}${f.path}`);
    report.handWritten++;
    const text = insertFrontmatterLine(f.text, 'id', made.id);
    newNotes.set(made.id, { file: f, text });
    fileById.set(made.id, { ...f, id: made.id });
    resolveTargets = null;
    const empty: NoteFields = {
      ...parsed.fields,
      links: { supersedes: [], related: [], depends_on: [] },
      textLinks: [],
    };
    const memory = store.observations.get(made.id);
    if (memory) ingestNoteEdit(store, memory, empty, parsed.fields, resolverFor(f.path), ctx);
  }

  // Phase 2: store → vault.
  const taken = files.map((f) => noteNameOf(f.path));
  const namer = createNamer(taken);
  const located = new Map<string, Located>();
  for (const project of options.projects) {
    const g = loadProjectGraph(store, project);
    graphs.set(project.id, g);
    for (const node of g.nodes.values()) {
      if (node.kind === 'file' && !(g.in.get(node.id) ?? []).some((e) => e.kind === 'touches')) continue;
      located.set(node.id, { node, project, graph: g });
    }
  }
  const assigned = new Map<string, string>();
  for (const [id, { node, project }] of located) {
    const existing = pathOf(id);
    if (existing !== null) {
      assigned.set(id, existing);
      continue;
    }
    const hint = node.kind === 'file' ? posix.dirname(node.title) : undefined;
    const name = namer.name(preferredName(node.kind, node.title, id), id, hint === '.' ? undefined : hint);
    assigned.set(id, `${folders.get(project.id)}/${typeFolder(node.type)}/${name}.md`);
  }
  linkResolver = createLinkResolver([...new Set([...files.map((f) => f.path), ...assigned.values()])]);
  const names = new Map<string, string>();
  const nameOf = (id: string) => {
    let name = names.get(id);
    if (name === undefined) {
      const p = assigned.get(id);
      if (p === undefined) return null;
      names.set(id, (name = noteNameOf(p)));
    }
    return name;
  };
  // Folders this sync made or wrote into (a mkdir per folder, not per note).
  const madeFolders = new Set<string>();
  const write = (path: string, text: string, expectedHash: string | null): boolean => {
    options.beforeWrite?.(path);
    const now = readVaultFile(dir, path);
    if ((now?.hash ?? null) !== expectedHash) {
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
  const dirty = dirtyNodes(store, {
    since: options.full ? null : (vault?.cursor ?? null),
    rows,
    files: fileById,
  });
  for (const [id, { node, graph }] of located) {
    if (records.length >= 500) flush();
    report.notes++;
    const row = rows.get(id);
    const file = fileById.get(id);
    // Untouched on both sides since the last sync: its note is as engram last rendered it.
    if (dirty !== 'all' && row && file && !dirty.has(id)) continue;
    const path = assigned.get(id) as string;
    const s = renderNode(renderCtx(graph, nameOf), node);
    report.links += s.match(LINK_RE)?.length ?? 0;
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
    const fresh = newNotes.get(id);
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
      // A note of ours the store has no base for (a new database, or a vault copied in): adopt it as it is.
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
    const pending = merged.get(id);
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
  // Notes whose node left the vault's scope (archived, forgotten or pruned in engram).
  for (const row of rows.values()) {
    if (!inScope.has(row.projectId) || located.has(row.nodeId)) continue;
    const file = fileById.get(row.nodeId);
    const forgotten = store.observations.get(row.nodeId)?.status === 'forgotten';
    if (file && file.hash !== row.baseHash && !forgotten && !accepted.has(row.nodeId)) {
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
  for (const project of options.projects) {
    const g = graphs.get(project.id) as ProjectGraph;
    const folder = folders.get(project.id) as string;
    const keyFiles = store.graphFiles
      .keyFiles(project.id, 10)
      .map((f) => f.id)
      .filter((id) => nameOf(id) !== null);
    const index = renderIndexNote(renderCtx(g, nameOf), keyFiles);
    writeIfChanged(dir, `${folder}/index.md`, index, report);
    writeIfChanged(dir, `${folder}/graph.json`, renderGraphJson(renderCtx(g, nameOf)), report);
    report.notes++;
    report.links += index.match(LINK_RE)?.length ?? 0;
  }
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

/** Most changes read to find what to render again; past it, everything is rendered. */
const DIRTY_SCAN_LIMIT = 20_000;

/**
 * The nodes whose note may differ from what engram last wrote: every node the change log touched
 * since the vault's cursor (memories, both ends of links, sessions of summaries) and their neighbours
 * (whose backlinks, files and session lists name them); every note changed, moved or gone in the vault
 * and, for a moved one, its neighbours (their links name it). 'all' without a cursor or after many
 * changes.
 */
function dirtyNodes(
  store: Store,
  input: {
    since: number | null;
    rows: ReadonlyMap<string, { path: string; baseHash: string }>;
    files: ReadonlyMap<string, VaultFile>;
  },
): Set<string> | 'all' {
  if (input.since === null) return 'all';
  const changes = store.changes.since(input.since, DIRTY_SCAN_LIMIT + 1);
  if (changes.length > DIRTY_SCAN_LIMIT) return 'all';
  const dirty = new Set<string>();
  const withNeighbours = (id: string) => {
    dirty.add(id);
    const around = store.graph.around(id);
    for (const e of around.out) dirty.add(e.to);
    for (const e of around.in) dirty.add(e.from);
  };
  for (const c of changes) {
    if (c.entity === 'memory') withNeighbours(c.entityId);
    else if (c.entity === 'summary') withNeighbours(sessionNodeId(c.entityId));
    else for (const id of c.entityId.split(' ').filter((_, i) => i !== 1)) withNeighbours(id);
  }
  for (const [id, row] of input.rows) {
    const file = input.files.get(id);
    if (!file || file.hash !== row.baseHash) dirty.add(id);
    if (file && file.path !== row.path) withNeighbours(id);
  }
  return dirty;
}

function writeIfChanged(dir: string, path: string, text: string, report: VaultSyncReport): void {
  const now = readVaultFile(dir, path);
  if (now?.text === text) return;
  writeAtomically(join(dir, path), text);
  report.written++;
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
