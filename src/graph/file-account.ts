/**
 * The files of a project that is not on this machine (a backfill of another's transcripts): what its
 * memories say happened to them is all that is known. A file a memory changed after its removal is
 * there again; what a memory says it removed (`removed: …`, a file or a folder) is gone, so it is no
 * longer a key file.
 */
import { removedPaths } from '../core/graph.ts';
import type { Observation } from '../core/model.ts';
import type { Store } from '../store/store.ts';
import type { KnownFiles } from './known-files.ts';

export function followAccountOfFiles(
  store: Store,
  projectId: string,
  o: Pick<Observation, 'createdAt' | 'facts'>,
  read: readonly { id: string; path: string }[],
  modifies: (path: string) => boolean,
  known: KnownFiles,
): void {
  // Only a file marked deleted can be made present again: for the rest the write would change nothing.
  for (const f of read)
    if (
      modifies(f.path) &&
      known.deleted(projectId, f.id) === true &&
      store.graphFiles.markPresent(f.id, o.createdAt)
    )
      known.set(projectId, f.id, false);
  for (const p of removedPaths(o.facts))
    if (store.graphFiles.markRemoved(projectId, p, o.createdAt) > 0) known.changed(projectId);
}
