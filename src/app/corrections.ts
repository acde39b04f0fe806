/**
 * The corrections every surface offers on a memory: edit, pin and unpin, invalidate, archive, restore.
 * Each is one call of the store's mutation path (store.memory) with the caller's origin, and answers
 * with the memory as it now is and whether anything changed. A caller confined to one project (the
 * agent over MCP) passes its scope; a person's surfaces pass none.
 */
import { EngramError, isEngramError } from '../core/errors.ts';
import { OBSERVATION_TYPES, type Observation, type ObservationDraft } from '../core/model.ts';
import type { MutationContext } from '../store/memory-writer.ts';
import type { Store } from '../store/store.ts';
import { memoryOf, type Scope } from './scope.ts';

/** A correction's answer: the memory after it, and whether it changed. */
export interface Corrected {
  memory: Observation;
  changed: boolean;
}

/** The fields a person or the agent may edit. */
export const EDITABLE_FIELDS = [
  'type',
  'title',
  'subtitle',
  'narrative',
  'facts',
  'concepts',
  'filesRead',
  'filesModified',
] as const;

export type MemoryPatch = Partial<Pick<ObservationDraft, (typeof EDITABLE_FIELDS)[number]>>;

/** The memory a correction is about: in scope, and not forgotten (a forgotten memory cannot change). */
const liveMemory = (store: Store, id: string, scope: Scope | undefined): Observation => {
  const o = memoryOf(store, id, scope);
  if (o.status === 'forgotten')
    throw new EngramError('NOT_FOUND', `no memory with id ${id}`, {
      hint: 'It was forgotten; a search lists the memories there are.',
    });
  return o;
};

/** Change a memory's text, type, facts or files (its id stays; the old text is kept as a version). */
export function edit(
  store: Store,
  id: string,
  patch: MemoryPatch,
  ctx: MutationContext,
  scope?: Scope,
): Corrected {
  const given = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) as MemoryPatch;
  if (Object.keys(given).length === 0)
    throw new EngramError('INPUT_INVALID', 'nothing to change', {
      hint: `Give one or more of: ${EDITABLE_FIELDS.join(', ')}.`,
    });
  if (given.type !== undefined && !(OBSERVATION_TYPES as readonly string[]).includes(given.type))
    throw new EngramError('INPUT_INVALID', `unknown memory type "${given.type}"`, {
      hint: `Use one of: ${OBSERVATION_TYPES.join(', ')}.`,
    });
  const before = liveMemory(store, id, scope);
  const memory = store.memory.edit(id, given, ctx);
  return { memory, changed: memory.version !== before.version };
}

/** What pinning several memories did to each. */
export interface PinOutcome {
  changed: string[];
  unchanged: string[];
  missing: string[];
}

/**
 * Pin memories (standing knowledge: always in the SessionStart index, whatever their age) or unpin
 * them, in one transaction; an id that names no memory is reported, not thrown.
 */
export function pin(
  store: Store,
  ids: readonly string[],
  pinned: boolean,
  ctx: MutationContext,
  scope?: Scope,
): PinOutcome {
  const out: PinOutcome = { changed: [], unchanged: [], missing: [] };
  store.transaction(() => {
    for (const id of ids) {
      try {
        liveMemory(store, id, scope);
        (store.memory.pin(id, pinned, ctx) ? out.changed : out.unchanged).push(id);
      } catch (error) {
        if (!isEngramError(error, 'NOT_FOUND')) throw error;
        out.missing.push(id);
      }
    }
  });
  return out;
}

/** Pin or unpin one memory; NOT_FOUND when the id names no memory (or a forgotten one). */
export function pinOne(
  store: Store,
  id: string,
  pinned: boolean,
  ctx: MutationContext,
  scope?: Scope,
): Corrected {
  liveMemory(store, id, scope);
  const changed = store.memory.pin(id, pinned, ctx);
  return { memory: memoryOf(store, id), changed };
}

/** A reason given by a caller, trimmed; `required`: an empty one is refused. */
function reasonOf(reason: string | undefined, required: boolean): string | undefined {
  const text = reason?.trim();
  if (text !== undefined && text.length > 500)
    throw new EngramError('INPUT_INVALID', 'the reason is longer than 500 characters');
  if (!text && required)
    throw new EngramError('INPUT_INVALID', 'say why it is wrong or outdated', {
      hint: 'Give the reason in a few words.',
    });
  return text || undefined;
}

/** Mark a memory wrong or outdated, with the reason (hidden from recall; restorable). */
export function invalidate(
  store: Store,
  id: string,
  reason: string,
  ctx: MutationContext,
  scope?: Scope,
): Corrected {
  const why = reasonOf(reason, true) as string;
  liveMemory(store, id, scope);
  const changed = store.memory.invalidate(id, why, ctx);
  return { memory: memoryOf(store, id), changed };
}

/** Where each surface puts a memory away when it is given no reason. */
const ARCHIVED_BY: Record<string, string> = {
  viewer: 'archived in the viewer',
  cli: 'archived from the command line',
  mcp: 'archived by the agent',
};

/** Put a memory away (hidden from recall; restorable). */
export function archive(
  store: Store,
  id: string,
  reason: string | undefined,
  ctx: MutationContext,
  scope?: Scope,
): Corrected {
  const why = reasonOf(reason, false) ?? ARCHIVED_BY[ctx.origin] ?? 'archived';
  liveMemory(store, id, scope);
  const changed = store.memory.archive(id, why, ctx);
  return { memory: memoryOf(store, id), changed };
}

/** Undo the last change to a memory: back to its previous version, as a new version. */
export function restore(store: Store, id: string, ctx: MutationContext, scope?: Scope): Corrected {
  liveMemory(store, id, scope);
  return { memory: store.memory.restore(id, ctx), changed: true };
}
