/**
 * The memory graph's shared types: edge kinds, file nodes, anchors and staleness. Pure types (the
 * store keeps them, the graph layer computes them, recall shows them).
 */

/**
 * Typed edges. Between memories: `supersedes`, `related`, `depends_on`, `links_to` (a wiki-link written
 * in a memory's text); `touches` (memory or session → file); `part_of` (memory → session or task).
 */
export const EDGE_KINDS = ['supersedes', 'related', 'depends_on', 'links_to', 'touches', 'part_of'] as const;
export type EdgeKind = (typeof EDGE_KINDS)[number];

/** The edge kinds a human may write in a note as inline fields (`related:: [[…]]`). */
export const EDITABLE_EDGE_KINDS = ['supersedes', 'related', 'depends_on'] as const;
export type EditableEdgeKind = (typeof EDITABLE_EDGE_KINDS)[number];

export interface Edge {
  from: string;
  kind: EdgeKind;
  to: string;
}

/** The fact a memory of work states the project files (or folders) it removed with. */
export const REMOVED_FACT = 'removed: ';

/** The paths a `removed: a, b (+N more)` fact names (relative to the project root). */
export function removedPaths(facts: readonly string[]): string[] {
  return facts
    .filter((f) => f.startsWith(REMOVED_FACT))
    .flatMap((f) =>
      f
        .slice(REMOVED_FACT.length)
        .replace(/ \(\+\d+ more\)$/, '')
        .split(', '),
    )
    .map((p) => p.trim())
    .filter((p) => p !== '');
}

/** A file a project's memories touch. */
export interface FileNode {
  id: string;
  projectId: string;
  path: string;
  language: string;
  lines: number;
  size: number;
  blobHash: string;
  /** A summary was made (the file is at least graph.fileSummaryMinLines long). */
  summarized: boolean;
  /** What the file is for, from its header comment (may be empty). */
  purpose: string;
  /** What it defines or exports. */
  symbols: string[];
  /** Personalised PageRank among the project's files. */
  rank: number;
  createdAt: number;
  updatedAt: number;
  /** When the file was found gone (it stays a node while memories touch it). */
  deletedAt: number | null;
}

/** The part of a file an anchor pins: the whole file, a run of lines, or a named definition. */
export type AnchorScope =
  | { kind: 'file' }
  | { kind: 'lines'; start: number; end: number }
  | { kind: 'symbol'; name: string; start: number; end: number };

/** An anchor's content: enough to recognise the file and the anchored part again. */
export interface AnchorState {
  path: string;
  blobHash: string;
  size: number;
  scope: AnchorScope;
  /** Whitespace-blind hash of the anchored part (the whole file for `file` scope). */
  partHash: string;
}

/** A stored anchor of one memory. */
export interface Anchor extends AnchorState {
  rowid: number;
  memoryId: string;
  projectId: string;
  /** The path when the anchor was made (the anchor's identity; `path` follows moves). */
  firstPath: string;
  /** The file's modification time at the last check (a cheap "changed since?" for the hook). */
  fileMtimeMs: number | null;
  createdAt: number;
  checkedAt: number;
  staleSince: number | null;
  staleReason: string | null;
}

/** A memory whose code changed under it: kept, shown as stale, ranked down, never current truth. */
export interface StaleMark {
  since: number;
  reason: string;
}
