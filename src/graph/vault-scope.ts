/**
 * Which projects a vault holds: every project with memories, or the ones chosen at export.
 */
import type { ProjectId } from '../core/ids.ts';
import type { Project } from '../core/model.ts';
import type { Store } from '../store/store.ts';
import type { VaultScope } from '../store/vault-repo.ts';

export function projectsOfScope(store: Store, scope: VaultScope): Project[] {
  const ids = scope === 'all' ? store.graph.projectIds() : (scope as ProjectId[]);
  return ids.map((id) => store.sessions.project(id)).filter((p): p is Project => p !== null);
}
