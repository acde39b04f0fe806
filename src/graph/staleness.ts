/**
 * Re-checking a project's anchors against its files: a file whose content moved, or changed only in
 * whitespace or outside the anchored part, takes the anchor along silently; an anchored part that
 * changed, or a deleted file, makes the memory stale (kept, shown "stale since", ranked down). A file
 * put back as it was makes it fresh again. Staleness transitions are logged through the mutation path.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { Anchor } from '../core/graph.ts';
import type { ChangeOrigin, Project } from '../core/model.ts';
import type { Store } from '../store/store.ts';
import { classifyAnchor, type AnchorUpdate } from './anchor.ts';
import { createMoveFinder } from './find-moved.ts';
import { readIfPresent } from './read-if-present.ts';

export interface StalenessReport {
  checked: number;
  /** Anchors that followed their file silently. */
  followed: { memoryId: string; path: string; reason: AnchorUpdate; newPath: string }[];
  /** Memories that became stale in this check. */
  becameStale: { memoryId: string; reason: string }[];
  /** Memories that are fresh again (their anchored content came back). */
  becameFresh: string[];
}

export interface StalenessOptions {
  now: number;
  origin: ChangeOrigin;
  /** Hash every anchored file; otherwise only files whose modification time differs from the last check. */
  full: boolean;
  /** Only anchors on these paths (e.g. what a turn modified); all when absent. */
  paths?: ReadonlySet<string>;
  /** Leave these anchors alone (just made). */
  skipRowids?: ReadonlySet<number>;
}

function mtimeOf(path: string): number | null {
  return statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? null;
}

/** Re-check anchors of a project; file reads happen before the one write transaction. */
export function refreshAnchors(store: Store, project: Project, options: StalenessOptions): StalenessReport {
  const report: StalenessReport = { checked: 0, followed: [], becameStale: [], becameFresh: [] };
  const anchors = store.anchors
    .ofProject(project.id)
    .filter((a) => !options.skipRowids?.has(a.rowid) && (!options.paths || options.paths.has(a.path)));
  if (anchors.length === 0) return report;
  const byPath = new Map<string, Anchor[]>();
  for (const a of anchors) byPath.set(a.path, [...(byPath.get(a.path) ?? []), a]);
  const moves = createMoveFinder(project.root);
  type Step =
    | { kind: 'checked'; a: Anchor; mtime: number | null }
    | { kind: 'follow'; a: Anchor; next: Anchor; mtime: number | null; reason: AnchorUpdate }
    | { kind: 'stale'; a: Anchor; detail: string; mtime: number | null }
    | { kind: 'fresh'; a: Anchor; mtime: number | null };
  const steps: Step[] = [];
  for (const [path, list] of byPath) {
    const full = join(project.root, path);
    const mtime = mtimeOf(full);
    // Without `full`, only files whose modification time moved since the last check (or that are gone).
    const todo = options.full
      ? list
      : list.filter((a) => (mtime === null ? a.staleSince === null : mtime !== a.fileMtimeMs));
    if (todo.length === 0) continue;
    const content = mtime === null ? null : readIfPresent(full);
    for (const a of todo) {
      report.checked++;
      const verdict = classifyAnchor(a, content ? { path, content } : null, moves);
      if (verdict.outcome === 'unchanged')
        steps.push(a.staleSince === null ? { kind: 'checked', a, mtime } : { kind: 'fresh', a, mtime });
      else if (verdict.outcome === 'updated') {
        const newMtime =
          verdict.reason === 'moved' ? mtimeOf(join(project.root, verdict.anchor.path)) : mtime;
        steps.push({
          kind: 'follow',
          a,
          next: { ...a, ...verdict.anchor },
          mtime: newMtime,
          reason: verdict.reason,
        });
      } else if (a.staleSince === null) steps.push({ kind: 'stale', a, detail: verdict.detail, mtime });
      else steps.push({ kind: 'checked', a, mtime }); // still stale: remember the stat only
    }
  }
  if (steps.length === 0) return report;
  const ctx = { origin: options.origin, at: options.now };
  store.transaction(() => {
    for (const s of steps) {
      if (s.kind === 'checked') store.anchors.checked(s.a.rowid, s.mtime, options.now);
      else if (s.kind === 'follow') {
        store.anchors.follow(s.a.rowid, s.next, s.mtime, options.now);
        report.followed.push({
          memoryId: s.a.memoryId,
          path: s.a.path,
          reason: s.reason,
          newPath: s.next.path,
        });
        if (s.a.staleSince !== null) {
          store.anchors.clearStale(s.a.rowid, options.now);
          if (!store.anchors.isStale(s.a.memoryId)) {
            store.memory.markStale(s.a.memoryId, false, ctx);
            report.becameFresh.push(s.a.memoryId);
          }
        }
      } else if (s.kind === 'fresh') {
        store.anchors.clearStale(s.a.rowid, options.now);
        store.anchors.checked(s.a.rowid, s.mtime, options.now);
        if (!store.anchors.isStale(s.a.memoryId)) {
          store.memory.markStale(s.a.memoryId, false, ctx);
          report.becameFresh.push(s.a.memoryId);
        }
      } else {
        const wasStale = store.anchors.isStale(s.a.memoryId);
        store.anchors.markStale(s.a.rowid, options.now, s.detail, options.now);
        store.anchors.checked(s.a.rowid, s.mtime, options.now);
        if (!wasStale) {
          store.memory.markStale(s.a.memoryId, true, ctx);
          report.becameStale.push({ memoryId: s.a.memoryId, reason: s.detail });
        }
      }
    }
  });
  return report;
}
