/**
 * Which functions, classes, methods, headings or keys an edit touched, read off the old and new text.
 */

const DEFINITIONS: RegExp[] = [
  /\b(?:export\s+)?(?:default\s+)?(?:async\s+)?function\s*\*?\s*([A-Za-z_$][\w$]*)/g, // JS/TS function
  /\b(?:export\s+)?(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*(?::[^=]+)?=\s*(?:async\s*)?(?:\([^)]*\)|[A-Za-z_$][\w$]*)\s*(?::[^=]+)?=>/g, // arrow fn
  /\b(?:export\s+)?(?:abstract\s+)?(?:class|interface|type|enum)\s+([A-Za-z_$][\w$]*)/g, // TS types and classes
  /^\s*(?:public\s+|private\s+|protected\s+|static\s+|async\s+|override\s+)*([A-Za-z_$][\w$]*)\s*\([^)]*\)\s*(?::\s*[^{]+)?\{/gm, // method
  /^\s*(?:async\s+)?def\s+([A-Za-z_]\w*)/gm, // Python def
  /^\s*class\s+([A-Za-z_]\w*)/gm, // Python/other class
  /\bfunc\s+(?:\([^)]*\)\s*)?([A-Za-z_]\w*)/g, // Go
  /\b(?:pub(?:\([^)]*\))?\s+)?fn\s+([A-Za-z_]\w*)/g, // Rust
  /^#{1,6}\s+(.+?)\s*$/gm, // Markdown heading
];

/** Cheap pre-check for a line that may hold a definition. */
const MAYBE_DEFINITION =
  /\b(?:function|class|interface|type|enum|const|let|var|def|func|fn)\b|^\s*#|\)\s*(?::[^{]*)?\{\s*$/;

const NOT_NAMES = new Set([
  'if',
  'for',
  'while',
  'switch',
  'catch',
  'return',
  'function',
  'constructor',
  'else',
  'do',
]);

export function definedSymbols(code: string): string[] {
  const out = new Set<string>();
  for (const re of DEFINITIONS) {
    re.lastIndex = 0;
    for (const m of code.matchAll(re)) {
      const name = (m[1] ?? '').trim();
      if (name !== '' && !NOT_NAMES.has(name) && name.length <= 80) out.add(name);
    }
  }
  return [...out];
}

/** Top-level keys of a JSON text (for package.json-like files), or [] when it is not JSON. */
function jsonKeys(text: string): string[] {
  const keys = new Set<string>();
  for (const m of text.matchAll(/^\s{0,4}"([^"]+)"\s*:/gm)) if (m[1]) keys.add(m[1]);
  return [...keys];
}

/** The definition an edit sits in: the nearest definition above `snippet` in the file's text. */
export function enclosingSymbol(fileText: string, snippet: string): string | null {
  const at = snippet === '' ? -1 : fileText.indexOf(snippet);
  if (at < 0) return null;
  const lines = fileText.slice(0, at + snippet.length).split('\n');
  for (let i = lines.length - 1; i >= 0 && i >= lines.length - 120; i--) {
    const line = lines[i] ?? '';
    if (!MAYBE_DEFINITION.test(line)) continue;
    const found = definedSymbols(line);
    if (found.length > 0) return found[0] ?? null;
  }
  return null;
}

export interface EditSummary {
  added: string[];
  changed: string[];
  removed: string[];
}

/** Compare the definitions in an edit's old and new text (`fileText`: the file before the edit, if known). */
export function summariseEdit(oldText: string, newText: string, file: string, fileText = ''): EditSummary {
  const isJson = file.endsWith('.json');
  const before = isJson ? jsonKeys(oldText) : definedSymbols(oldText);
  const after = isJson ? jsonKeys(newText) : definedSymbols(newText);
  const b = new Set(before);
  const a = new Set(after);
  const added = after.filter((s) => !b.has(s));
  const removed = before.filter((s) => !a.has(s));
  let changed = after.filter((s) => b.has(s));
  if (changed.length === 0 && added.length === 0 && removed.length === 0) {
    // An edit inside a body: name the definition it sits in.
    changed = definedSymbols(newText).slice(0, 3);
    const enclosing = changed.length === 0 ? enclosingSymbol(fileText, oldText) : null;
    if (enclosing) changed = [enclosing];
  }
  return { added, changed, removed };
}

export function describeEdit(s: EditSummary): string {
  const parts: string[] = [];
  if (s.changed.length > 0) parts.push(`changed ${s.changed.slice(0, 4).join(', ')}`);
  if (s.added.length > 0) parts.push(`added ${s.added.slice(0, 4).join(', ')}`);
  if (s.removed.length > 0) parts.push(`removed ${s.removed.slice(0, 4).join(', ')}`);
  return parts.join('; ');
}
