/**
 * Cutting a turn into its tasks as it is read: a commit ends a task; a later prompt of the same flush
 * starts one. Todo items finished along the way are facts of the task they were finished in (marked
 * done right after its commit, of the task that commit ended) — never tasks of their own: one memory
 * per finished checklist item only repeats the request. Each task collects its own file changes.
 */
import { createFileChanges, type FileChanges } from './file-changes.ts';
import { clip } from './text.ts';
import type { TodoItem } from './todo-list.ts';

export interface TaskCommit {
  message: string;
  /** What its body says it does (list items, else its first lines). */
  body?: string[];
  hash: string;
  branch: string;
  index: number;
  /** Paths staged by name for it (empty: everything, or not known). */
  staged: string[];
  /** An amend that kept the earlier commit's message: the message says nothing of this work. */
  reused?: boolean;
  /** How many files git said it changed, and the new ones it listed (see `commitSweep`). */
  filesChanged?: number | null;
  created?: string[];
}

/** One task of the turn: what was changed between two boundaries (a commit, a finished todo item). */
export interface Segment {
  start: number;
  end: number;
  /** The request it answered (the turn's prompt, or the later prompt of a flush it follows). */
  prompt: string;
  files: FileChanges;
  commits: TaskCommit[];
  /** Todo items finished in it. */
  completed: string[];
}

export function createTaskCutter() {
  const done: Segment[] = [];
  let current: Segment = {
    start: 0,
    end: 0,
    prompt: '',
    files: createFileChanges(),
    commits: [],
    completed: [],
  };
  let todos: TodoItem[] = [];
  const changed = (s: Segment) => s.files.files().length > 0 || s.commits.length > 0;
  const close = (index: number) => {
    current.end = index;
    if (changed(current)) done.push(current);
    current = {
      start: index + 1,
      end: index + 1,
      prompt: current.prompt,
      files: createFileChanges(),
      commits: [],
      completed: [],
    };
  };
  return {
    /** The file changes of the task under way. */
    files: (): FileChanges => current.files,
    prompt(text: string, index: number, first: boolean, trivial: boolean): void {
      if (!first) close(index - 1);
      if (!trivial) current.prompt = text;
    },
    commit(commit: TaskCommit, index: number): void {
      current.commits.push(commit);
      close(index);
    },
    /** The task list as it now stands (the whole list after each TodoWrite or task update). */
    todos(now: readonly TodoItem[]): void {
      for (const t of now) {
        const before = todos.find((p) => p.content === t.content);
        if (t.status !== 'completed' || before?.status === 'completed') continue;
        const committed = done[done.length - 1];
        if (!changed(current) && committed && committed.commits.length > 0)
          committed.completed.push(t.content);
        else current.completed.push(t.content);
      }
      todos = now.map((t) => ({ ...t }));
    },
    /** The tasks that changed something, once the turn is read to `lastIndex`. */
    finish(lastIndex: number): Segment[] {
      close(lastIndex);
      return done;
    },
  };
}

/**
 * What the task's commits say it does, as prose (their bodies; a message alone is the title already):
 * the project's own record of the change, for work the assistant said nothing about — before the
 * request, which every task of the turn shares ("Work on bead X…", "continue implementation").
 */
export function commitRecord(s: Segment): string {
  const lines = s.commits
    .filter((c) => !c.reused)
    .flatMap((c) => c.body ?? [])
    .map((l) => l.trim().replace(/^[-*•]\s*/, ''))
    .filter((l) => l !== '');
  if (lines.length === 0) return '';
  // Each line a sentence, closed by a stop; one that runs on (a comma, a colon) joins the next.
  const text = lines.map((l) => (/[,;:(]$/.test(l) || /[.!?]$/.test(l) ? l : `${l}.`)).join(' ');
  return clip(text, 600);
}
