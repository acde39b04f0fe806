/**
 * The database half of the hook (bundled apart as dist/hook-context.cjs, loaded only for SessionStart
 * and UserPromptSubmit): store the event, then render the context to inject.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { withProjectId } from '../../capture/project-identity.ts';
import { describeError } from '../../core/errors.ts';
import type { Project } from '../../core/model.ts';
import type { Logger } from '../../core/ports.ts';
import { createStaleLookup } from '../../graph/anchor-freshness.ts';
import {
  renderPromptContext,
  renderSessionContext,
  type RenderedContext,
} from '../../recall/render-context.ts';
import { openDatabase } from '../../store/database.ts';
import { writeInbox, type InboxRecord } from '../../store/inbox.ts';
import { createStore, type Store } from '../../store/store.ts';
import { ensureHome, type Runtime } from '../runtime.ts';
import type { ContextOutcome } from './run-hook.ts';

function nativeBindingPath(): string | undefined {
  try {
    const req = createRequire(typeof __filename === 'string' ? __filename : join(process.cwd(), 'x.js'));
    return join(
      dirname(req.resolve('better-sqlite3/package.json')),
      'build',
      'Release',
      'better_sqlite3.node',
    );
  } catch {
    return undefined; // let better-sqlite3 search for its addon itself
  }
}

function contextJson(hookEventName: string, text: string): string {
  return JSON.stringify({ hookSpecificOutput: { hookEventName, additionalContext: text } });
}

function render(
  store: Store,
  runtime: Runtime,
  project: Project,
  record: InboxRecord,
): RenderedContext | null {
  const { config } = runtime;
  const { event, sessionId, at } = record;
  if (event.kind === 'session_start') {
    return renderSessionContext(store, {
      project,
      sessionId,
      source: event.source,
      now: at,
      budgetTokens: config['context.sessionStartTokens'],
      recentCount: config['context.recentCount'],
      keyFiles: config['graph.keyFiles'],
      staleOf: createStaleLookup(store, project),
      standingShare: config['context.standingShare'],
    });
  }
  if (event.kind === 'prompt') {
    return renderPromptContext(store, {
      projectId: project.id,
      sessionId,
      prompt: event.prompt,
      now: at,
      budgetTokens: config['context.promptTokens'],
      maxItems: config['context.promptMaxItems'],
      minScore: config['context.promptMinScore'],
    });
  }
  return null;
}

/**
 * Store the event and render the context in ONE write transaction (one commit per hook call). The
 * connection is deliberately not closed: closing the last connection checkpoints the WAL, which costs
 * a few milliseconds the agent would wait for; committed data is safe in the WAL and the worker
 * checkpoints as it writes.
 */
export function handleContextEvent(
  record: InboxRecord,
  deps: { runtime: Runtime; logger: Logger },
): ContextOutcome {
  const { runtime, logger } = deps;
  const project = withProjectId(record.project);
  let stdout = '';
  try {
    ensureHome(runtime.paths);
    const binding = nativeBindingPath();
    const store = createStore(
      openDatabase(runtime.paths.db, {
        busyTimeoutMs: 3000,
        deferUpgrade: true,
        ...(binding ? { nativeBinding: binding } : {}),
      }),
    );
    store.transaction(() => {
      store.sessions.touch(
        project,
        { id: record.sessionId, cwd: record.cwd, transcriptPath: record.transcriptPath },
        record.hook,
        record.at,
      );
      const seq = store.events.append({ ...record, projectId: project.id });
      let ctx: RenderedContext | null = null;
      try {
        ctx = render(store, runtime, project, record);
        if (ctx && ctx.text !== '') {
          store.injections.record(record.sessionId, ctx.observationIds, record.at);
          stdout = contextJson(record.hook, ctx.text);
        }
      } catch (error) {
        // A rendering problem must not cost the event: log it and inject nothing.
        stdout = '';
        ctx = null;
        logger.error('could not build the context to inject', {
          hook: record.hook,
          error: describeError(error),
        });
      }
      try {
        // What was injected (or that nothing was), and the hook's time so far: the viewer shows both.
        store.contextLog.add({
          sessionId: record.sessionId,
          projectId: project.id,
          hook: record.hook,
          startSource: record.event.kind === 'session_start' ? record.event.source : null,
          eventSeq: seq,
          at: record.at,
          text: ctx?.text ?? '',
          tokens: ctx?.tokens ?? 0,
          items: ctx?.items ?? [],
          latencyMs: Math.round(performance.now()),
        });
      } catch (error) {
        // The record is for the viewer; the injection and the event stand without it.
        logger.warn('could not record the injected context', {
          hook: record.hook,
          error: describeError(error),
        });
      }
    });
  } catch (error) {
    logger.error('could not store the event in the database; it waits in the inbox', {
      hook: record.hook,
      error: describeError(error),
    });
    writeInbox(runtime.paths.inboxDir, record);
    return { stdout: '', stored: false };
  }
  return { stdout, stored: true };
}
