/**
 * What one vault sync knows while it runs, shared by its phases (`vault-pull`: vault → store,
 * `vault-push`: store → vault): the options and the report, the stored note rows, the notes found on
 * disk (by id and by path), each project's folder and graph (read once), and the link resolvers.
 */
import type { Project } from '../core/model.ts';
import type { MutationContext } from '../store/memory-writer.ts';
import type { Store } from '../store/store.ts';
import type { VaultNote, VaultRecord } from '../store/vault-repo.ts';
import { noteNameOf } from './note-names.ts';
import type { RenderContext } from './note-render.ts';
import { loadProjectGraph, type ProjectGraph } from './project-graph.ts';
import type { TargetResolver } from './vault-ingest.ts';
import type { VaultFile } from './vault-scan.ts';
import { createLinkResolver, type LinkResolver } from './wiki-links.ts';

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

/** Rows for hand-written notes that could not become memories: not tried again until they change. */
export const REJECTED = 'rejected:';

export const LINK_RE = /\[\[[^[\]\n]+\]\]/g;

const OPEN = 91; // [
const CLOSE = 93; // ]
const NEWLINE = 10;

/**
 * How many times LINK_RE matches in `text` (`text.match(LINK_RE)?.length ?? 0`), counted without making
 * the matches: a sync counts the links of every note it renders.
 */
export function countLinks(text: string): number {
  let n = 0;
  let i = text.indexOf('[[');
  while (i !== -1) {
    let j = i + 2;
    for (let c = text.charCodeAt(j); j < text.length; c = text.charCodeAt(++j))
      if (c === OPEN || c === CLOSE || c === NEWLINE) break;
    // At least one character between, then `]]`: a match, and the search goes on after it. Else no
    // match starts at i (a shorter run ends on no `]`): the search goes on from the next character.
    if (j > i + 2 && text.charCodeAt(j) === CLOSE && text.charCodeAt(j + 1) === CLOSE) {
      n++;
      i = text.indexOf('[[', j + 2);
    } else i = text.indexOf('[[', i + 1);
  }
  return n;
}

export interface SyncState {
  store: Store;
  options: VaultSyncOptions;
  dir: string;
  report: VaultSyncReport;
  ctx: MutationContext;
  vault: VaultRecord | null;
  /** The stored note rows of the vault's nodes (rejected hand-written notes apart). */
  rows: Map<string, VaultNote>;
  /** Every note found in the vault. */
  files: VaultFile[];
  /** The found note of each id (a note whose id line was lost included; a copy's id left to the first). */
  fileById: Map<string, VaultFile>;
  /** Each project's folder in the vault. */
  folders: Map<string, string>;
  projectOfPath: (path: string) => string | null;
  inScope: Set<string>;
  /** Notes written by hand, with a type, in a project's folder, not rejected as they are. */
  handWritten: VaultFile[];
  /** Projects' graphs read so far (phase 1 reads one only when one of its notes changed). */
  graphs: Map<string, ProjectGraph>;
  graphOf: (projectId: string) => ProjectGraph | undefined;
  /** A node's note path now: a found file's path, else the stored one. */
  pathOf: (id: string) => string | null;
  /** Resolves a link written in a note at `source` to a node id (made again after `resetTargets`). */
  resolverFor: (source: string) => TargetResolver;
  resetTargets: () => void;
  /** Links in memories' text that resolve to no note are escaped when rendered. */
  linkResolver: LinkResolver;
  renderCtx: (g: ProjectGraph, known: (id: string) => string | null) => RenderContext;
  /** Notes left alone this sync (flagged). */
  skip: Set<string>;
  /** Memory notes merged in phase 1: the merged text and engram's rendering it was merged with. */
  merged: Map<string, { text: string; s0: string }>;
  /**
   * Memory notes whose every human change is now in the store (ingested whole, no conflict): if their
   * memory leaves the vault (the note set it to archived), removing the note loses nothing.
   */
  accepted: Set<string>;
  /** Hand-written notes that became memories: the note as it was read and its text with an id line. */
  newNotes: Map<string, { file: VaultFile; text: string }>;
}

export function newReport(dir: string): VaultSyncReport {
  return {
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
}

/** The parts of the state made from what was found: lookups, lazy graphs, resolvers. */
export function syncState(
  base: Omit<
    SyncState,
    | 'graphs'
    | 'graphOf'
    | 'pathOf'
    | 'resolverFor'
    | 'resetTargets'
    | 'linkResolver'
    | 'renderCtx'
    | 'skip'
    | 'merged'
    | 'accepted'
    | 'newNotes'
  >,
): SyncState {
  const { store, options, files, fileById, rows } = base;
  const graphs = new Map<string, ProjectGraph>();
  const projectById = new Map(options.projects.map((p) => [p.id as string, p]));
  let resolveTargets: ((target: string, source: string) => string | null) | null = null;
  const state: SyncState = {
    ...base,
    graphs,
    graphOf: (projectId) => {
      const project = projectById.get(projectId);
      if (!project) return undefined;
      let g = graphs.get(projectId);
      if (!g) graphs.set(projectId, (g = loadProjectGraph(store, project)));
      return g;
    },
    pathOf: (id) => fileById.get(id)?.path ?? rows.get(id)?.path ?? null,
    resolverFor: (source) => {
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
    },
    resetTargets: () => {
      resolveTargets = null;
    },
    linkResolver: createLinkResolver(files.map((f) => f.path)),
    renderCtx: (g, known) => ({
      graph: g,
      projectName: g.project.name,
      nameOf: known,
      linkResolves: (target) => state.linkResolver.resolve(target, '') !== null,
    }),
    skip: new Set(),
    merged: new Map(),
    accepted: new Set(),
    newNotes: new Map(),
  };
  return state;
}

/** A node's note name now (for links rendered while reading the vault back). */
export const currentNameOf =
  (state: SyncState) =>
  (id: string): string | null => {
    const p = state.pathOf(id);
    return p === null ? null : noteNameOf(p);
  };
