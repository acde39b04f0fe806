/**
 * Rendering nodes as Obsidian notes: YAML frontmatter (immutable `id`, `type`, `status`, dates, tags,
 * aliases, …), the memory's own text (narrative, facts, typed links as inline fields that a human may
 * edit), and a derived region (files, session, backlinks, a stale banner) engram rewrites and never
 * reads back. Rendering is a pure function of the store's state: the same state gives the same bytes.
 */
import { EDITABLE_EDGE_KINDS, type Edge } from '../core/graph.ts';
import { derivedBlock } from './derived-region.ts';
import { joinNote } from './frontmatter.ts';
import type {
  FileGraphNode,
  GraphNode,
  MemoryNode,
  ProjectGraph,
  SessionGraphNode,
} from './project-graph.ts';
import { nodeCreatedAt, nodeUpdatedAt } from './project-graph.ts';
import { taskItems } from './task-status.ts';
import { emitFrontmatter } from './yaml-emit.ts';
import { parseWikiLinks } from './wiki-links.ts';

/** Frontmatter keys a human owns: in a merge the vault's value wins. The rest are engram's. */
export const MEMORY_USER_KEYS: ReadonlySet<string> = new Set([
  'title',
  'subtitle',
  'type',
  'status',
  'tags',
  'aliases',
  'pinned',
]);
export const DERIVED_NOTE_USER_KEYS: ReadonlySet<string> = new Set(['tags', 'aliases']);

export interface RenderContext {
  graph: ProjectGraph;
  projectName: string;
  /** The note name of a node in this vault, or null when it has no note. */
  nameOf(id: string): string | null;
  /**
   * Whether a wiki-link written in a memory's text resolves to a note of the vault; one that does not
   * is escaped (`\[\[…\]\]`, plain text in Obsidian), so every link in the vault resolves. Default: all do.
   */
  linkResolves?: (target: string) => boolean;
}

/** A memory's text with wiki-links that resolve to no note escaped (read back unescaped). */
export function escapeDanglingLinks(text: string, resolves: (target: string) => boolean): string {
  if (!text.includes('[[')) return text; // no link at all (most texts): nothing to parse
  const links = parseWikiLinks(text).filter((l) => !resolves(l.target));
  let out = text;
  for (const l of [...links].reverse()) {
    const escaped = l.raw.replace(/\[\[/, '\\[\\[').replace(/\]\]$/, '\\]\\]');
    out = out.slice(0, l.index) + escaped + out.slice(l.index + l.raw.length);
  }
  return out;
}

const pad2 = (n: number) => (n < 10 ? `0${n}` : `${n}`);
/** 10000-01-01T00:00:00Z: from there on ISO years take six digits (left to `Date`). */
const YEAR_10000 = 253_402_300_800_000;

/**
 * A UTC time as Obsidian's date-time properties read it: `toISOString()` to the second. Worked out
 * from the day count (the civil-from-days algorithm) for times from 1970 to 9999 — a few times per
 * note; a `Date` and its ISO string cost several times more —, by `Date` otherwise.
 */
export function noteTime(ms: number): string {
  if (!(ms >= 0 && ms < YEAR_10000)) return new Date(ms).toISOString().slice(0, 19);
  const seconds = Math.floor(ms / 1000);
  const days = Math.floor(seconds / 86_400);
  const inDay = seconds - days * 86_400;
  const z = days + 719_468; // days since 0000-03-01
  const era = Math.floor(z / 146_097);
  const ofEra = z - era * 146_097;
  const yearOfEra = Math.floor(
    (ofEra - Math.floor(ofEra / 1460) + Math.floor(ofEra / 36_524) - Math.floor(ofEra / 146_096)) / 365,
  );
  const ofYear = ofEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const m5 = Math.floor((5 * ofYear + 2) / 153); // months since March
  const day = ofYear - Math.floor((153 * m5 + 2) / 5) + 1;
  const month = m5 < 10 ? m5 + 3 : m5 - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  return `${String(year).padStart(4, '0')}-${pad2(month)}-${pad2(day)}T${pad2(Math.floor(inDay / 3600))}:${pad2(Math.floor((inDay % 3600) / 60))}:${pad2(inDay % 60)}`;
}

const link = (name: string) => `[[${name}]]`;

/** Links to the named nodes that have notes, in order, without repeats. */
function links(ctx: RenderContext, ids: readonly string[]): string[] {
  if (ids.length === 0) return []; // most lists of a note are empty: no set made for them
  const out: string[] = [];
  const seen = new Set<string>();
  for (const id of ids) {
    const name = ctx.nameOf(id);
    if (name === null || seen.has(name)) continue;
    seen.add(name);
    out.push(link(name));
  }
  return out;
}

/**
 * Tags worked out lately, by concept: a project's memories share a small vocabulary of concepts, and
 * an export asks for each memory's tags twice (its note, graph.json).
 */
const tags = new Map<string, string>();
const TAGS_KEPT = 4096;

/** Obsidian tags: no spaces, no leading digit-only words. */
export function tagOf(concept: string): string {
  let t = tags.get(concept);
  if (t === undefined) {
    t = makeTag(concept);
    if (tags.size >= TAGS_KEPT) tags.clear();
    tags.set(concept, t);
  }
  return t;
}

function makeTag(concept: string): string {
  const t = concept
    .trim()
    .replace(/^#/, '')
    .replace(/\s+/g, '-')
    .replace(/[^\p{L}\p{N}_/-]/gu, '');
  return /^\d+$/.test(t) ? `n${t}` : t;
}

const oneLine = (s: string) => s.replace(/\s*\n\s*/g, ' ').trim();

/** Notes linking here (any edge into the node): computed, never stored. */
function backlinkLines(ctx: RenderContext, id: string): string[] {
  const names = links(
    ctx,
    (ctx.graph.in.get(id) ?? []).map((e) => e.from),
  );
  return names.length > 0 ? [`backlinks:: ${names.join(', ')}`] : [];
}

function outOfKind(ctx: RenderContext, id: string, kind: Edge['kind']): string[] {
  return (ctx.graph.out.get(id) ?? []).filter((e) => e.kind === kind).map((e) => e.to);
}

/** A node's edges out, their targets by kind (in order): one pass for every kind its note lists. */
function outByKind(ctx: RenderContext, id: string): Partial<Record<Edge['kind'], string[]>> {
  const byKind: Partial<Record<Edge['kind'], string[]>> = {};
  for (const e of ctx.graph.out.get(id) ?? []) (byKind[e.kind] ??= []).push(e.to);
  return byKind;
}

/** The note of a memory. */
export function renderMemoryNote(ctx: RenderContext, n: MemoryNode): string {
  const m = n.memory;
  const files = [...new Set([...m.filesModified, ...m.filesRead])];
  const text = (t: string) => (ctx.linkResolves ? escapeDanglingLinks(t, ctx.linkResolves) : t);
  const yaml = emitFrontmatter({
    id: m.id,
    type: m.type,
    title: text(m.title),
    subtitle: m.subtitle === '' ? undefined : text(m.subtitle),
    status: m.status,
    tags: [...new Set(m.concepts.map(tagOf).filter((t) => t !== ''))],
    aliases: [],
    pinned: m.pinned ? true : undefined,
    created: noteTime(m.createdAt),
    updated: noteTime(m.modifiedAt),
    project: ctx.projectName,
    session_id: m.sessionId ?? undefined,
    source: m.source,
    trust: m.trust,
    review: m.review === 'clear' ? undefined : m.review,
    files: files.length > 0 ? files : undefined,
    stale_since: n.stale ? noteTime(n.stale.since) : undefined,
  });
  const body: string[] = [];
  if (m.narrative !== '') body.push(text(m.narrative), '');
  if (m.facts.length > 0) body.push('## Facts', '', ...m.facts.map((f) => `- ${text(oneLine(f))}`), '');
  const out = outByKind(ctx, m.id);
  const typed: string[] = [];
  for (const kind of EDITABLE_EDGE_KINDS) {
    const targets = links(ctx, out[kind] ?? []);
    if (targets.length > 0) typed.push(`${kind}:: ${targets.join(', ')}`);
  }
  if (typed.length > 0) body.push(...typed, '');
  const derived: string[] = [];
  if (n.stale)
    derived.push(
      `> [!warning] Stale since ${noteTime(n.stale.since).slice(0, 10)}: ${oneLine(n.stale.reason)}`,
      '',
    );
  if (m.status !== 'active')
    derived.push(`> [!note] ${m.status}${m.statusReason ? `: ${oneLine(m.statusReason)}` : ''}`, '');
  if (m.review === 'held')
    derived.push(
      `> [!danger] Quarantined (never injected until a person approves it: \`engram review\`): ${oneLine(m.reviewReason ?? 'instruction-like text')}`,
      '',
    );
  const fileLinks = links(ctx, out.touches ?? []);
  if (fileLinks.length > 0) derived.push(`touches:: ${fileLinks.join(', ')}`);
  const partOf = links(ctx, out.part_of ?? []);
  if (partOf.length > 0) derived.push(`part_of:: ${partOf.join(', ')}`);
  derived.push(...backlinkLines(ctx, m.id));
  if (derived[derived.length - 1] === '') derived.pop();
  return joinNote(yaml, `${body.join('\n')}${body.length > 0 ? '\n' : ''}${derivedBlock(derived)}`);
}

/** The note of a file node: everything in it is derived (a human's own lines around it are kept). */
export function renderFileNote(ctx: RenderContext, n: FileGraphNode): string {
  const f = n.file;
  const yaml = emitFrontmatter({
    id: f.id,
    type: n.type,
    path: f.path,
    project: ctx.projectName,
    status: f.deletedAt === null ? 'active' : 'deleted',
    language: f.language || undefined,
    lines: f.lines,
    size: f.size,
    tags: [],
    aliases: [],
    created: noteTime(nodeCreatedAt(n)),
    updated: noteTime(nodeUpdatedAt(n)),
  });
  const derived: string[] = [`# ${f.path}`, ''];
  if (f.purpose !== '') derived.push(`Purpose: ${oneLine(f.purpose)}`);
  if (f.symbols.length > 0) derived.push(`Defines: ${f.symbols.map((s) => `\`${s}\``).join(', ')}`);
  if (f.deletedAt !== null)
    derived.push(`> [!warning] Gone from the project since ${noteTime(f.deletedAt).slice(0, 10)}`);
  const touching = (ctx.graph.in.get(f.id) ?? []).filter((e) => e.kind === 'touches').map((e) => e.from);
  const memories = links(
    ctx,
    touching.filter((id) => ctx.graph.nodes.get(id)?.kind === 'memory'),
  );
  const sessions = links(
    ctx,
    touching.filter((id) => ctx.graph.nodes.get(id)?.kind === 'session'),
  );
  if (derived[derived.length - 1] !== '') derived.push('');
  if (memories.length > 0) derived.push(`touched_by:: ${memories.join(', ')}`);
  if (sessions.length > 0) derived.push(`sessions:: ${sessions.join(', ')}`);
  if (derived[derived.length - 1] === '') derived.pop();
  return joinNote(yaml, derivedBlock(derived));
}

/** The note of a session: what it asked, completed, left in progress, decided, found, changed. */
export function renderSessionNote(ctx: RenderContext, n: SessionGraphNode): string {
  const s = n.summary;
  const yaml = emitFrontmatter({
    id: n.id,
    type: 'session',
    title: n.title,
    session_id: n.session.id,
    project: ctx.projectName,
    status: n.session.status,
    started: noteTime(n.session.startedAt),
    ended: n.session.endedAt === null ? undefined : noteTime(n.session.endedAt),
    tags: [],
    aliases: [],
    created: noteTime(nodeCreatedAt(n)),
    updated: noteTime(nodeUpdatedAt(n)),
  });
  const members = (ctx.graph.in.get(n.id) ?? [])
    .filter((e) => e.kind === 'part_of')
    .map((e) => ctx.graph.nodes.get(e.from))
    .filter((m): m is MemoryNode => m?.kind === 'memory');
  const derived: string[] = [];
  const field = (label: string, text: string | undefined) => {
    if (text && text.trim() !== '') derived.push(`**${label}**: ${oneLine(text)}`);
  };
  field('Request', s?.request);
  field('Completed', s?.completed);
  field('Learned', s?.learned);
  field('Next steps', s?.nextSteps);
  const lastTask = [...members].reverse().find((m) => m.type === 'task');
  const items = lastTask ? taskItems(lastTask.memory) : [];
  const section = (heading: string, lines: string[]) => {
    if (lines.length === 0) return;
    if (derived.length > 0) derived.push('');
    derived.push(`## ${heading}`, ...lines);
  };
  section(
    'Completed tasks',
    items.filter((i) => i.status === 'completed').map((i) => `- [x] ${i.text}`),
  );
  section(
    'In progress',
    items
      .filter((i) => i.status !== 'completed')
      .map((i) => `- [ ] ${i.text}${i.status === 'in_progress' ? ' (in progress)' : ''}`),
  );
  const ofType = (types: string[]) =>
    links(
      ctx,
      members.filter((m) => types.includes(m.type)).map((m) => m.id),
    ).map((l) => `- ${l}`);
  section('Decisions', ofType(['decision']));
  section('Discoveries', ofType(['discovery', 'fact']));
  section('Errors', ofType(['error', 'gotcha', 'bugfix', 'failed_attempt']));
  const files = links(ctx, outOfKind(ctx, n.id, 'touches')).map((l) => `- ${l}`);
  section('Files modified', files);
  const shown = new Set([
    'decision',
    'discovery',
    'fact',
    'error',
    'gotcha',
    'bugfix',
    'failed_attempt',
    'task',
  ]);
  section(
    'Other memories',
    links(
      ctx,
      members.filter((m) => !shown.has(m.type)).map((m) => m.id),
    ).map((l) => `- ${l}`),
  );
  return joinNote(yaml, derivedBlock(derived.length > 0 ? derived : ['(nothing recorded)']));
}

/** A node's note. */
export function renderNode(ctx: RenderContext, n: GraphNode): string {
  if (n.kind === 'memory') return renderMemoryNote(ctx, n);
  if (n.kind === 'file') return renderFileNote(ctx, n);
  return renderSessionNote(ctx, n);
}
