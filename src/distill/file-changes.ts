/**
 * What one turn did to each file it wrote or edited, accumulated over all its Write/Edit/MultiEdit/
 * NotebookEdit calls and described in one short line per file.
 */
import { definedSymbols, summariseEdit, type EditSummary } from './code-symbols.ts';

export interface FileChange {
  path: string;
  created: boolean;
  rewritten: boolean;
  lines: number;
  truncated: boolean;
  added: string[];
  changed: string[];
  removed: string[];
  renamed: string[];
  linesAdded: number;
  linesRemoved: number;
}

export interface FileChanges {
  /** A Write: `existed` from the response (`type: update`) or from earlier edits in the turn. */
  write(
    path: string,
    content: string,
    lines: { lines: number; truncated: boolean },
    before: string | null,
  ): void;
  edit(path: string, oldText: string, newText: string, context: string, replaceAll: boolean): void;
  /** A file renamed (`mv`, `git mv`): what was done to it is told under its new name. */
  rename(from: string, to: string): void;
  /** Files in the order they were first changed. */
  files(): FileChange[];
  get(path: string): FileChange | undefined;
}

const countLines = (s: string) => (s === '' ? 0 : s.replace(/\n$/, '').split('\n').length);

/** Names kept per file and kind of change (only a few are ever shown). */
const MAX_NAMES = 60;

function addTo(list: string[], names: readonly string[]): void {
  for (const n of names) if (list.length < MAX_NAMES && !list.includes(n)) list.push(n);
}

function drop(list: string[], names: readonly string[]): string[] {
  return list.filter((n) => !names.includes(n));
}

export function createFileChanges(): FileChanges {
  const byPath = new Map<string, FileChange>();
  const entry = (path: string): FileChange => {
    let c = byPath.get(path);
    if (!c) {
      c = {
        path,
        created: false,
        rewritten: false,
        lines: 0,
        truncated: false,
        added: [],
        changed: [],
        removed: [],
        renamed: [],
        linesAdded: 0,
        linesRemoved: 0,
      };
      byPath.set(path, c);
    }
    return c;
  };
  const apply = (c: FileChange, s: EditSummary) => {
    if (s.renamed && !c.renamed.includes(s.renamed)) c.renamed.push(s.renamed);
    // Something removed and added back in the same turn was changed; something new that is
    // changed again is still new.
    const back = s.added.filter((n) => c.removed.includes(n));
    c.removed = drop(c.removed, back);
    addTo(
      c.changed,
      back.filter((n) => !c.added.includes(n)),
    );
    addTo(
      c.added,
      s.added.filter((n) => !back.includes(n)),
    );
    addTo(
      c.changed,
      s.changed.filter((n) => !c.added.includes(n)),
    );
    const gone = s.removed.filter((n) => c.added.includes(n));
    c.added = drop(c.added, gone);
    addTo(
      c.removed,
      s.removed.filter((n) => !gone.includes(n)),
    );
    c.changed = drop(c.changed, c.removed);
  };
  return {
    write(path, content, lines, before) {
      const existed = byPath.has(path) || before !== null;
      const c = entry(path);
      c.lines = lines.lines;
      c.truncated = lines.truncated;
      if (!existed) {
        c.created = true;
        addTo(c.added, definedSymbols(content, path));
        return;
      }
      if (!c.created) c.rewritten = true;
      if (before) apply(c, summariseEdit(before, content, path));
    },
    edit(path, oldText, newText, context, replaceAll) {
      const c = entry(path);
      c.linesAdded += countLines(newText);
      c.linesRemoved += countLines(oldText);
      apply(c, summariseEdit(oldText, newText, path, context, replaceAll));
    },
    rename(from, to) {
      const c = byPath.get(from);
      // Onto a file the turn also changed: two stories of one path, kept apart as they were.
      if (!c || byPath.has(to)) return;
      const renamed = new Map<string, FileChange>();
      for (const [path, change] of byPath)
        renamed.set(path === from ? to : path, path === from ? { ...change, path: to } : change);
      byPath.clear();
      for (const [path, change] of renamed) byPath.set(path, change);
    },
    files: () => [...byPath.values()],
    get: (path) => byPath.get(path),
  };
}

const list = (names: readonly string[], max = 4) => {
  const shown = names.slice(0, max).map((n) => (n.length > 40 ? `${n.slice(0, 39)}…` : n));
  return names.length <= max ? shown.join(', ') : `${shown.join(', ')} (+${names.length - max} more)`;
};

/**
 * One line per file: "created src/x.ts (12 lines): limiter", "src/auth.ts: changed validateToken;
 * added refreshToken", "src/app.ts: edited (+3 −1 lines)".
 */
export function describeFileChange(c: FileChange): string {
  const size = `${c.lines}${c.truncated ? '+' : ''} lines`;
  if (c.created) {
    const defines = c.added.length > 0 ? `: ${list(c.added)}` : '';
    return `created ${c.path} (${size})${defines}`;
  }
  const parts: string[] = [];
  if (c.rewritten) parts.push(`rewritten (${size})`);
  if (c.changed.length > 0) parts.push(`changed ${list(c.changed)}`);
  if (c.added.length > 0) parts.push(`added ${list(c.added)}`);
  if (c.removed.length > 0) parts.push(`removed ${list(c.removed)}`);
  if (c.renamed.length > 0) parts.push(`renamed ${list(c.renamed, 2)}`);
  if (parts.length === 0) {
    const delta = c.linesAdded + c.linesRemoved > 0 ? ` (+${c.linesAdded} −${c.linesRemoved} lines)` : '';
    parts.push(`edited${delta}`);
  }
  return `${c.path}: ${parts.join('; ')}`;
}
