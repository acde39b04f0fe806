/**
 * The second step of progressive disclosure: what happened in a project around a memory or a moment.
 * Shared by `engram timeline` and the MCP `timeline` tool.
 */
import { EngramError } from '../core/errors.ts';
import type { ProjectId } from '../core/ids.ts';
import type { Observation } from '../core/model.ts';
import type { Store } from '../store/store.ts';

export interface TimelineRequest {
  /** Centre on this memory (its project wins over `projectId`). */
  id?: string;
  /** Or on this moment: ISO 8601 date or date-time. */
  date?: string;
  projectId: ProjectId;
  before: number;
  after: number;
}

export interface Timeline {
  at: number;
  anchorId: string | null;
  projectId: ProjectId;
  items: Observation[];
}

/** Read an ISO 8601 date ("2026-11-20", "2026-11-20T14:00"); throws a fix-it error otherwise. */
export function parseMoment(text: string): number {
  const at = /^\d{4}-\d{2}-\d{2}/.test(text.trim()) ? Date.parse(text.trim()) : Number.NaN;
  if (!Number.isFinite(at)) {
    throw new EngramError('INPUT_INVALID', `cannot read the date "${text}"`, {
      hint: 'Use ISO 8601, e.g. 2026-11-20 or 2026-11-20T14:00.',
    });
  }
  return at;
}

export function timeline(store: Store, req: TimelineRequest): Timeline {
  const before = Math.max(0, Math.min(50, Math.floor(req.before)));
  const after = Math.max(0, Math.min(50, Math.floor(req.after)));
  if (req.id) {
    const anchor = store.observations.get(req.id);
    if (!anchor) {
      throw new EngramError('NOT_FOUND', `no memory with id ${req.id}`, {
        hint: 'Use an id from a search result (obs_…).',
      });
    }
    const around = store.observations.around(anchor.projectId, anchor.createdAt, before + 1, after);
    // `around` counts the anchor among the earlier ones (same time); keep it whatever its status.
    const items = around.some((o) => o.id === anchor.id)
      ? around
      : [
          ...around.filter((o) => o.createdAt <= anchor.createdAt),
          anchor,
          ...around.filter((o) => o.createdAt > anchor.createdAt),
        ];
    return { at: anchor.createdAt, anchorId: anchor.id, projectId: anchor.projectId, items };
  }
  if (!req.date) {
    throw new EngramError('INPUT_INVALID', 'give a memory id or a date', {
      hint: 'Pass an id from a search result (obs_…) or a date such as 2026-11-20.',
    });
  }
  const at = parseMoment(req.date);
  return {
    at,
    anchorId: null,
    projectId: req.projectId,
    items: store.observations.around(req.projectId, at, before, after),
  };
}
