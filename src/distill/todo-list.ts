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

export function createTodoList(): TodoList {
  let list: TodoItem[] | null = null;
  const tasks = new Map<string, TodoItem>();
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
        if (subject !== '') tasks.set(id || `new-${created}`, { content: subject, status: 'pending' });
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
          if (subject !== '') known.content = subject;
        } else if (subject !== '') tasks.set(id, { content: subject, status: next });
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
