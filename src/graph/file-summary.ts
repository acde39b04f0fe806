/**
 * What a file is, read off the file itself (deterministic, no LLM): its language, size and lines, its
 * purpose from the header comment (or docstring), and what it defines at the top level or exports.
 */
import { posix } from 'node:path';

const LANGUAGES: Record<string, string> = {
  ts: 'TypeScript',
  tsx: 'TypeScript',
  mts: 'TypeScript',
  cts: 'TypeScript',
  js: 'JavaScript',
  jsx: 'JavaScript',
  mjs: 'JavaScript',
  cjs: 'JavaScript',
  py: 'Python',
  go: 'Go',
  rs: 'Rust',
  rb: 'Ruby',
  java: 'Java',
  kt: 'Kotlin',
  cs: 'C#',
  c: 'C',
  h: 'C',
  cpp: 'C++',
  cc: 'C++',
  hpp: 'C++',
  swift: 'Swift',
  php: 'PHP',
  scala: 'Scala',
  ex: 'Elixir',
  exs: 'Elixir',
  sh: 'Shell',
  bash: 'Shell',
  sql: 'SQL',
  md: 'Markdown',
  json: 'JSON',
  yml: 'YAML',
  yaml: 'YAML',
  toml: 'TOML',
  css: 'CSS',
  html: 'HTML',
  vue: 'Vue',
  svelte: 'Svelte',
};

export function languageOf(path: string): string {
  const ext = posix.extname(path).slice(1).toLowerCase();
  return LANGUAGES[ext] ?? (ext === '' ? '' : ext);
}

export interface FileSummary {
  language: string;
  lines: number;
  size: number;
  purpose: string;
  symbols: string[];
}

const clean = (text: string) => text.replace(/\s+/g, ' ').trim();

/** The first sentence or two of the file's leading comment or docstring. */
export function headerPurpose(text: string): string {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  let i = 0;
  while (
    i < lines.length &&
    (lines[i]?.startsWith('#!') || lines[i]?.trim() === '' || /^\s*['"]use strict['"]/.test(lines[i] ?? ''))
  )
    i++;
  const rest = lines.slice(i).join('\n');
  const block = /^\s*\/\*\*?([\s\S]*?)\*\//.exec(rest)?.[1];
  const doc = /^\s*(?:"""|''')([\s\S]*?)(?:"""|''')/.exec(rest)?.[1];
  let body = block ?? doc;
  if (body === undefined) {
    const run: string[] = [];
    for (const line of lines.slice(i)) {
      const m = /^\s*(?:\/\/+|#+|--)\s?(.*)$/.exec(line);
      if (!m) break;
      run.push(m[1] ?? '');
    }
    body = run.join('\n');
  }
  // The first paragraph, without comment stars and @tags.
  const paragraph =
    body
      .split('\n')
      .map((l) => l.replace(/^\s*\*\s?/, ''))
      .filter((l) => !/^\s*@/.test(l))
      .join('\n')
      .split(/\n\s*\n/)
      .find((p) => p.trim() !== '') ?? '';
  const text1 = clean(paragraph);
  if (text1 === '') return '';
  const sentences = text1.match(/[^.!?]+[.!?]+(\s|$)/g) ?? [text1];
  let out = '';
  for (const s of sentences) {
    if (out.length + s.length > 240) break;
    out += s;
  }
  return clean(out || text1.slice(0, 240));
}

const SYMBOL_PATTERNS: Record<string, RegExp[]> = {
  js: [
    /^export\s+(?:default\s+)?(?:async\s+)?(?:function\*?|class|interface|type|enum|const|let|var|abstract\s+class)\s+([A-Za-z_$][\w$]*)/gm,
    /^export\s*\{([^}]+)\}/gm,
  ],
  py: [/^(?:async\s+)?def\s+([A-Za-z]\w*)/gm, /^class\s+([A-Za-z]\w*)/gm],
  go: [/^func\s+(?:\([^)]*\)\s*)?([A-Z]\w*)/gm, /^type\s+([A-Z]\w*)/gm],
  rs: [/^pub(?:\([^)]*\))?\s+(?:async\s+)?(?:fn|struct|enum|trait|type|const)\s+([A-Za-z_]\w*)/gm],
  rb: [/^\s*(?:def|class|module)\s+(?:self\.)?([A-Za-z_]\w*[?!]?)/gm],
};

const FAMILY: Record<string, string> = {
  TypeScript: 'js',
  JavaScript: 'js',
  Vue: 'js',
  Svelte: 'js',
  Python: 'py',
  Go: 'go',
  Rust: 'rs',
  Ruby: 'rb',
};

/** Names a file exports or defines at its top level (at most `max`). */
export function topSymbols(text: string, language: string, max = 20): string[] {
  const patterns = SYMBOL_PATTERNS[FAMILY[language] ?? ''] ?? [];
  const out: string[] = [];
  for (const re of patterns) {
    for (const m of text.matchAll(re)) {
      const names = (m[1] ?? '')
        .split(',')
        .map(
          (n) =>
            n
              .trim()
              .split(/\s+as\s+/)
              .pop()
              ?.replace(/^type\s+/, '') ?? '',
        )
        .filter((n) => /^[A-Za-z_$][\w$?!]*$/.test(n));
      for (const n of names) if (!out.includes(n) && out.length < max) out.push(n);
    }
  }
  return out;
}

/** Summarise a file's content. */
export function summariseFile(path: string, content: Buffer): FileSummary {
  const text = content.toString('utf8');
  const language = languageOf(path);
  const lines = text === '' ? 0 : text.replace(/\r?\n$/, '').split(/\r?\n/).length;
  return {
    language,
    lines,
    size: content.length,
    purpose: headerPurpose(text),
    symbols: topSymbols(text, language),
  };
}
