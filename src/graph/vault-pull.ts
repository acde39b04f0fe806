/**
 * A vault sync's phase 1, vault → store, for each note whose hash differs from its stored base (see
 * `vault-sync`): a changed memory note merged three ways and its human changes applied to the memory,
 * a malformed one flagged, a deleted one archiving its memory, and hand-written typed notes made into
 * memories (an id line added).
 */
import { isEngramError } from '../core/errors.ts';
import type { ProjectId } from '../core/ids.ts';
import { scrubText } from '../core/scrub.ts';
import { insertFrontmatterLine } from './frontmatter.ts';
import { mergeNote } from './note-merge.ts';
import { noteNameOf } from './note-names.ts';
import { parseMemoryNote, type NoteFields } from './note-parse.ts';
import { DERIVED_NOTE_USER_KEYS, MEMORY_USER_KEYS, renderNode } from './note-render.ts';
import { ingestNoteEdit, isMemoryType, memoryFromNote } from './vault-ingest.ts';
import type { VaultFile } from './vault-scan.ts';
import { currentNameOf, REJECTED, type SyncState } from './vault-sync-state.ts';

/** Human-changed fields of a note: the merged value where the vault differs from the base. */
function humanFields(base: NoteFields, vault: NoteFields, merged: NoteFields): NoteFields {
  const pick = <K extends keyof NoteFields>(k: K): NoteFields[K] =>
    JSON.stringify(vault[k]) !== JSON.stringify(base[k]) ? merged[k] : base[k];
  return {
    ...base,
    type: pick('type'),
    title: pick('title'),
    subtitle: pick('subtitle'),
    status: pick('status'),
    tags: pick('tags'),
    pinned: pick('pinned'),
    narrative: pick('narrative'),
    facts: pick('facts'),
    links: pick('links'),
    textLinks: pick('textLinks'),
  };
}

/** Notes changed or deleted in the vault since their stored base: brought into the store. */
export function pullChangedNotes(state: SyncState): void {
  const { store, dir, report, ctx, rows, fileById, inScope, skip } = state;
  const currentName = currentNameOf(state);
  for (const row of rows.values()) {
    if (!inScope.has(row.projectId)) continue;
    const file = fileById.get(row.nodeId);
    if (file && file.hash === row.baseHash) continue;
    const g = state.graphOf(row.projectId);
    const node = g?.nodes.get(row.nodeId);
    if (!file) {
      if (node?.kind === 'memory' && node.memory.status !== 'archived') {
        store.memory.archive(node.id, 'its note was deleted in the vault', ctx);
        report.archived++;
      }
      if (node?.kind === 'memory' || !node) store.vaults.dropNote(dir, row.nodeId);
      continue;
    }
    if (file.hash === row.baseHash || !g || !node) continue;
    const parsed = parseMemoryNote(file.text);
    if (!parsed.ok) {
      skip.add(row.nodeId);
      report.flagged.push({ path: file.path, reason: parsed.error });
      store.vaults.flag(dir, row.nodeId, file.path, parsed.error, ctx.at);
      continue;
    }
    const s0 = renderNode(state.renderCtx(g, currentName), node);
    const keys = node.kind === 'memory' ? MEMORY_USER_KEYS : DERIVED_NOTE_USER_KEYS;
    const m = mergeNote(row.renderText, file.text, s0, keys);
    if (m.conflicts > 0) {
      report.conflicts += m.conflicts;
      store.vaults.addRevision(
        dir,
        {
          nodeId: row.nodeId,
          projectId: row.projectId,
          path: file.path,
          storeText: s0,
          vaultText: scrubText(file.text),
        },
        ctx.at,
      );
    }
    state.merged.set(row.nodeId, { text: m.text, s0 });
    if (node.kind !== 'memory') continue;
    const base = parseMemoryNote(row.baseText);
    const after = parseMemoryNote(m.text);
    if (!base.ok || !after.ok) continue;
    try {
      const r = ingestNoteEdit(
        store,
        node.memory,
        base.fields,
        humanFields(base.fields, parsed.fields, after.fields),
        state.resolverFor(file.path),
        ctx,
      );
      if (r.edited) report.ingested++;
      if (m.conflicts === 0) state.accepted.add(row.nodeId);
      for (const message of r.notices) report.notices.push({ path: file.path, message });
    } catch (error) {
      if (!isEngramError(error, 'INPUT_INVALID', 'NOT_FOUND')) throw error;
      skip.add(row.nodeId);
      report.flagged.push({ path: file.path, reason: error.message });
      store.vaults.flag(dir, row.nodeId, file.path, error.message, ctx.at);
    }
  }
}

/** Hand-written notes with a memory type: new memories (their note gets an id line in phase 2). */
export function pullHandWrittenNotes(state: SyncState): void {
  const { store, dir, report, ctx } = state;
  const reject = (f: VaultFile, reason: string) => {
    report.flagged.push({ path: f.path, reason });
    store.vaults.putNote(
      dir,
      {
        nodeId: `${REJECTED}${f.path}`,
        projectId: state.projectOfPath(f.path) as string,
        path: f.path,
        baseHash: f.hash,
        baseText: '',
        renderText: '',
        flag: reason,
      },
      ctx.at,
    );
  };
  for (const f of state.handWritten) {
    const projectId = state.projectOfPath(f.path) as string;
    const parsed = parseMemoryNote(f.text);
    if (!parsed.ok) {
      reject(f, parsed.error);
      continue;
    }
    if (!isMemoryType(parsed.fields.type)) continue; // a note of the human's own kind: not engram's
    const made = memoryFromNote(
      store,
      projectId as ProjectId,
      f.path,
      parsed.fields,
      noteNameOf(f.path),
      ctx,
    );
    if (!made.ok) {
      reject(f, made.reason);
      continue;
    }
    store.vaults.dropNote(dir, `${REJECTED}${f.path}`);
    report.handWritten++;
    const text = insertFrontmatterLine(f.text, 'id', made.id);
    state.newNotes.set(made.id, { file: f, text });
    state.fileById.set(made.id, { ...f, id: made.id });
    state.resetTargets();
    const empty: NoteFields = {
      ...parsed.fields,
      links: { supersedes: [], related: [], depends_on: [] },
      textLinks: [],
    };
    const memory = store.observations.get(made.id);
    if (memory) ingestNoteEdit(store, memory, empty, parsed.fields, state.resolverFor(f.path), ctx);
  }
}
