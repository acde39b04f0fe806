/**
 * The memory view: one memory as every surface shows it — the memory, the host its session ran in,
 * its project and session, whether it is stale (its code changed), its links and backlinks in the
 * memory graph, its earlier versions and change history, the memory that replaced it, the sessions it
 * was injected into, and a forget pending in the viewer (with its undo deadline). `engram show`, MCP's
 * get_observations and the viewer's memory page and API all read it here.
 */
import { EngramError } from '../core/errors.ts';
import type { Observation } from '../core/model.ts';
import type { Store } from '../store/store.ts';
import { graphNode } from './neighbourhood.ts';

const brief = (o: Observation) => ({ id: o.id, type: o.type, title: o.title, status: o.status });

/** The view of a memory that exists. */
/** The host a memory said over MCP names in its provenance (`host:codex`), or null. */
const hostOfProvenance = (provenance: readonly string[]): string | null =>
  provenance.find((p) => p.startsWith('host:'))?.slice('host:'.length) ?? null;

export function viewOf(store: Store, o: Observation) {
  const supersededBy = /^superseded by (obs_[0-9a-z]{20})$/.exec(o.statusReason ?? '')?.[1] ?? null;
  const related = (id: string | null) => {
    const other = id ? store.observations.get(id) : null;
    return other ? brief(other) : null;
  };
  const around = store.graph.around(o.id);
  const link = (kind: string, id: string) => {
    const node = graphNode(store, id);
    return node ? { kind, node } : null;
  };
  const present = <T>(x: T | null): x is T => x !== null;
  const pending = store.pendingForgets.get(o.id);
  const session = o.sessionId ? store.sessionList.get(o.sessionId) : null;
  return {
    memory: o,
    // The host whose session it came from (claude-code, codex, …), or that the agent said it over MCP from.
    host: o.sessionId ? (store.sessions.get(o.sessionId)?.host ?? null) : hostOfProvenance(o.provenance),
    project: store.sessions.project(o.projectId),
    session,
    stale: store.anchors.staleOf([o.id]).get(o.id) ?? null,
    links: around.out.map((e) => link(e.kind, e.to)).filter(present),
    backlinks: around.in.map((e) => link(e.kind, e.from)).filter(present),
    supersededBy: related(supersededBy),
    versions: store.observations.history(o.id),
    changes: store.changes.ofEntity(o.id).slice(-50),
    injectedInto: store.injections.sessionsTold(o.id, 20),
    pendingForget: pending ? { batch: pending.batch, dueAt: pending.dueAt } : null,
  };
}

export type MemoryView = ReturnType<typeof viewOf>;

/** The show verb: the views of memories by id, and the ids that name none. */
export function show(store: Store, ids: readonly string[]): { found: MemoryView[]; missing: string[] } {
  const found: MemoryView[] = [];
  const missing: string[] = [];
  for (const id of ids) {
    const o = store.observations.get(id);
    if (o) found.push(viewOf(store, o));
    else missing.push(id);
  }
  return { found, missing };
}

/** One memory's view; NOT_FOUND when the id names none. */
export function showOne(store: Store, id: string): MemoryView {
  const o = store.observations.get(id);
  if (!o) throw new EngramError('NOT_FOUND', `no memory with id ${id}`);
  return viewOf(store, o);
}
