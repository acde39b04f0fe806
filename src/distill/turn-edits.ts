/**
 * One successful edit or write of a turn, as a fix is described: the definitions it touched, the
 * imported names it swapped, and how many characters it changed (a typo-sized fix is a few).
 */
import { summariseEdit } from './code-symbols.ts';
import { importChanges, type ImportChanges } from './import-changes.ts';

/** One edit of a turn. */
export interface TurnEdit {
  path: string;
  index: number;
  /** Definitions the edit added or changed. */
  symbols: string[];
  imports: ImportChanges;
  /** Characters it changed (roughly: what differs between old and new text). */
  size: number;
  /** It only took text out (a deletion: an unused import or variable removed). */
  deletion: boolean;
}

/** Characters that differ between two texts once their common start and end are set aside: removed and added. */
function changedChars(before: string, after: string): { removed: number; added: number } {
  let start = 0;
  while (start < before.length && start < after.length && before[start] === after[start]) start++;
  let end = 0;
  while (
    end < before.length - start &&
    end < after.length - start &&
    before[before.length - 1 - end] === after[after.length - 1 - end]
  )
    end++;
  return { removed: before.length - start - end, added: after.length - start - end };
}

/** An edit's old and new text, and what is known of the file around it. */
export interface EditText {
  before: string;
  after: string;
  context?: string;
}

/** The record of an edit (several old → new replacements of one file). */
export function turnEdit(path: string, index: number, changes: readonly EditText[]): TurnEdit {
  const symbols = new Set<string>();
  const imports: ImportChanges = { added: [], removed: [] };
  let size = 0;
  let added = 0;
  for (const c of changes) {
    const sum = summariseEdit(c.before, c.after, path, c.context ?? '');
    for (const x of [...sum.changed, ...sum.added]) symbols.add(x);
    const im = importChanges(c.before, c.after);
    imports.added.push(...im.added);
    imports.removed.push(...im.removed);
    const changed = changedChars(c.before, c.after);
    size += Math.max(changed.removed, changed.added);
    added += changed.added;
  }
  return { path, index, symbols: [...symbols].slice(0, 6), imports, size, deletion: size > 0 && added === 0 };
}
