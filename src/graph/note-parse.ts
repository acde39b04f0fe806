/**
 * Reading a memory back from its note: the frontmatter's human-owned keys, the narrative, the facts
 * (bullets under `## Facts`), typed links written as inline fields (`related:: [[…]]`) and wiki-links
 * in the text. Derived regions are dropped first: they are never read back.
 */
import { EDITABLE_EDGE_KINDS, type EditableEdgeKind } from '../core/graph.ts';
import { stripDerived } from './derived-region.ts';
import { frontmatterValues, splitNote } from './frontmatter.ts';
import { parseWikiLinks } from './wiki-links.ts';

export interface NoteFields {
  id: string | null;
  type: string | null;
  title: string | null;
  subtitle: string;
  status: string | null;
  tags: string[];
  pinned: boolean;
  narrative: string;
  facts: string[];
  /** Targets (as written) of each typed link kind. */
  links: Record<EditableEdgeKind, string[]>;
  /** Targets (as written) of wiki-links in the narrative and facts. */
  textLinks: string[];
  /** Every frontmatter value (unknown keys included). */
  data: Record<string, unknown>;
}

export type ParsedNote = { ok: true; fields: NoteFields } | { ok: false; error: string };

const asString = (v: unknown): string | null =>
  typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : null;

function asList(v: unknown): string[] {
  if (Array.isArray(v)) return v.map(asString).filter((s): s is string => s !== null && s.trim() !== '');
  const s = asString(v);
  return s === null || s.trim() === '' ? [] : s.split(/[,\s]+/).filter(Boolean);
}

const TYPED = new RegExp(`^\\s*(${EDITABLE_EDGE_KINDS.join('|')})::\\s*(.*)$`);

/** Parse a memory note. Malformed frontmatter is an error (the note is then left alone). */
export function parseMemoryNote(text: string): ParsedNote {
  const parts = splitNote(text);
  const fm = frontmatterValues(parts.yaml);
  if (!fm.ok) return { ok: false, error: `malformed frontmatter: ${fm.error}` };
  const d = fm.data;
  const links = Object.fromEntries(EDITABLE_EDGE_KINDS.map((k) => [k, [] as string[]])) as Record<
    EditableEdgeKind,
    string[]
  >;
  const narrative: string[] = [];
  const facts: string[] = [];
  let inFacts = false;
  for (const line of stripDerived(parts.body).split(/\r?\n/)) {
    const typed = TYPED.exec(line);
    if (typed) {
      const kind = typed[1] as EditableEdgeKind;
      links[kind].push(...parseWikiLinks(typed[2] ?? '').map((l) => l.target));
      continue;
    }
    if (/^#{1,6}\s/.test(line)) {
      inFacts = /^##\s+facts\s*$/i.test(line.trim());
      if (inFacts) continue;
    }
    const bullet = inFacts ? /^\s*[-*+]\s+(.*)$/.exec(line) : null;
    if (bullet) facts.push((bullet[1] ?? '').trim());
    else if (!(inFacts && line.trim() === '')) narrative.push(line);
  }
  // Links engram escaped because they resolved to no note are read back as written.
  const unescape = (t: string) => t.replace(/\\\[\\\[([^[\]\n]+?)\\\]\\\]/g, '[[$1]]');
  const narrativeText = unescape(
    narrative
      .join('\n')
      .replace(/\n{3,}/g, '\n\n')
      .trim(),
  );
  const textLinks = parseWikiLinks([narrative.join('\n'), ...facts].join('\n')).map((l) => l.target);
  return {
    ok: true,
    fields: {
      id: asString(d['id']),
      type: asString(d['type']),
      title: ((t) => (t === null ? null : unescape(t)))(asString(d['title'])),
      subtitle: unescape(asString(d['subtitle']) ?? ''),
      status: asString(d['status']),
      tags: asList(d['tags']).map((t) => t.replace(/^#/, '')),
      pinned: d['pinned'] === true,
      narrative: narrativeText,
      facts: facts.filter((f) => f !== '').map(unescape),
      links,
      textLinks,
      data: d,
    },
  };
}
