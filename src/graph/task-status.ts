/**
 * Reading a task memory's items and their status: the distiller writes a task list's items as facts
 * ("[x] done", "[ ] open", "[ ] open (in progress)"); a memory about one task may say its status in
 * its subtitle ("in progress", "completed").
 */
import type { Observation } from '../core/model.ts';

export type TaskItemStatus = 'completed' | 'in_progress' | 'pending';

export interface TaskItem {
  text: string;
  status: TaskItemStatus;
}

function statusWord(text: string): TaskItemStatus | null {
  const t = text.toLowerCase();
  if (/\b(completed|done)\b/.test(t)) return 'completed';
  if (/\bin[ _-]progress\b/.test(t)) return 'in_progress';
  if (/\bpending\b/.test(t)) return 'pending';
  return null;
}

/** The items of a task memory (one item, the title, when it lists none). */
export function taskItems(o: Pick<Observation, 'title' | 'subtitle' | 'facts'>): TaskItem[] {
  const items: TaskItem[] = [];
  for (const fact of o.facts) {
    const m = /^\[( |x|X)\]\s+(.*?)(\s+\(in progress\))?$/.exec(fact.trim());
    if (!m) continue;
    const status: TaskItemStatus = m[1] !== ' ' ? 'completed' : m[3] ? 'in_progress' : 'pending';
    items.push({ text: m[2] ?? '', status });
  }
  if (items.length > 0) return items;
  return [{ text: o.title, status: statusWord(o.subtitle) ?? 'pending' }];
}

export function hasTaskInProgress(o: Pick<Observation, 'title' | 'subtitle' | 'facts'>): boolean {
  return taskItems(o).some((i) => i.status === 'in_progress');
}
