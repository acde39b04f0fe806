/**
 * The task state a session leaves: its todo list as it now stands (one memory per session, updated as
 * items finish, closed when nothing is left) and the tickets it created.
 */
import type { ObservationDraft } from '../core/model.ts';
import type { TurnAnalysis } from './analyse-turn.ts';
import { conceptsOf } from './concepts.ts';
import { clip } from './text.ts';
import { todoFact } from './todo-list.ts';
import { requestOf } from './turn-observations.ts';

/** The subject of a session's task list. */
export const tasksSubject = (sessionId: string) => `tasks:${sessionId}`;

/** The task list's memory, when the turn touched it and something is still open. */
export function todoObservation(a: TurnAnalysis, sessionId: string): ObservationDraft | null {
  const todos = a.todos ?? [];
  const open = todos.filter((t) => t.status !== 'completed');
  if (open.length === 0) return null;
  const current = open.find((t) => t.status === 'in_progress') ?? open[0];
  return {
    type: 'task',
    title: clip(`Open tasks (${open.length} of ${todos.length}): ${current?.content ?? ''}`, 100),
    subtitle: '',
    narrative: `Task list at the end of the turn: ${todos.length - open.length} done, ${open.length} open (${open.map((t) => t.content).join('; ')}).`,
    // The open items only: a finished item's words are the plan's, not evidence of what was true
    // (the work done is in the outcome memories).
    facts: open.map(todoFact).slice(0, 15),
    concepts: conceptsOf({ prompt: requestOf(a), files: [], commands: [], extra: ['todo'] }),
    filesRead: [],
    filesModified: [],
    subject: tasksSubject(sessionId),
  };
}

/** A task list the turn finished: its memory is closed. */
export function tasksFinished(a: TurnAnalysis): boolean {
  const todos = a.todos ?? [];
  return todos.length > 0 && todos.every((t) => t.status === 'completed');
}

/** The tickets the turn created (`bd create`, `gh issue create`). */
export function ticketObservation(a: TurnAnalysis): ObservationDraft | null {
  if (a.tickets.length === 0) return null;
  const first = a.tickets[0];
  const label = (t: { id: string; title: string }) => `${t.id}${t.title ? ` ${t.title}` : ''}`;
  return {
    type: 'task',
    title: clip(
      a.tickets.length === 1
        ? `Created ${label(first ?? { id: '', title: '' })}`
        : `Created ${a.tickets.length} tickets: ${a.tickets.map(label).join('; ')}`,
      110,
    ),
    subtitle: '',
    narrative: `Tickets created: ${a.tickets.map(label).join('; ')}.`,
    facts: a.tickets.map((t) => `ticket ${label(t)}`).slice(0, 12),
    concepts: conceptsOf({
      prompt: a.tickets.map((t) => t.title).join(' '),
      files: [],
      commands: [],
      extra: ['ticket'],
    }),
    filesRead: [],
    filesModified: [],
  };
}
