/**
 * A TOML file cut into its statements, with their exact byte ranges, so an installer can take out or
 * put in one table and leave every other byte as it was. Not a TOML parser: values are skipped over
 * (strings of the four kinds, arrays and inline tables spanning lines, comments), only keys and table
 * headers are read. A file this scanner cannot follow is refused, never guessed at.
 */
import { EngramError } from '../../core/errors.ts';

export interface TomlStatement {
  kind: 'table' | 'array-table' | 'pair' | 'blank' | 'comment';
  /** Offset of the statement's first character (its line's start). */
  start: number;
  /** Offset just after it (after its closing newline, or the end of the file). */
  end: number;
  /** A header's key, or a pair's key, as its dotted parts (quotes taken off). */
  key: string[];
  /** The table a pair sits in (the last header before it; empty: the root table). */
  table: string[];
}

const BARE = /[A-Za-z0-9_-]/;

class Cursor {
  i = 0;
  constructor(
    readonly text: string,
    readonly file: string,
  ) {}
  get ch(): string {
    return this.text[this.i] ?? '';
  }
  startsWith(s: string): boolean {
    return this.text.startsWith(s, this.i);
  }
  fail(what: string): never {
    const line = this.text.slice(0, this.i).split('\n').length;
    throw new EngramError('INSTALL_FAILED', `${this.file}: ${what} on line ${line}; nothing was changed`, {
      hint: 'Fix the file (codex reads it too) and run the command again.',
    });
  }
  spaces(): void {
    while (this.ch === ' ' || this.ch === '\t') this.i += 1;
  }
  /** To the end of the line, the newline included. */
  restOfLine(): void {
    const nl = this.text.indexOf('\n', this.i);
    this.i = nl === -1 ? this.text.length : nl + 1;
  }
}

/** A quoted string from the cursor (on its opening quote); returns its text, escapes left as written. */
function quoted(c: Cursor): string {
  const q = c.ch;
  const triple = c.startsWith(q.repeat(3));
  c.i += triple ? 3 : 1;
  const from = c.i;
  for (;;) {
    if (c.i >= c.text.length) c.fail('an unclosed string');
    if (q === '"' && c.ch === '\\') {
      c.i += 2;
      continue;
    }
    if (!triple && c.ch === '\n') c.fail('a string broken by a newline');
    if (triple ? c.startsWith(q.repeat(3)) : c.ch === q) {
      const body = c.text.slice(from, c.i);
      // A closing run of four or five quotes ends a multi-line string too (its first ones are text).
      let run = 1;
      if (triple) for (run = 3; run < 5 && c.text[c.i + run] === q;) run += 1;
      c.i += run;
      return body;
    }
    c.i += 1;
  }
}

/** A dotted key (`a."b.c".d`), up to (not including) `=` or `]`. */
function dottedKey(c: Cursor): string[] {
  const parts: string[] = [];
  for (;;) {
    c.spaces();
    if (c.ch === '"' || c.ch === "'") {
      if (c.startsWith(c.ch.repeat(3))) c.fail('a multi-line string as a key');
      parts.push(quoted(c));
    } else {
      const from = c.i;
      while (BARE.test(c.ch)) c.i += 1;
      if (c.i === from) c.fail('a key that cannot be read');
      parts.push(c.text.slice(from, c.i));
    }
    c.spaces();
    if (c.ch !== '.') return parts;
    c.i += 1;
  }
}

/** Skips a value: strings, nested arrays and inline tables (which may span lines), up to the line's end. */
function skipValue(c: Cursor): void {
  let depth = 0;
  while (c.i < c.text.length) {
    const ch = c.ch;
    if (ch === '"' || ch === "'") quoted(c);
    else if (ch === '[' || ch === '{') {
      depth += 1;
      c.i += 1;
    } else if (ch === ']' || ch === '}') {
      depth -= 1;
      if (depth < 0) c.fail('an unmatched bracket');
      c.i += 1;
    } else if (ch === '#') {
      const nl = c.text.indexOf('\n', c.i);
      c.i = nl === -1 ? c.text.length : nl;
    } else if (ch === '\n') {
      c.i += 1;
      if (depth === 0) return;
    } else c.i += 1;
  }
  if (depth !== 0) c.fail('an unclosed array or inline table');
}

/** The statements of `text`, in order, covering it exactly. Throws INSTALL_FAILED where it cannot follow. */
export function tomlStatements(text: string, file: string): TomlStatement[] {
  const c = new Cursor(text, file);
  const out: TomlStatement[] = [];
  let table: string[] = [];
  while (c.i < text.length) {
    const start = c.i;
    c.spaces();
    const ch = c.ch;
    if (ch === '\n' || ch === '\r' || ch === '') {
      c.restOfLine();
      out.push({ kind: 'blank', start, end: c.i, key: [], table });
    } else if (ch === '#') {
      c.restOfLine();
      out.push({ kind: 'comment', start, end: c.i, key: [], table });
    } else if (ch === '[') {
      const array = c.startsWith('[[');
      c.i += array ? 2 : 1;
      const key = dottedKey(c);
      if (!c.startsWith(array ? ']]' : ']')) c.fail('a table header that cannot be read');
      c.i += array ? 2 : 1;
      c.spaces();
      if (c.ch !== '#' && c.ch !== '\n' && c.ch !== '\r' && c.ch !== '') c.fail('text after a table header');
      c.restOfLine();
      table = key;
      out.push({ kind: array ? 'array-table' : 'table', start, end: c.i, key, table });
    } else {
      const key = dottedKey(c);
      if (c.ch !== '=') c.fail('a line that is neither a key = value nor a table header');
      c.i += 1;
      skipValue(c);
      out.push({ kind: 'pair', start, end: c.i, key, table });
    }
  }
  return out;
}

/** Whether `key` starts with `prefix`. */
export const keyStartsWith = (key: readonly string[], prefix: readonly string[]): boolean =>
  prefix.every((part, i) => key[i] === part);

/** A TOML basic string of `value` (escapes for `"`, `\` and control characters). */
export function tomlString(value: string): string {
  let out = '"';
  for (const ch of value) {
    const code = ch.codePointAt(0) ?? 0;
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (code < 0x20 || code === 0x7f) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}
