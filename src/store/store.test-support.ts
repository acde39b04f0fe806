/**
 * Test helpers over a real store: a full observation draft from a few fields, inserting a memory, and
 * appending a captured event the way the hooks do (session touched, event queued).
 */
import type { ProjectId } from '../core/ids.ts';
import type { CapturedEvent, ObservationDraft, ObservationSource, Project } from '../core/model.ts';
import type { Store } from './store.ts';

/** The origin tests give their own changes to memory. */
export const TEST_CHANGE = { origin: 'cli', at: 1 } as const;

/** A draft with empty defaults: only what a test cares about is given. */
export function draftOf(title: string, extra: Partial<ObservationDraft> = {}): ObservationDraft {
  return {
    type: 'fact',
    title,
    subtitle: '',
    narrative: '',
    facts: [],
    concepts: [],
    filesRead: [],
    filesModified: [],
    ...extra,
  };
}

/** Insert a memory; returns its id (throws when it was a duplicate, which a test never means). */
export function insertMemory(
  store: Store,
  o: {
    projectId: ProjectId;
    title: string;
    sessionId?: string | null;
    createdAt?: number;
    source?: ObservationSource;
    draft?: Partial<ObservationDraft>;
  },
): string {
  const { id, outcome } = store.memory.create(
    {
      projectId: o.projectId,
      sessionId: o.sessionId ?? null,
      source: o.source ?? 'manual',
      createdAt: o.createdAt ?? 1,
      provenance: [],
      draft: draftOf(o.title, o.draft),
    },
    TEST_CHANGE,
  );
  if (outcome !== 'created') throw new Error(`duplicate memory in a test: ${o.title}`);
  return id;
}

/** Queue one captured event of a session, as a hook would (in one transaction). */
export function appendEvent(
  store: Store,
  project: Project,
  sessionId: string,
  event: CapturedEvent,
  at: number,
) {
  return store.transaction(() => {
    store.sessions.touch(project, { id: sessionId, cwd: project.root, transcriptPath: null }, 'x', at);
    return store.events.append({
      sessionId,
      projectId: project.id,
      hook: 'x',
      cwd: project.root,
      transcriptPath: null,
      at,
      event,
    });
  });
}
