/**
 * The timeline verb: what happened in a project around a memory or a moment (recall/timeline.ts), with
 * the anchor memory in the caller's scope. `engram timeline`, MCP's timeline tool and the viewer's
 * timeline API ask here.
 */
import type { ProjectId } from '../core/ids.ts';
import { timeline as around, type Timeline } from '../recall/timeline.ts';
import type { Store } from '../store/store.ts';
import { memoryOf, type Scope } from './scope.ts';

export interface TimelineInput {
  /** Centre on this memory (its project wins over `projectId`) … */
  id?: string | undefined;
  /** … or on this moment (ISO 8601). */
  date?: string | undefined;
  projectId: ProjectId;
  before: number;
  after: number;
}

export function timeline(store: Store, input: TimelineInput, scope?: Scope): Timeline {
  if (input.id) memoryOf(store, input.id, scope);
  return around(store, {
    ...(input.id ? { id: input.id } : {}),
    ...(input.date ? { date: input.date } : {}),
    projectId: input.projectId,
    before: input.before,
    after: input.after,
  });
}
