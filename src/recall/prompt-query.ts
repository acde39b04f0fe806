/**
 * Prompt-time recall as one question with plain data: everything the answer depends on that is not in
 * the database — the hook's settings, what the host loads itself, the moment — travels in the query,
 * so the hook (reading the database itself) and the worker (answering over its socket) compute the
 * same answer with the same code from the same inputs.
 */
import type { ProjectId } from '../core/ids.ts';
import type { ReadStore } from '../store/read-store.ts';
import { readTold } from '../store/told-ledger.ts';
import type { RenderedContext } from './context-lines.ts';
import { loadedByHost, type LoadedFile } from './host-loaded.ts';
import type { StemMemo } from './prompt-relevance.ts';
import { renderPromptContext } from './render-context.ts';

export interface PromptQuery {
  projectId: ProjectId;
  /** The project's root: where the files the host loads are read. */
  root: string;
  /** The files the host puts before the agent itself (its rules files, Claude Code's auto memory). */
  files: LoadedFile[];
  sessionId: string;
  prompt: string;
  /** The event's capture time (ms epoch): ages are said as of then. */
  now: number;
  budgetTokens: number;
  maxItems: number;
  minScore: number;
}

/**
 * The few memories a prompt recalls, as the context hook injects them (before the host's format):
 * never what the session was already told (the database's injections and the told ledger in
 * `toldDir`), nor what the host's own files already say.
 */
export function answerPromptQuery(
  store: ReadStore,
  query: PromptQuery,
  toldDir: string,
  /** Kept by a process that answers many queries (the worker's recall thread); the answer is the same. */
  stemMemo?: StemMemo,
): RenderedContext {
  const told = readTold(toldDir, query.sessionId);
  const loaded = query.root && query.files.length > 0 ? loadedByHost(query.root, query.files) : undefined;
  return renderPromptContext(store, {
    projectId: query.projectId,
    sessionId: query.sessionId,
    prompt: query.prompt,
    now: query.now,
    budgetTokens: query.budgetTokens,
    maxItems: query.maxItems,
    minScore: query.minScore,
    told,
    ...(loaded ? { loadedByHost: loaded } : {}),
    ...(stemMemo ? { stemMemo } : {}),
  });
}
