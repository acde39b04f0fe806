/**
 * Where in a file a memory points: a definition its text names (a function, class, type… the file
 * defines), or the lines the turn's edits wrote (found again in the file by their new text).
 */
import { findSymbolBlock, splitLines, type LineRange } from './code-region.ts';

/** Identifiers a memory's text mentions (code-like words), most specific first. */
export function mentionedIdentifiers(texts: readonly string[], max = 30): string[] {
  const seen = new Set<string>();
  for (const text of texts)
    for (const m of text.matchAll(/`?([A-Za-z_$][\w$]{2,})`?(?:\(\))?/g)) {
      const word = m[1] as string;
      // Code identifiers: camelCase, snake_case, PascalCase, or written in backticks or with ().
      const codey =
        /[a-z][A-Z]|_|^[A-Z][a-z]+[A-Z]/.test(word) || m[0].startsWith('`') || m[0].endsWith('()');
      if (codey) seen.add(word);
      if (seen.size >= max) break;
    }
  return [...seen];
}

/** The first mentioned identifier the file defines. */
export function symbolHint(fileText: string, identifiers: readonly string[]): string | undefined {
  return identifiers.find((name) => findSymbolBlock(fileText, name) !== null);
}

/** The lines of the file holding the edits' new text (one span over all of them), when found. */
export function editedLines(
  fileText: string,
  newTexts: readonly string[],
  maxSpan = 200,
): LineRange | undefined {
  let start = Infinity;
  let end = -Infinity;
  for (const t of newTexts) {
    const text = t.replace(/\r\n/g, '\n');
    if (text.trim() === '') continue;
    const normalised = fileText.replace(/\r\n/g, '\n');
    const at = normalised.indexOf(text);
    if (at < 0) return undefined; // the file changed since: no reliable lines
    const lineStart = normalised.slice(0, at).split('\n').length;
    const lineEnd = lineStart + splitLines(text).length - 1;
    start = Math.min(start, lineStart);
    end = Math.max(end, lineEnd);
  }
  if (!Number.isFinite(start) || end - start + 1 > maxSpan) return undefined;
  return { start, end };
}

/** The new text of Edit / MultiEdit calls to `path` (absolute or relative, as the tool got it). */
export function editTextsFor(
  calls: readonly { tool: string; input: unknown }[],
  matches: (filePath: string) => boolean,
): string[] {
  const out: string[] = [];
  for (const { tool, input } of calls) {
    if (typeof input !== 'object' || input === null) continue;
    const i = input as Record<string, unknown>;
    const file = typeof i['file_path'] === 'string' ? i['file_path'] : '';
    if (!file || !matches(file)) continue;
    if (tool === 'Edit' && typeof i['new_string'] === 'string') out.push(i['new_string']);
    if (tool === 'MultiEdit' && Array.isArray(i['edits']))
      for (const e of i['edits'] as Record<string, unknown>[])
        if (typeof e?.['new_string'] === 'string') out.push(e['new_string']);
  }
  return out;
}
