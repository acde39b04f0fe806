/**
 * One memory as the memory page and GET /api/memories/:id show it: the memory, its project and
 * session, whether it is stale (its code changed), its links and backlinks in the memory graph, its
 * earlier versions and change history, the memory that replaced it, the sessions it was injected into,
 * and a pending forget (with its undo deadline).
 */
import type { Observation } from '../../core/model.ts';
import type { RouteDeps } from './deps.ts';
import { memoryJson } from '../memory-json.ts';
import { graphNode } from './neighbourhood.ts';

const brief = (o: Observation) => ({ id: o.id, type: o.type, title: o.title, status: o.status });

export function memoryDetail(deps: Pick<RouteDeps, 'store' | 'forgetting'>, o: Observation) {
  const { store } = deps;
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
  return {
    memory: memoryJson(o),
    project: store.sessions.project(o.projectId),
    session: o.sessionId ? store.sessionList.get(o.sessionId) : null,
    stale: store.anchors.staleOf([o.id]).get(o.id) ?? null,
    links: around.out.map((e) => link(e.kind, e.to)).filter(present),
    backlinks: around.in.map((e) => link(e.kind, e.from)).filter(present),
    supersededBy: related(supersededBy),
    versions: store.observations.history(o.id),
    changes: store.changes.ofEntity(o.id).slice(-50),
    injectedInto: store.injections.sessionsTold(o.id, 20),
    pendingForget: deps.forgetting.pendingOf(o.id),
  };
}

export type MemoryDetail = ReturnType<typeof memoryDetail>;
