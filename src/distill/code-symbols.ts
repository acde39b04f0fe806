/**
 * Which functions, classes, methods, headings or keys an edit touched, read off the old and new text
 * with patterns chosen by the file's language.
 */

type Language =
  | 'js'
  | 'py'
  | 'go'
  | 'rust'
  | 'elixir'
  | 'ruby'
  | 'c-like'
  | 'markdown'
  | 'json'
  | 'yaml'
  | 'shell'
  | 'lines';

const BY_EXTENSION: Record<string, Language> = {
  ts: 'js',
  tsx: 'js',
  mts: 'js',
  cts: 'js',
  js: 'js',
  jsx: 'js',
  mjs: 'js',
  cjs: 'js',
  vue: 'js',
  svelte: 'js',
  py: 'py',
  pyi: 'py',
  go: 'go',
  rs: 'rust',
  ex: 'elixir',
  exs: 'elixir',
  rb: 'ruby',
  rake: 'ruby',
  java: 'c-like',
  kt: 'c-like',
  kts: 'c-like',
  cs: 'c-like',
  c: 'c-like',
  h: 'c-like',
  cc: 'c-like',
  cpp: 'c-like',
  hpp: 'c-like',
  swift: 'c-like',
  php: 'c-like',
  scala: 'c-like',
  dart: 'c-like',
  md: 'markdown',
  mdx: 'markdown',
  markdown: 'markdown',
  json: 'json',
  jsonc: 'json',
  json5: 'json',
  yml: 'yaml',
  yaml: 'yaml',
  toml: 'yaml',
  sh: 'shell',
  bash: 'shell',
  zsh: 'shell',
  // Files of one entry per line (`.gitignore`: the "extension" is the whole name): each line is one.
  gitignore: 'lines',
  dockerignore: 'lines',
  npmignore: 'lines',
  prettierignore: 'lines',
  eslintignore: 'lines',
  gitattributes: 'lines',
};

export function languageOf(file: string): Language | null {
  const ext = /\.([A-Za-z0-9]+)$/.exec(file)?.[1]?.toLowerCase();
  return ext ? (BY_EXTENSION[ext] ?? null) : null;
}

const JS: RegExp[] = [
  /\bexport[ \t]+(?:const|let|var)[ \t]+([A-Za-z_$][\w$]*)/g,
  /\b(?:export[ \t]+)?(?:default[ \t]+)?(?:async[ \t]+)?function[ \t]*\*?[ \t]*([A-Za-z_$][\w$]*)/g,
  /\b(?:const|let|var)[ \t]+([A-Za-z_$][\w$]*)[ \t]*(?::[^=\n]+)?=[ \t]*(?:async[ \t]*)?(?:function\b|(?:\([^)]*\)|[A-Za-z_$][\w$]*)[ \t]*(?::[^=\n]+)?=>)/g,
  /\b(?:class|interface|type|enum)[ \t]+([A-Za-z_$][\w$]*)/g,
  /^[ \t]*(?:(?:public|private|protected|static|async|override|readonly|abstract|get|set)[ \t]+)*\*?([A-Za-z_$][\w$]*)[ \t]*(?:<[^>\n]*>)?\([^)]*\)[ \t]*(?::[ \t]*[^{\n]+)?\{/gm,
];
const PY: RegExp[] = [
  /^[ \t]*(?:async[ \t]+)?def[ \t]+([A-Za-z_]\w*)/gm,
  /^[ \t]*class[ \t]+([A-Za-z_]\w*)/gm,
];
const GO: RegExp[] = [
  /^func[ \t]+(?:\([^)]*\)[ \t]*)?([A-Za-z_]\w*)/gm,
  /^type[ \t]+([A-Za-z_]\w*)[ \t]+(?:struct|interface)\b/gm,
];
const RUST: RegExp[] = [
  /\bfn[ \t]+([A-Za-z_]\w*)[ \t]*[<(]/g,
  /^[ \t]*(?:pub(?:\([^)]*\))?[ \t]+)?(?:struct|enum|trait|union)[ \t]+([A-Za-z_]\w*)/gm,
  /^[ \t]*impl(?:<[^>\n]*>)?[ \t]+(?:[\w:<>]+[ \t]+for[ \t]+)?([A-Za-z_][\w:]*)/gm,
];
const ELIXIR: RegExp[] = [
  /^[ \t]*(?:def|defp|defmacro|defmacrop|defguard|defdelegate)[ \t]+([a-z_][\w?!]*)/gm,
  /^[ \t]*defmodule[ \t]+([A-Z][\w.]*)/gm,
];
const RUBY: RegExp[] = [
  /^[ \t]*def[ \t]+(?:self\.)?([\w?!=]+)/gm,
  /^[ \t]*(?:class|module)[ \t]+([A-Z][\w:]*)/gm,
];
const C_LIKE: RegExp[] = [
  /\b(?:class|interface|enum|struct|record|protocol|trait|object)[ \t]+([A-Za-z_]\w*)/g,
  /\b(?:fun|func|function)[ \t]+(?:<[^>\n]*>[ \t]*)?(?:[A-Za-z_]\w*\.)?([A-Za-z_]\w*)[ \t]*[<(]/g,
  /^[ \t]*(?:(?:public|private|protected|internal|static|final|abstract|override|virtual|async|synchronized|open|suspend|inline|extern|const)[ \t]+)*(?:[\w<>[\],.?*&:]+[ \t]+)+\*?([A-Za-z_]\w*)[ \t]*\([^)]*\)[ \t]*(?:const[ \t]*)?(?:throws[ \t]+[\w., ]+)?[ \t]*\{/gm,
];
const MARKDOWN: RegExp[] = [/^#{1,6}[ \t]+(.+?)[ \t]*#*[ \t]*$/gm];
const JSON_KEYS: RegExp[] = [/^(?: {0,2}|\t)"([^"\n]+)"[ \t]*:/gm];
const YAML_KEYS: RegExp[] = [/^([A-Za-z_][\w.-]*)[ \t]*[:=]/gm, /^\[([\w.-]+)\]/gm];
const SHELL: RegExp[] = [/^[ \t]*(?:function[ \t]+)?([A-Za-z_][\w-]*)[ \t]*\(\)[ \t]*\{/gm];

/** A list file's entries: each line that is neither blank nor a comment. */
const LINES: RegExp[] = [/^[ \t]*([^#\s][^\n]*?)[ \t]*$/gm];

const PATTERNS: Record<Language, RegExp[]> = {
  js: JS,
  py: PY,
  go: GO,
  rust: RUST,
  elixir: ELIXIR,
  ruby: RUBY,
  'c-like': C_LIKE,
  markdown: MARKDOWN,
  json: JSON_KEYS,
  yaml: YAML_KEYS,
  shell: SHELL,
  lines: LINES,
};
/** Unknown languages: the common code shapes, no headings (a `#` line is a comment in most). */
const FALLBACK: RegExp[] = [...JS.slice(0, 3), ...PY, GO[0] as RegExp, RUST[0] as RegExp];

const NOT_NAMES = new Set([
  'if',
  'for',
  'while',
  'switch',
  'catch',
  'return',
  'function',
  'else',
  'do',
  'with',
  'elif',
  'unless',
  'until',
  'foreach',
  'new',
  'typeof',
  'await',
  'sizeof',
  'super',
  'this',
  'try',
  'finally',
  'using',
  'lock',
]);

/** Names defined in `code` (functions, classes, methods, types; headings in Markdown; keys in JSON), at most `max`. */
export function definedSymbols(code: string, file = '', max = 40): string[] {
  const lang = languageOf(file);
  const out = new Set<string>();
  for (const re of lang ? PATTERNS[lang] : FALLBACK) {
    re.lastIndex = 0;
    for (const m of code.matchAll(re)) {
      const name = (m[1] ?? '').trim();
      if (name !== '' && !NOT_NAMES.has(name) && name.length <= 80) out.add(name);
      if (out.size >= max) return [...out];
    }
  }
  return [...out];
}

const indentOf = (line: string) => /^[ \t]*/.exec(line)?.[0].replace(/\t/g, '    ').length ?? 0;

/**
 * The definition an edit sits in: the nearest definition above `snippet` in `fileText` that is
 * indented less than the snippet's first line (so a sibling that ended above is not taken).
 */
export function enclosingSymbol(fileText: string, snippet: string, file = ''): string | null {
  const probe = snippet.split('\n').find((l) => l.trim() !== '') ?? '';
  const at = probe === '' ? -1 : fileText.indexOf(probe);
  if (at < 0) return null;
  const lines = fileText.slice(0, at).split('\n');
  const startLine = `${lines[lines.length - 1] ?? ''}${probe}`;
  const indent = indentOf(startLine);
  for (let i = lines.length - 2; i >= 0 && i >= lines.length - 200; i--) {
    const line = lines[i] ?? '';
    if (line.trim() === '' || indentOf(line) >= indent) continue;
    const found = definedSymbols(line, file);
    if (found.length > 0) return found[0] ?? null;
  }
  return null;
}

/** The old side of Claude Code's `structuredPatch` hunks (context and removed lines), as text. */
export function patchOldText(patch: unknown): string {
  if (!Array.isArray(patch)) return '';
  const out: string[] = [];
  for (const hunk of patch) {
    const lines =
      hunk !== null && typeof hunk === 'object' ? (hunk as Record<string, unknown>)['lines'] : null;
    if (!Array.isArray(lines)) continue;
    for (const l of lines) if (typeof l === 'string' && !l.startsWith('+')) out.push(l.slice(1));
    out.push('');
  }
  return out.join('\n');
}

export interface EditSummary {
  added: string[];
  changed: string[];
  removed: string[];
  /** `old → new` for a short replace-all (a rename). */
  renamed: string | null;
}

/**
 * Compare the definitions in an edit's old and new text. `context`: the file before the edit, or
 * whatever of it is known (the patch's context lines), to name the definition an in-body edit sits in.
 */
export function summariseEdit(
  oldText: string,
  newText: string,
  file: string,
  context = '',
  replaceAll = false,
): EditSummary {
  const short = (s: string) => s.trim() !== '' && !s.includes('\n') && s.length <= 60;
  if (replaceAll && short(oldText) && short(newText)) {
    return { added: [], changed: [], removed: [], renamed: `${oldText.trim()} → ${newText.trim()}` };
  }
  const before = definedSymbols(oldText, file);
  const after = definedSymbols(newText, file);
  const b = new Set(before);
  const a = new Set(after);
  const added = after.filter((s) => !b.has(s));
  const removed = before.filter((s) => !a.has(s));
  // A list file's entry is there or not: one in both texts is unchanged context.
  if (languageOf(file) === 'lines') return { added, changed: [], removed, renamed: null };
  let changed = after.filter((s) => b.has(s));
  if (changed.length === 0 && added.length === 0 && removed.length === 0) {
    const enclosing = context !== '' ? enclosingSymbol(context, oldText, file) : null;
    if (enclosing) changed = [enclosing];
  }
  return { added, changed, removed, renamed: null };
}
