/**
 * The session view: one session as the viewer's sessions page and API show it: its summary, and in time order what Claude was told at
 * each SessionStart and with each prompt (the exact text, each memory with its score and token cost)
 * and the memories each turn left. "Why did Claude see this?" is answered by the context log.
 */
import type { ProjectId } from '../core/ids.ts';
import type { Observation } from '../core/model.ts';
import type { ContextLogRow } from '../store/context-log-repo.ts';
import type { SessionListItem } from '../store/session-list-repo.ts';
import { EngramError } from '../core/errors.ts';
import type { Store } from '../store/store.ts';

export interface MemoryBrief {
  id: string;
  type: string;
  title: string;
  status: string;
}

const briefOf = (o: Observation): MemoryBrief => ({
  id: o.id,
  type: o.type,
  title: o.title,
  status: o.status,
});

/** An injection with each memory's title (null once it was forgotten or is gone). */
export interface InjectionView extends Omit<ContextLogRow, 'items'> {
  items: (ContextLogRow['items'][number] & { memory: MemoryBrief | null })[];
}

export type SessionMoment =
  | { kind: 'start'; at: number; injection: InjectionView }
  | {
      kind: 'turn';
      at: number;
      /** null: memories from before the first recorded prompt. */
      prompt: string | null;
      injection: InjectionView | null;
      memories: MemoryBrief[];
    };

const MEMORY_LIMIT = 2000;

/** Injected memories with their titles. */
export function injectedItems(store: Store, items: ContextLogRow['items']): InjectionView['items'] {
  return items.map((item) => {
    const o = store.observations.get(item.id);
    return { ...item, memory: o && o.status !== 'forgotten' ? briefOf(o) : null };
  });
}

export function injectionView(store: Store, row: ContextLogRow): InjectionView {
  return { ...row, items: injectedItems(store, row.items) };
}

export function sessionDetail(
  store: Store,
  session: SessionListItem,
): { session: SessionListItem; summary: ReturnType<Store['summaries']['get']>; moments: SessionMoment[] } {
  const log = store.contextLog.ofSession(session.id);
  const byEvent = new Map(log.filter((r) => r.eventSeq !== null).map((r) => [r.eventSeq, r]));
  const turns: Extract<SessionMoment, { kind: 'turn' }>[] = store.sessionList.prompts(session.id).map((p) => {
    const injection = p.seq === null ? undefined : byEvent.get(p.seq);
    if (injection) byEvent.delete(p.seq);
    return {
      kind: 'turn',
      at: p.at,
      prompt: p.prompt,
      injection: injection ? injectionView(store, injection) : null,
      memories: [],
    };
  });
  // A prompt's injection whose prompt row is gone (forgotten, or not yet distilled) still shows.
  for (const row of byEvent.values()) {
    if (row.hook === 'UserPromptSubmit')
      turns.push({
        kind: 'turn',
        at: row.at,
        prompt: null,
        injection: injectionView(store, row),
        memories: [],
      });
  }
  turns.sort((a, b) => a.at - b.at);
  const memories = store.memoryList
    .page(
      { sessionId: session.id, statuses: ['active', 'superseded', 'invalidated', 'archived'] },
      MEMORY_LIMIT,
    )
    .map((k) => store.observations.get(k.id))
    .filter((o): o is Observation => o !== null)
    .reverse();
  const lead: Extract<SessionMoment, { kind: 'turn' }> = {
    kind: 'turn',
    at: session.startedAt,
    prompt: null,
    injection: null,
    memories: [],
  };
  // Both oldest first: each memory belongs to the last turn that started at or before it.
  let turn = -1;
  for (const o of memories) {
    while (turn + 1 < turns.length && (turns[turn + 1] as { at: number }).at <= o.createdAt) turn++;
    (turns[turn] ?? lead).memories.push(briefOf(o));
  }
  const starts: SessionMoment[] = log
    .filter((r) => r.hook === 'SessionStart')
    .map((r) => ({ kind: 'start', at: r.at, injection: injectionView(store, r) }));
  const moments = [...starts, ...(lead.memories.length > 0 ? [lead] : []), ...turns].sort(
    (a, b) => a.at - b.at || (a.kind === 'start' ? -1 : 1),
  );
  return { session, summary: store.summaries.get(session.id), moments };
}

export type SessionDetail = ReturnType<typeof sessionDetail>;

const SESSION_ID = /^[\w.:-]{1,200}$/;

/** The session view of a session by id; NOT_FOUND when it names none. */
export function showSession(store: Store, id: string) {
  const session = SESSION_ID.test(id) ? store.sessionList.get(id) : null;
  if (!session) throw new EngramError('NOT_FOUND', `no session with id ${id}`);
  return sessionDetail(store, session);
}

/** A project's latest session summaries, newest first (MCP's get_session_summaries). */
export function recentSummaries(store: Store, projectId: ProjectId, limit: number) {
  return store.summaries.latest(projectId, '', limit);
}
