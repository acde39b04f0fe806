/**
 * The context verb: what a new session of a project would be told at its start — the SessionStart
 * index, rendered with the configured budget and shares, or nothing for a project the configuration
 * does not capture (exactly as the hook decides). `engram context` and the viewer's recall test show
 * it; the hook itself renders through the same recall/render-context in its own lean bundle.
 */
import { isProjectCaptured } from '../capture/project-identity.ts';
import type { Config } from '../core/config.ts';
import type { Project } from '../core/model.ts';
import { createStaleLookup } from '../graph/anchor-freshness.ts';
import { renderSessionContext, type RenderedContext } from '../recall/render-context.ts';
import type { Store } from '../store/store.ts';

export interface ContextInput {
  project: Project;
  /** How the session starts: startup, resume, clear or compact. */
  source: string;
  /** The session asking (resume and compact read what it was told and its own summary). */
  sessionId: string;
  now: number;
}

const NOTHING: RenderedContext = { text: '', tokens: 0, observationIds: [], items: [], dropped: [] };

export function context(store: Store, config: Config, input: ContextInput) {
  const { project } = input;
  const about = { id: project.id, name: project.name, root: project.root };
  if (
    !isProjectCaptured(project, { include: config['projects.include'], exclude: config['projects.exclude'] })
  )
    return { project: about, excluded: true, ...NOTHING };
  const rendered = renderSessionContext(store, {
    project,
    sessionId: input.sessionId,
    source: input.source,
    now: input.now,
    budgetTokens: config['context.sessionStartTokens'],
    recentCount: config['context.recentCount'],
    keyFiles: config['graph.keyFiles'],
    staleOf: createStaleLookup(store, project),
    standingShare: config['context.standingShare'],
  });
  return { project: about, excluded: false, ...rendered };
}

export type SessionContext = ReturnType<typeof context>;
