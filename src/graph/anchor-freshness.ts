/**
 * A cheap look at staleness for the SessionStart hook: what the worker recorded, plus, for the
 * memories about to be shown, whether an anchored file's modification time moved since the worker
 * last checked it (a `git pull` between sessions). Such a memory is shown as stale at once; the worker
 * (which the hook starts) classifies the change properly — a whitespace edit or a move clears it.
 * Only stat calls, no reading or hashing: the hook stays within its time budget.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { Anchor, StaleMark } from '../core/graph.ts';
import type { Project } from '../core/model.ts';
import type { Store } from '../store/store.ts';

type Lookup = (ids: readonly string[]) => ReadonlyMap<string, StaleMark>;
/** What the look-up reads of an anchor. */
type Checked = Pick<Anchor, 'memoryId' | 'path' | 'fileMtimeMs' | 'checkedAt' | 'staleSince' | 'staleReason'>;

/** The lookup over the anchors the store holds for the ids asked about. */
export function createStaleLookup(store: Store, project: Project): Lookup {
  return (ids) => staleAmong(store.anchors.ofMemories(ids), project.root);
}

/**
 * The same lookup over anchors read beforehand (a SessionStart snapshot's, or the live index's in one
 * query): only those of the ids asked about count, in the order the store listed them.
 */
export function staleLookupOver(anchors: readonly Checked[], root: string): Lookup {
  return (ids) => {
    const asked = new Set(ids);
    return staleAmong(
      anchors.filter((a) => asked.has(a.memoryId)),
      root,
    );
  };
}

function staleAmong(anchors: readonly Checked[], root: string): Map<string, StaleMark> {
  const out = new Map<string, StaleMark>();
  const stats = new Map<string, number | null>();
  for (const a of anchors) {
    if (a.staleSince !== null) {
      const known = out.get(a.memoryId);
      if (!known || known.since > a.staleSince)
        out.set(a.memoryId, { since: a.staleSince, reason: a.staleReason ?? '' });
      continue;
    }
    if (out.has(a.memoryId) || a.fileMtimeMs === null) continue;
    if (!stats.has(a.path))
      stats.set(a.path, statSync(join(root, a.path), { throwIfNoEntry: false })?.mtimeMs ?? null);
    const mtime = stats.get(a.path) ?? null;
    if (mtime !== a.fileMtimeMs)
      out.set(a.memoryId, {
        since: mtime ?? a.checkedAt,
        reason: `${a.path} ${mtime === null ? 'is gone' : 'changed'} since it was last checked`,
      });
  }
  return out;
}
