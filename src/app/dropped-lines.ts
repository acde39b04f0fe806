/**
 * What the injection gate kept out of the agent's context lately (the context log's `dropped`), each
 * line with what became of the memory it showed: quarantined now and awaiting a person, approved
 * since, judged by an earlier screen version and not yet again by the worker, gone. `engram status`,
 * MCP's status tool and the viewer's health API show it through the health model.
 */
import { SCREEN_VERSION } from '../core/instruction-screen.ts';
import type { DroppedLine } from '../core/model.ts';
import type { Store } from '../store/store.ts';

/** Where the memory a dropped line showed stands now. */
export type DroppedMemoryState =
  /** Held for review: a person approves or rejects it (`engram review`). */
  | 'quarantined'
  /** A person approved it since: injected again. */
  | 'approved'
  /** Judged clear by an earlier screen version: the worker judges it again at its next round. */
  | 'rescreen'
  /** Its own text passes the current screen; the line it was shown in did not. */
  | 'clear'
  /** Invalidated, archived, superseded or forgotten since (or never stored here). */
  | 'gone';

export interface DroppedView extends DroppedLine {
  /** The memory as it is now (null: a line of a session summary or of the team's state). */
  memory: { title: string; state: DroppedMemoryState } | null;
}

export interface DroppedCall {
  sessionId: string;
  hook: string;
  at: number;
  dropped: DroppedView[];
}

function stateOf(store: Store, id: string): DroppedView['memory'] {
  const o = store.observations.get(id);
  if (!o || o.status !== 'active') return { title: o?.title ?? '', state: 'gone' };
  const state: DroppedMemoryState =
    o.review === 'held'
      ? 'quarantined'
      : o.review === 'approved'
        ? 'approved'
        : o.screenVersion < SCREEN_VERSION
          ? 'rescreen'
          : 'clear';
  return { title: o.title, state };
}

/** The hook calls since `since` that dropped lines, newest first (at most `limit`). */
export function droppedLines(store: Store, since: number, limit = 20): DroppedCall[] {
  return store.contextLog.drops(since, limit).map((call) => ({
    ...call,
    dropped: call.dropped.map((line) => ({ ...line, memory: line.id ? stateOf(store, line.id) : null })),
  }));
}
