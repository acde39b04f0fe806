/**
 * The file nodes of each project as the graph step's writes leave them — which exist, which are marked
 * deleted —, read from the store once per project at the first question (inside the step's
 * transaction) and kept current by those writes, so a write that would change nothing is not made:
 * saving a missing file whose node is there already, marking present a file that is not deleted.
 */
import type { Store } from '../store/store.ts';

export interface KnownFiles {
  /** Whether the node is marked deleted; undefined when there is none. */
  deleted(projectId: string, id: string): boolean | undefined;
  /** The node is there now, marked deleted or not. */
  set(projectId: string, id: string, deleted: boolean): void;
  /** The project's nodes changed in a way not followed here: read them again at the next question. */
  changed(projectId: string): void;
}

export function knownFiles(store: Store): KnownFiles {
  const known = new Map<string, Map<string, boolean>>();
  const of = (projectId: string) => {
    let files = known.get(projectId);
    if (!files) known.set(projectId, (files = store.graphFiles.deletedMarks(projectId)));
    return files;
  };
  return {
    deleted: (projectId, id) => of(projectId).get(id),
    set: (projectId, id, deleted) => void of(projectId).set(id, deleted),
    changed: (projectId) => void known.delete(projectId),
  };
}
