/**
 * Regions of a source file an anchor can point at: a named definition (function, class, method, type…)
 * found by its name, or a run of lines found again by its whitespace-blind hash after lines moved.
 */
import { whitespaceBlindHash } from './blob-hash.ts';

/** 1-based, inclusive line numbers. */
export interface LineRange {
  start: number;
  end: number;
}

export function splitLines(text: string): string[] {
  const lines = text.split(/\r?\n/);
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

export function regionHash(lines: readonly string[], range: LineRange): string {
  return whitespaceBlindHash(lines.slice(range.start - 1, range.end).join('\n'));
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Lines that define `name`, in the usual forms of the common languages. */
function definitionPatterns(name: string): RegExp[] {
  const n = escape(name);
  const mods =
    '(?:(?:export|default|declare|public|private|protected|internal|static|async|override|abstract|readonly|final|pub(?:\\([^)]*\\))?|unsafe|const|def|func|fn|get|set)\\s+)*';
  return [
    new RegExp(
      `^\\s*${mods}(?:function\\*?|class|interface|type|enum|struct|trait|union|module|namespace|object|record)\\s+${n}\\b`,
    ),
    new RegExp(`^\\s*${mods}(?:const|let|var|val)\\s+${n}\\s*(?::[^=]+)?=`),
    new RegExp(`^\\s*(?:async\\s+)?def\\s+${n}\\b`),
    new RegExp(`^\\s*def\\s+(?:self\\.)?${n}\\b`),
    new RegExp(`^func\\s+(?:\\([^)]*\\)\\s*)?${n}\\b`),
    new RegExp(`^\\s*${mods}fn\\s+${n}\\b`),
    new RegExp(`^\\s*impl(?:<[^>]*>)?\\s+(?:[\\w:<>]+\\s+for\\s+)?${n}\\b`),
    // A method: `name(args) {` or `name(args): T {` at the start of a line (not a call: it opens a block).
    new RegExp(`^\\s*${mods}\\*?${n}\\s*(?:<[^>]*>)?\\([^;]*\\)\\s*(?::\\s*[^{;]+)?\\{\\s*$`),
  ];
}

const indentOf = (line: string) => /^\s*/.exec(line)?.[0].length ?? 0;

/** Where a brace-delimited block starting at `from` (0-based) ends; null when it never opens a brace. */
function braceBlockEnd(lines: readonly string[], from: number): number | null {
  let depth = 0;
  let opened = false;
  for (let i = from; i < lines.length; i++) {
    // Strings and comments are stripped roughly: enough to keep braces in them from counting.
    const code = (lines[i] as string).replace(/\/\/.*$/, '').replace(/(["'`])(?:\\.|(?!\1).)*\1/g, '');
    for (const ch of code) {
      if (ch === '{') {
        depth++;
        opened = true;
      } else if (ch === '}') depth--;
    }
    if (opened && depth <= 0) return i;
    // A one-line definition with no block (`type X = …;`, `const x = 1;`).
    if (!opened && /;\s*$/.test(code)) return i;
    if (!opened && i - from >= 3) return null;
  }
  return opened ? lines.length - 1 : null;
}

/** Where an indentation-delimited block (Python, Ruby without braces) starting at `from` ends. */
function indentBlockEnd(lines: readonly string[], from: number): number {
  const base = indentOf(lines[from] as string);
  let end = from;
  for (let i = from + 1; i < lines.length; i++) {
    const line = lines[i] as string;
    if (line.trim() === '') continue;
    if (indentOf(line) <= base) {
      // Ruby and Elixir close with `end` at the definition's own indentation.
      if (/^\s*end\b/.test(line) && indentOf(line) === base) end = i;
      break;
    }
    end = i;
  }
  return end;
}

/** The lines of the definition of `name`, or null when the text defines no such thing. */
export function findSymbolBlock(text: string, name: string): LineRange | null {
  if (!/^[A-Za-z_$][\w$]*$/.test(name)) return null;
  const lines = splitLines(text);
  const patterns = definitionPatterns(name);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (!patterns.some((p) => p.test(line))) continue;
    const end = braceBlockEnd(lines, i) ?? indentBlockEnd(lines, i);
    return { start: i + 1, end: end + 1 };
  }
  return null;
}

/**
 * Find a run of lines whose whitespace-blind hash is `hash`: first at `near`, then the closest place
 * with the same number of lines, then runs a few lines shorter or longer (blank lines added or removed).
 */
export function findRegionByHash(lines: readonly string[], hash: string, near: LineRange): LineRange | null {
  const length = near.end - near.start + 1;
  if (near.end <= lines.length && regionHash(lines, near) === hash) return near;
  for (const delta of [0, -1, 1, -2, 2, -3, 3]) {
    const size = length + delta;
    if (size < 1 || size > lines.length) continue;
    let best: LineRange | null = null;
    for (let start = 1; start + size - 1 <= lines.length; start++) {
      const range = { start, end: start + size - 1 };
      if (regionHash(lines, range) !== hash) continue;
      if (!best || Math.abs(start - near.start) < Math.abs(best.start - near.start)) best = range;
    }
    if (best) return best;
  }
  return null;
}
