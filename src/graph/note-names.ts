/**
 * Where a node's note goes in a vault: a folder per project, a folder per type inside it, and a file
 * name unique in the whole vault (case-insensitively), so that a bare `[[name]]` resolves to exactly
 * that note by Obsidian's rules. Names are given once and kept (a later title change renames nothing).
 */
import { posix } from 'node:path';

const TYPE_FOLDERS: Record<string, string> = {
  decision: 'decisions',
  discovery: 'discoveries',
  error: 'errors',
  task: 'tasks',
  bugfix: 'bugfixes',
  feature: 'features',
  refactor: 'refactors',
  change: 'changes',
  correction: 'corrections',
  preference: 'preferences',
  failed_attempt: 'failed-attempts',
  fact: 'facts',
  file: 'files',
  'file-summary': 'files',
  session: 'sessions',
};

/** The folder (inside a project's folder) holding notes of a type. */
export function typeFolder(type: string): string {
  return TYPE_FOLDERS[type] ?? `${type.replace(/_/g, '-').replace(/s$/, '')}s`;
}

/** Node types that are not memories: their notes are made by engram from the store. */
export const DERIVED_NOTE_TYPES: ReadonlySet<string> = new Set(['file', 'file-summary', 'session', 'index']);

/** A file or folder name Obsidian accepts and links can hold: no `[]#^|\/:*?"<>`, no leading dot. */
export function safeName(text: string, max = 80): string {
  const cleaned = text
    .replace(/\p{Cc}/gu, ' ')
    .replace(/[[\]#^|\\/:*?"<>]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^[.\s]+|[.\s]+$/g, '');
  if (cleaned.length <= max) return cleaned;
  const cut = cleaned.slice(0, max);
  const space = cut.lastIndexOf(' ');
  // Cut between words, a separator left at the end ("lint … ·") joins nothing to anything.
  return (space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s·•|,;+&→←–—-]+$/u, '').trim();
}

/** The name a node's note would like: its title (a file node's file name, a session's day and request). */
export function preferredName(kind: 'memory' | 'file' | 'session', title: string, id: string): string {
  const base = safeName(kind === 'file' ? posix.basename(title) : title) || id;
  // `[[plan.md]]` means the note plan.md, not plan.md.md: a name ending in .md gets a word after it.
  return /\.md$/i.test(base) ? `${base} (${kind === 'file' ? 'file' : 'note'})` : base;
}

/**
 * Hands out names unique in the vault: `taken` holds every note name already there (lower case);
 * a clash gets the file's folder (file nodes) or the id's tail in parentheses.
 */
export function createNamer(taken: Iterable<string>) {
  const used = new Set([...taken].map((n) => n.toLowerCase()));
  return {
    name(preferred: string, id: string, hint?: string): string {
      const tail = id.slice(-6);
      const candidates = [preferred];
      if (hint) candidates.push(`${preferred} (${safeName(hint, 40)})`);
      candidates.push(`${preferred} (${tail})`, `${preferred} (${id})`);
      for (const c of candidates) {
        if (c !== '' && !used.has(c.toLowerCase())) {
          used.add(c.toLowerCase());
          return c;
        }
      }
      let i = 2;
      while (used.has(`${preferred} (${id}) ${i}`.toLowerCase())) i++;
      const last = `${preferred} (${id}) ${i}`;
      used.add(last.toLowerCase());
      return last;
    },
    take(name: string): void {
      used.add(name.toLowerCase());
    },
  };
}

/** A note's name (its file name without `.md`). */
export function noteNameOf(path: string): string {
  return posix.basename(path).replace(/\.md$/i, '');
}
