/**
 * One successful edit or write of a turn, as a fix is described: the definitions it touched, the
 * imported names it swapped, and how many characters it changed (a typo-sized fix is a few).
 */
import { summariseEdit } from './code-symbols.ts';
import { droppedPairs, isDocument } from './dropped-text.ts';
import { importChanges, type ImportChanges } from './import-changes.ts';

/** One edit of a turn. */
export interface TurnEdit {
  path: string;
  index: number;
  /** When the edit was made (ms), where the event says. */
  at?: number;
  /** Definitions the edit added or changed (the first six). */
  symbols: string[];
  /** Every definition it added or changed (what a task list's item may name). */
  defined: string[];
  /** Definitions the edit took out. */
  removed: string[];
  imports: ImportChanges;
  /** Characters it changed (roughly: what differs between old and new text). */
  size: number;
  /** It only took text out (a deletion: an unused import or variable removed). */
  deletion: boolean;
  /**
   * The new text of the lines a small edit changed (at most two short lines per change, comments
   * and blank lines left out): what the fix was, in the code's own words. Empty for a larger edit.
   */
  lines: string[];
  /**
   * The word pairs a document stopped saying (see `dropped-text.ts`): what the edit took out of the
   * whole file where it is known, else out of the text it replaced. None for code.
   */
  dropped: string[];
  /**
   * The new lines of a larger edit too (at most a dozen short ones, comments and blank lines left
   * out): from these a fix keeps the lines about the error it fixed.
   */
  wrote: string[];
}

/** Where two texts differ once their common start and end are set aside. */
function changedSpan(before: string, after: string): { start: number; end: number } {
  let start = 0;
  while (start < before.length && start < after.length && before[start] === after[start]) start++;
  let end = 0;
  while (
    end < before.length - start &&
    end < after.length - start &&
    before[before.length - 1 - end] === after[after.length - 1 - end]
  )
    end++;
  return { start, end };
}

/** Characters that differ between two texts once their common start and end are set aside: removed and added. */
function changedChars(before: string, after: string): { removed: number; added: number } {
  const { start, end } = changedSpan(before, after);
  return { removed: before.length - start - end, added: after.length - start - end };
}

/** A line that carries no code: blank, only punctuation, or a comment. */
const NOT_CODE = /^(?:[\s{}()[\];,]*|(?:\/\/|#|--|\/\*|\*|<!--).*)$/;

/**
 * A comment that switches a check off where it stands: a linter's or type checker's own directive
 * (Credo, ESLint, Biome, TypeScript, Python's noqa / type: ignore / pylint, RuboCop, golangci's
 * nolint, clang-tidy, Rust's allow, Java's SuppressWarnings, SwiftLint, PHP_CodeSniffer, Deno, C#,
 * Dialyzer's nowarn).
 */
export const SILENCES =
  /credo:disable|eslint-disable|biome-ignore|@ts-(?:ignore|expect-error|nocheck)|#\s*noqa\b|#\s*type:\s*ignore|pylint:\s*disable|rubocop:disable|\/\/\s*nolint\b|\bNOLINT|#!?\[allow\(|@SuppressWarnings|swiftlint:disable|phpcs:(?:ignore|disable)|deno-lint-ignore|#pragma warning disable|@dialyzer\s*\{?:no_?warn/;

/**
 * The lines of the new text that the old text did not have, when they are few and short (a fix the
 * size of a line or three); none for a larger rewrite or a pure deletion.
 */
export function changedLines(before: string, after: string): string[] {
  const lines = newLines(before, after);
  return lines.length <= 3 && lines.every((l) => l.length <= 140) ? lines : [];
}

/** The lines of the new text that the old text did not have (comments and blank lines left out). */
function newLines(before: string, after: string): string[] {
  const { start, end } = changedSpan(before, after);
  if (after.length - start - end <= 0) return [];
  const from = after.lastIndexOf('\n', start - 1) + 1;
  const stop = after.indexOf('\n', after.length - end);
  // A line that only gained or lost a separator (the comma before an added list item) is not new.
  const bare = (l: string) => l.trim().replace(/[,;]+$/, '');
  const had = new Set(before.split('\n').map(bare));
  return after
    .slice(from, stop === -1 ? after.length : stop)
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => !had.has(bare(l)) && (!NOT_CODE.test(l) || SILENCES.test(l)));
}

/** An edit's old and new text, and what is known of the file around it. */
export interface EditText {
  before: string;
  after: string;
  context?: string;
}

/** The record of an edit (several old → new replacements of one file). */
export function turnEdit(
  path: string,
  index: number,
  changes: readonly EditText[],
  whole: { before: string; after: string } | null = null,
): TurnEdit {
  const symbols = new Set<string>();
  const removed = new Set<string>();
  const imports: ImportChanges = { added: [], removed: [] };
  let size = 0;
  let added = 0;
  const lines: string[] = [];
  const wrote: string[] = [];
  for (const c of changes) {
    const sum = summariseEdit(c.before, c.after, path, c.context ?? '');
    for (const x of [...sum.changed, ...sum.added]) symbols.add(x);
    for (const x of sum.removed) removed.add(x);
    const im = importChanges(c.before, c.after);
    imports.added.push(...im.added);
    imports.removed.push(...im.removed);
    const changed = changedChars(c.before, c.after);
    size += Math.max(changed.removed, changed.added);
    added += changed.added;
    lines.push(...changedLines(c.before, c.after));
    if (wrote.length < 12)
      wrote.push(
        ...newLines(c.before, c.after)
          .filter((l) => l.length <= 140)
          .slice(0, 12),
      );
  }
  return {
    path,
    index,
    symbols: [...symbols].slice(0, 6),
    defined: [...symbols],
    removed: [...removed].slice(0, 6),
    imports,
    size,
    deletion: size > 0 && added === 0,
    lines: changes.length <= 2 ? lines.slice(0, 3) : [],
    wrote: wrote.slice(0, 12),
    dropped: !isDocument(path)
      ? []
      : whole
        ? droppedPairs(whole.before, whole.after)
        : [...new Set(changes.flatMap((c) => droppedPairs(c.before, c.after)))],
  };
}
