/**
 * The agent's task list as it stands at the end of a turn: the last TodoWrite (the whole list each
 * time), or the TaskCreate / TaskUpdate calls of newer Claude Code versions (one task at a time).
 */
import { asArray, asRecord, asString, clip, responseText } from './text.ts';

export type TodoStatus = 'pending' | 'in_progress' | 'completed';

export interface TodoItem {
  content: string;
  status: TodoStatus;
}

export interface TodoList {
  /** Feed a tool call; returns false when the tool is not a task-list tool. */
  take(tool: string, input: unknown, response: unknown): boolean;
  /** The list, or null when the turn never touched it. */
  items(): TodoItem[] | null;
}

function status(value: unknown): TodoStatus | 'deleted' {
  const s = asString(value).toLowerCase();
  if (s === 'completed' || s === 'done') return 'completed';
  if (s === 'in_progress' || s === 'in-progress' || s === 'active') return 'in_progress';
  return s === 'deleted' ? 'deleted' : 'pending';
}

/** A task of the host's task tools, named by its number: "#2 Write the README". */
const NUMBERED = /^#([\w-]+) /;
const numbered = (id: string, subject: string) => (id !== '' ? `#${id} ${subject}` : subject);

/**
 * The list as the session left it before this turn (`earlier`: its numbered tasks still open), so a
 * later turn's TaskUpdate of a task created in an earlier one — a number and a status, no words — finds
 * the task it finishes.
 */
export function createTodoList(earlier: readonly TodoItem[] = []): TodoList {
  let list: TodoItem[] | null = null;
  const tasks = new Map<string, TodoItem>();
  for (const t of earlier) {
    const id = NUMBERED.exec(t.content)?.[1];
    if (id) tasks.set(id, { ...t });
  }
  let created = 0;
  return {
    take(tool, input, response) {
      const i = asRecord(input);
      if (tool === 'TodoWrite') {
        list = asArray(i['todos'])
          .map(asRecord)
          .map((t) => ({ content: clip(asString(t['content']), 120), status: status(t['status']) }))
          .filter((t): t is TodoItem => t.content !== '' && t.status !== 'deleted');
        tasks.clear();
        return true;
      }
      if (tool === 'TaskCreate') {
        const subject = clip(asString(i['subject']) || asString(i['description']), 120);
        const id =
          /#(\d+)/.exec(responseText(response))?.[1] ?? asString(asRecord(asRecord(response)['task'])['id']);
        created++;
        if (subject !== '')
          tasks.set(id || `new-${created}`, { content: clip(numbered(id, subject), 120), status: 'pending' });
        list = [...tasks.values()];
        return true;
      }
      if (tool === 'TaskUpdate') {
        const id = asString(i['taskId']) || String(typeof i['taskId'] === 'number' ? i['taskId'] : '');
        const next = status(i['status']);
        const known = tasks.get(id);
        const subject = clip(asString(i['subject']), 120);
        if (next === 'deleted') tasks.delete(id);
        else if (known) {
          if (i['status'] !== undefined) known.status = next;
          if (subject !== '') known.content = clip(numbered(id, subject), 120);
        } else if (subject !== '') tasks.set(id, { content: clip(numbered(id, subject), 120), status: next });
        list = [...tasks.values()];
        return true;
      }
      return false;
    },
    items: () => list,
  };
}

/** "[x] write tests", "[ ] update docs", "[ ] fix CI (in progress)". */
export function todoFact(t: TodoItem): string {
  if (t.status === 'completed') return `[x] ${t.content}`;
  return t.status === 'in_progress' ? `[ ] ${t.content} (in progress)` : `[ ] ${t.content}`;
}

/** An item still open on a stored list, read back from the fact `todoFact` wrote; null for any other fact. */
export function openTodo(fact: string): TodoItem | null {
  const m = /^\[ \] (.+?)( \(in progress\))?$/.exec(fact);
  return m?.[1] ? { content: m[1], status: m[2] ? 'in_progress' : 'pending' } : null;
}

/**
 * The numbered tasks still open on a stored task list (its `[ ] #2 …` facts): what a later turn's
 * TaskUpdate may finish.
 */
export function openNumberedTasks(facts: readonly string[]): TodoItem[] {
  return facts.flatMap((f) => {
    const t = openTodo(f);
    return t && NUMBERED.test(t.content) ? [t] : [];
  });
}
