/**
 * A note's YAML frontmatter, edited in place: parsed as a YAML Document (which keeps comments, key
 * order, styles and keys engram does not know), changed key by key only where a value really
 * differs, and left byte for byte as it was when nothing changed. Malformed YAML is reported, never
 * rewritten.
 */
import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';
import type { Document } from 'yaml';

/**
 * The YAML library, loaded the first time a note is parsed: it costs ~50 ms to load, and the CLI
 * bundle holds this module for every command, most of which never read a note.
 */
let yamlLibrary: typeof Yaml | undefined;
const yamlLib = () => (yamlLibrary ??= createRequire(import.meta.url)('yaml') as typeof Yaml);

export interface NoteParts {
  /** The YAML between the fences, or null when the note has no frontmatter. */
  yaml: string | null;
  /** Everything after the closing fence (or the whole note). */
  body: string;
}

const FENCE = /^---[ \t]*\r?\n/;
const CLOSING = /^(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/m;

/** Split a note into frontmatter and body (the frontmatter must open on the very first line). */
export function splitNote(text: string): NoteParts {
  const open = FENCE.exec(text);
  if (!open) return { yaml: null, body: text };
  const rest = text.slice(open[0].length);
  const close = CLOSING.exec(rest);
  if (!close) return { yaml: null, body: text };
  return { yaml: rest.slice(0, close.index), body: rest.slice(close.index + close[0].length) };
}

export type ParsedFrontmatter =
  { ok: true; doc: Document; data: Readonly<Record<string, unknown>> } | { ok: false; error: string };

/** Parse frontmatter YAML; anything but a mapping (or nothing) is malformed for a note. */
function parseYaml(yaml: string): ParsedFrontmatter {
  const { isMap, parseDocument } = yamlLib();
  const doc = parseDocument(yaml, { uniqueKeys: true });
  if (doc.errors.length > 0) return { ok: false, error: doc.errors[0]?.message.split('\n')[0] ?? 'bad YAML' };
  if (doc.contents !== null && !isMap(doc.contents))
    return { ok: false, error: 'the frontmatter is not a set of key: value properties' };
  return { ok: true, doc, data: deepFreeze((doc.toJS() ?? {}) as Record<string, unknown>) };
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/**
 * Frontmatter texts parsed lately (documents never handed out, values frozen): a sync reads the same
 * few several times for each note it merges.
 */
const recent = new Map<string, ParsedFrontmatter>();
const RECENT = 256;

function parsedOnce(yaml: string | null): ParsedFrontmatter {
  const key = yaml ?? '';
  let parsed = recent.get(key);
  if (parsed === undefined) {
    parsed = parseYaml(key);
    if (recent.size >= RECENT) recent.clear();
    recent.set(key, parsed);
  }
  return parsed;
}

/** Parse frontmatter: a document of the caller's own to edit, and its values (frozen). */
export function parseFrontmatter(yaml: string | null): ParsedFrontmatter {
  const parsed = parsedOnce(yaml);
  return parsed.ok ? { ok: true, doc: parsed.doc.clone(), data: parsed.data } : parsed;
}

export type FrontmatterValues =
  { ok: true; data: Readonly<Record<string, unknown>> } | { ok: false; error: string };

/** The values of a frontmatter, for reading only (frozen): no document is made for the caller. */
export function frontmatterValues(yaml: string | null): FrontmatterValues {
  const parsed = parsedOnce(yaml);
  return parsed.ok ? { ok: true, data: parsed.data } : parsed;
}

/** Structural equality of plain YAML values. */
export function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/**
 * Set keys on a parsed frontmatter (undefined removes a key); keys whose value is already equal are
 * not touched, so their formatting stays. New keys go at the end. Returns whether anything changed.
 */
export function setKeys(doc: Document, values: Readonly<Record<string, unknown>>): boolean {
  let changed = false;
  const current = (doc.toJS() ?? {}) as Record<string, unknown>;
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined) {
      if (key in current) {
        doc.delete(key);
        changed = true;
      }
      continue;
    }
    if (key in current && sameValue(current[key], value)) continue;
    doc.set(key, value);
    changed = true;
  }
  return changed;
}

/** The frontmatter as YAML text (no fences), never folding long lines. */
export function yamlText(doc: Document): string {
  return doc.contents === null ? '' : doc.toString({ lineWidth: 0, flowCollectionPadding: false });
}

/** A whole note from YAML text (without fences) and a body. */
export function joinNote(yaml: string, body: string): string {
  const y = yaml === '' || yaml.endsWith('\n') ? yaml : `${yaml}\n`;
  return `---\n${y}---\n${body}`;
}

/**
 * Add `key: value` as the first frontmatter line of a note, leaving every other byte as it was
 * (a note without frontmatter gets one).
 */
export function insertFrontmatterLine(text: string, key: string, value: string): string {
  const open = FENCE.exec(text);
  if (open && splitNote(text).yaml !== null)
    return `${open[0]}${key}: ${value}${open[0].endsWith('\r\n') ? '\r\n' : '\n'}${text.slice(open[0].length)}`;
  return `---\n${key}: ${value}\n---\n${text}`;
}
