/**
 * What a human changed in a note, brought back into the store as edits with origin `vault` (through
 * the mutation path, which scrubs them): the human-owned fields that differ from the note's base, the
 * status (invalidate, archive, restore), the pin, and links added or removed (typed inline fields and
 * wiki-links in the text). A new note written by hand with a `type` becomes a memory.
 */
import { EDITABLE_EDGE_KINDS } from '../core/graph.ts';
import type { ObservationId, ProjectId } from '../core/ids.ts';
import type { Observation, ObservationDraft } from '../core/model.ts';
import type { MutationContext } from '../store/memory-writer.ts';
import type { Store } from '../store/store.ts';
import { DERIVED_NOTE_TYPES } from './note-names.ts';
import type { NoteFields } from './note-parse.ts';

/** Resolves a link target written in a note to a node id (Obsidian's rules, then the note's id). */
export type TargetResolver = (target: string) => string | null;

const TYPE_RE = /^[a-z][a-z0-9_-]{0,39}$/;

/** Whether a note's `type` can be a memory's. */
export function isMemoryType(type: string | null): type is string {
  return type !== null && TYPE_RE.test(type) && !DERIVED_NOTE_TYPES.has(type);
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const norm = (targets: readonly string[]) => [...new Set(targets.map((t) => t.trim().toLowerCase()))];

export interface IngestResult {
  edited: boolean;
  /** What could not be taken (a bad status, an unresolved link…): shown in the sync report. */
  notices: string[];
}

/** Apply a human's edit of a memory note (`before`: the note's base, `after`: the note now). */
export function ingestNoteEdit(
  store: Store,
  memory: Observation,
  before: NoteFields,
  after: NoteFields,
  resolve: TargetResolver,
  ctx: MutationContext,
): IngestResult {
  const result: IngestResult = { edited: false, notices: [] };
  const patch: Partial<ObservationDraft> = {};
  if (after.title !== before.title && after.title && after.title.trim() !== '') patch.title = after.title;
  if (after.subtitle !== before.subtitle) patch.subtitle = after.subtitle;
  if (after.narrative !== before.narrative) patch.narrative = after.narrative;
  if (!same(after.facts, before.facts)) patch.facts = after.facts;
  if (!same(norm(after.tags), norm(before.tags))) patch.concepts = after.tags;
  if (after.type !== before.type) {
    if (isMemoryType(after.type)) patch.type = after.type as ObservationDraft['type'];
    else result.notices.push(`type "${after.type ?? ''}" is not a memory type; kept ${memory.type}`);
  }
  const id = memory.id;
  if (Object.keys(patch).length > 0) {
    store.memory.edit(id, patch, ctx);
    result.edited = true;
  }
  if (after.pinned !== before.pinned)
    result.edited = store.memory.pin(id, after.pinned, ctx) || result.edited;
  if (after.status !== before.status && after.status !== null) {
    const current = store.observations.get(id);
    const status = after.status;
    if (status === current?.status) {
      // Already so (engram changed it too).
    } else if (status === 'invalidated')
      result.edited = store.memory.invalidate(id, 'invalidated in the vault', ctx);
    else if (status === 'archived') result.edited = store.memory.archive(id, 'archived in the vault', ctx);
    else if (status === 'active') {
      store.memory.restore(id, ctx);
      result.edited = true;
      if (store.observations.get(id)?.status !== 'active')
        result.notices.push('status active: the previous version was not active; restored that version');
    } else
      result.notices.push(`status "${status}" cannot be set by hand (use supersedes:: to replace a memory)`);
  }
  for (const kind of EDITABLE_EDGE_KINDS) {
    const was = norm(before.links[kind]);
    const now = norm(after.links[kind]);
    for (const target of now.filter((t) => !was.includes(t))) {
      const to = resolve(target);
      if (to === null) result.notices.push(`${kind}:: [[${target}]] does not resolve to a note`);
      else if (kind === 'supersedes') result.edited = store.memory.supersede(to, id, ctx) || result.edited;
      else result.edited = store.memory.link(id, kind, to, memory.projectId, ctx) || result.edited;
    }
    for (const target of was.filter((t) => !now.includes(t))) {
      const to = resolve(target);
      if (to !== null)
        result.edited = store.memory.unlink(id, kind, to, memory.projectId, ctx) || result.edited;
    }
  }
  const wasText = norm(before.textLinks);
  const nowText = norm(after.textLinks);
  for (const target of nowText.filter((t) => !wasText.includes(t))) {
    const to = resolve(target);
    if (to !== null && to !== id)
      result.edited = store.memory.link(id, 'links_to', to, memory.projectId, ctx) || result.edited;
  }
  for (const target of wasText.filter((t) => !nowText.includes(t))) {
    const to = resolve(target);
    if (to !== null)
      result.edited = store.memory.unlink(id, 'links_to', to, memory.projectId, ctx) || result.edited;
  }
  return result;
}

export type CreatedFromNote = { ok: true; id: ObservationId } | { ok: false; reason: string };

/** A note written by hand (with a memory `type`) becomes a memory; links are added by the caller. */
export function memoryFromNote(
  store: Store,
  projectId: ProjectId,
  path: string,
  fields: NoteFields,
  fallbackTitle: string,
  ctx: MutationContext,
): CreatedFromNote {
  if (!isMemoryType(fields.type))
    return { ok: false, reason: `type "${fields.type ?? ''}" is not a memory type` };
  const { id, outcome } = store.memory.create(
    {
      projectId,
      sessionId: null,
      source: 'manual',
      createdAt: ctx.at,
      provenance: [`vault:${path}`],
      draft: {
        type: fields.type as ObservationDraft['type'],
        title: fields.title?.trim() || fallbackTitle,
        subtitle: fields.subtitle,
        narrative: fields.narrative,
        facts: fields.facts,
        concepts: fields.tags,
        filesRead: [],
        filesModified: [],
      },
      pinned: fields.pinned,
    },
    ctx,
  );
  if (outcome === 'created') return { ok: true, id };
  return {
    ok: false,
    reason:
      outcome === 'merged'
        ? `the same memory exists already (${id}); the note was left as it is`
        : 'it matches a forgotten memory, which stays forgotten',
  };
}
