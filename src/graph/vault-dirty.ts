/**
 * Which notes of a vault may differ from what engram last wrote, so a sync renders only those again.
 */
import type { Store } from '../store/store.ts';
import { sessionNodeId } from './node-ids.ts';
import type { VaultFile } from './vault-scan.ts';

/** Most changes read to find what to render again; past it, everything is rendered. */
const DIRTY_SCAN_LIMIT = 20_000;

/**
 * The nodes whose note may differ from what engram last wrote: every node the change log touched
 * since the vault's cursor (memories, both ends of links, sessions of summaries) and their neighbours
 * (whose backlinks, files and session lists name them); every note changed, moved or gone in the vault
 * and, for a moved one, its neighbours (their links name it). 'all' without a cursor or after many
 * changes.
 */
export function dirtyNodes(
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
