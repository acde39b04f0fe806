/**
 * What a context hook's answer depends on besides the database, worked out in the hook's process (its
 * settings and environment): the files the host loads itself, and a prompt's recall query. Both the
 * hook's own reading (context-hook.ts) and the question it asks the worker (recall-client.ts) start
 * from here, so the two can only give the same answer.
 */
import { loadedAutoMemory } from '../../capture/hosts/claude-code/auto-memory.ts';
import type { Project } from '../../core/model.ts';
import type { LoadedFile } from '../../recall/host-loaded.ts';
import type { PromptQuery } from '../../recall/prompt-query.ts';
import type { InboxRecord } from '../../store/inbox.ts';
import type { Runtime } from '../runtime.ts';

/**
 * What the host put before the agent itself: its rules files, and Claude Code's auto memory (the
 * first 200 lines of MEMORY.md) unless turned off.
 */
export function hostLoadedFiles(
  project: Project,
  runtime: Runtime,
  rulesFiles: readonly string[],
  autoMemory: boolean,
): LoadedFile[] {
  return [
    ...rulesFiles,
    ...(autoMemory && project.root
      ? loadedAutoMemory(project.root, runtime.env).map((path) => ({ path, firstLines: 200 }))
      : []),
  ];
}

/** The recall query of a prompt event (`record.event` must be a prompt). */
export function promptQueryOf(
  record: InboxRecord & { event: { kind: 'prompt' } },
  project: Project,
  runtime: Runtime,
  files: LoadedFile[],
): PromptQuery {
  const { config } = runtime;
  return {
    projectId: project.id,
    root: project.root,
    files,
    sessionId: record.sessionId,
    prompt: record.event.prompt,
    now: record.at,
    budgetTokens: config['context.promptTokens'],
    maxItems: config['context.promptMaxItems'],
    minScore: config['context.promptMinScore'],
  };
}
