/**
 * The memory list read model: a filtered page of memories, newest first, with an opaque keyset cursor
 * and a capped count. The viewer's list API, its export and its search page read it here.
 */
import { EngramError } from '../core/errors.ts';
import type { MemoryFilter } from '../core/memory-filter.ts';
import type { Observation } from '../core/model.ts';
import type { ListCursor } from '../store/memory-list-repo.ts';
import type { Store } from '../store/store.ts';

/** Opaque page cursors: `<createdAt>.<rowid>` of the last memory shown. */
export function encodeCursor(c: ListCursor): string {
  return `${c.createdAt}.${c.rowid}`;
}

export function decodeCursor(text: string | undefined): ListCursor | undefined {
  if (text === undefined || text === '') return undefined;
  const m = /^(\d{1,15})\.(\d{1,15})$/.exec(text);
  if (!m)
    throw new EngramError('INPUT_INVALID', 'that page cursor is not valid', {
      hint: 'Start from the first page.',
    });
  return { createdAt: Number(m[1]), rowid: Number(m[2]) };
}

/** How many memories a count reads at most (a bigger total shows as "more than …"). */
export const COUNT_CAP = 10_000;

export interface MemoryPage {
  items: Observation[];
  /** The cursor of the next page, or null on the last one. */
  next: string | null;
  /** How many memories match, up to COUNT_CAP. */
  total: number;
  /** True when there are more than `total`. */
  capped: boolean;
}

/** One page of a filter's memories, newest first. */
export function listMemories(
  store: Store,
  filter: MemoryFilter,
  options: { cursor?: ListCursor | undefined; limit: number; count?: boolean },
): MemoryPage {
  const keys = store.memoryList.page(filter, options.limit + 1, options.cursor);
  const shown = keys.slice(0, options.limit);
  const items = shown.map((k) => store.observations.get(k.id)).filter((o): o is Observation => o !== null);
  const last = shown[shown.length - 1];
  const total = options.count === false ? -1 : store.memoryList.count(filter, COUNT_CAP);
  return {
    items,
    next: keys.length > options.limit && last ? encodeCursor(last) : null,
    total: Math.min(total, COUNT_CAP),
    capped: total > COUNT_CAP,
  };
}
