/**
 * Split a session's pending events into turns: a turn ends at Stop or SessionEnd, and a new prompt
 * starts a new turn. The last turn is "open" when it has not ended yet.
 */
import type { QueuedEvent } from '../core/model.ts';

export interface Turn {
  events: QueuedEvent[];
  closed: boolean;
}

export function splitTurns(events: readonly QueuedEvent[]): Turn[] {
  const turns: Turn[] = [];
  let current: QueuedEvent[] = [];
  const close = (closed: boolean) => {
    if (current.length > 0) turns.push({ events: current, closed });
    current = [];
  };
  for (const e of events) {
    if (e.event.kind === 'prompt' && current.some((c) => c.event.kind !== 'session_start')) close(true);
    current.push(e);
    if (e.event.kind === 'stop' || e.event.kind === 'session_end') close(true);
  }
  close(false);
  return turns;
}
