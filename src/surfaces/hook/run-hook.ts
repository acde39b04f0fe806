/**
 * One hook call: payload in, context out. Capture is scrub → size-cap → one durable write; then, for
 * SessionStart and UserPromptSubmit, the context to inject. Never throws: every problem is logged and
 * the hook still succeeds, because a memory system must never get in the agent's way.
 */
import { normaliseClaudePayload } from '../../capture/claude-code-payload.ts';
import { isProjectCaptured, resolveProject } from '../../capture/project-identity.ts';
import { describeError } from '../../core/errors.ts';
import type { Project } from '../../core/model.ts';
import type { Logger } from '../../core/ports.ts';
import { renderPromptContext, renderSessionContext } from '../../recall/render-context.ts';
import { openDatabase } from '../../store/database.ts';
import type { NewEvent } from '../../store/events-repo.ts';
import { spoolEvent } from '../../store/spool.ts';
import { createStore, type Store } from '../../store/store.ts';
import { ensureHome, type Runtime } from '../runtime.ts';

export interface HookDeps {
  runtime: Runtime;
  logger: Logger;
  now: () => number;
  /** Directory used when the payload carries no cwd. */
  cwd: string;
  nativeBinding?: string;
  /** Called after a successful capture, to make sure a worker will distil it. */
  ensureWorker?: () => void;
}

export interface HookOutcome {
  /** What to print on stdout (empty for nothing). */
  stdout: string;
  /** What happened, for logs and tests. */
  status: 'captured' | 'spooled' | 'skipped' | 'rejected' | 'failed';
}

function contextJson(hookEventName: string, text: string): string {
  return JSON.stringify({ hookSpecificOutput: { hookEventName, additionalContext: text } });
}

function injectContext(store: Store, runtime: Runtime, project: Project, e: NewEvent, now: number): string {
  const { config } = runtime;
  if (e.event.kind === 'session_start') {
    const ctx = renderSessionContext(store, {
      project,
      sessionId: e.sessionId,
      source: e.event.source,
      now,
      budgetTokens: config['context.sessionStartTokens'],
      recentCount: config['context.recentCount'],
    });
    if (ctx.text === '') return '';
    store.transaction(() => store.injections.record(e.sessionId, ctx.observationIds, now));
    return contextJson('SessionStart', ctx.text);
  }
  if (e.event.kind === 'prompt') {
    const ctx = renderPromptContext(store, {
      projectId: project.id,
      sessionId: e.sessionId,
      prompt: e.event.prompt,
      now,
      budgetTokens: config['context.promptTokens'],
      maxItems: config['context.promptMaxItems'],
      minScore: config['context.promptMinScore'],
    });
    if (ctx.text === '') return '';
    store.transaction(() => store.injections.record(e.sessionId, ctx.observationIds, now));
    return contextJson('UserPromptSubmit', ctx.text);
  }
  return '';
}

export function runHook(input: Buffer, deps: HookDeps): HookOutcome {
  const { runtime, logger } = deps;
  if (input.length === 0) {
    logger.warn('empty hook payload; nothing captured');
    return { stdout: '', status: 'rejected' };
  }
  let payload: unknown;
  try {
    payload = JSON.parse(input.toString('utf8'));
  } catch (error) {
    logger.warn('hook payload is not valid JSON; nothing captured', {
      bytes: input.length,
      error: (error as Error).message.slice(0, 120),
    });
    return { stdout: '', status: 'rejected' };
  }
  const { config } = runtime;
  const normalised = normaliseClaudePayload(payload, {
    skipTools: config['capture.skipTools'],
    maxFieldChars: config['capture.maxFieldChars'],
    maxEventBytes: config['capture.maxEventBytes'],
    fallbackCwd: deps.cwd,
  });
  payload = undefined; // let a large payload be collected
  if (!normalised.ok) {
    if (normalised.skip) logger.debug('hook payload skipped', { reason: normalised.reason });
    else logger.warn('hook payload rejected', { reason: normalised.reason, bytes: input.length });
    return { stdout: '', status: normalised.skip ? 'skipped' : 'rejected' };
  }
  const n = normalised.value;
  const project = resolveProject(n.cwd);
  if (
    !isProjectCaptured(project, { include: config['projects.include'], exclude: config['projects.exclude'] })
  ) {
    logger.debug('project excluded from capture', { project: project.name });
    return { stdout: '', status: 'skipped' };
  }
  const now = deps.now();
  const newEvent: NewEvent = {
    sessionId: n.sessionId,
    projectId: project.id,
    hook: n.hook,
    cwd: n.cwd,
    transcriptPath: n.transcriptPath,
    at: now,
    event: n.event,
  };
  let store: Store | null = null;
  let status: HookOutcome['status'] = 'captured';
  try {
    ensureHome(runtime.paths);
    store = createStore(
      openDatabase(runtime.paths.db, {
        busyTimeoutMs: 3000,
        ...(deps.nativeBinding ? { nativeBinding: deps.nativeBinding } : {}),
      }),
    );
    const s = store;
    s.transaction(() => {
      s.sessions.touch(
        project,
        { id: n.sessionId, cwd: n.cwd, transcriptPath: n.transcriptPath },
        n.hook,
        now,
      );
      s.events.append(newEvent);
    });
    logger.debug('captured', {
      hook: n.hook,
      session: n.sessionId,
      project: project.name,
      bytes: input.length,
    });
  } catch (error) {
    logger.error('could not store the event; spooling it', { hook: n.hook, error: describeError(error) });
    try {
      spoolEvent(runtime.paths.spoolDir, { ...newEvent, project });
      status = 'spooled';
    } catch (spoolError) {
      logger.error('could not spool the event either; it is lost', {
        hook: n.hook,
        error: describeError(spoolError),
      });
      status = 'failed';
    }
  }
  let stdout = '';
  if (store) {
    try {
      stdout = injectContext(store, runtime, project, newEvent, now);
    } catch (error) {
      logger.error('could not build the context to inject', { hook: n.hook, error: describeError(error) });
    }
    try {
      store.close();
    } catch (error) {
      logger.warn('closing the database failed', { error: describeError(error) });
    }
  }
  if (status !== 'failed' && config['worker.autostart'] && deps.ensureWorker) {
    try {
      deps.ensureWorker();
    } catch (error) {
      logger.warn('could not start the worker', { error: describeError(error) });
    }
  }
  return { stdout, status };
}
