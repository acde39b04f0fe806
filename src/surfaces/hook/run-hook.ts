/**
 * One hook call: payload in, context out. Capture is scrub → size-cap → one durable write (a file in
 * the inbox, renamed into place); SessionStart and UserPromptSubmit also read memory to inject: a
 * prompt's recall from the running worker through its recall folder when it answers, else (and SessionStart
 * always) from the database in this process. Never throws: every problem is logged and the hook still
 * succeeds, because a memory system must never get in the agent's way.
 *
 * This module is on the capture hot path: it must not import the store, recall or SQLite.
 */
import { DEFAULT_HOST } from '../../capture/hosts/index.ts';
import type { HostAdapter } from '../../capture/hosts/host-port.ts';
import { isProjectCaptured, resolveProjectIdentity, withProjectId } from '../../capture/project-identity.ts';
import type { Runtime } from '../runtime.ts';
import { describeError } from '../../core/errors.ts';
import { DISTILLER_ENV_MARKER } from '../../core/llm.ts';
import { scrubbingTogether } from '../../core/scrub.ts';
import type { Logger } from '../../core/ports.ts';
import type { RenderedContext } from '../../recall/context-lines.ts';
import type { PromptQuery } from '../../recall/prompt-query.ts';
import { writeInbox, type InboxRecord } from '../../store/inbox.ts';
import { finishContextEvent, type ContextOutcome } from './context-outcome.ts';
import { hostLoadedFiles, promptQueryOf } from './context-query.ts';
import type { WorkerAnswer } from './recall-client.ts';

/**
 * Renders what a SessionStart / UserPromptSubmit event injects (reading the database) and leaves the
 * event, with what it injected, in the inbox.
 */
export type ContextHandler = (
  record: InboxRecord,
  deps: {
    runtime: Runtime;
    logger: Logger;
    renderContext: HostAdapter['renderContext'];
    rulesFiles?: readonly string[];
    /** The host loads Claude Code's auto memory (MEMORY.md) itself. */
    autoMemory?: boolean;
  },
) => ContextOutcome;

export interface HookDeps {
  /** The host whose hook this is: parses the payload and renders the context. */
  host: HostAdapter;
  runtime: Runtime;
  logger: Logger;
  now: () => number;
  /** Directory used when the payload carries no cwd. */
  cwd: string;
  /**
   * Loads the database-backed handler (a separate bundle, so capture hooks never load SQLite) for one
   * kind of context event (each kind runs other code of it: the loader may keep a code cache per kind).
   */
  contextHandler: (kind: 'session_start' | 'prompt') => ContextHandler;
  /**
   * Asks the running worker for a prompt's recall (recall-client.ts); absent, or any answer but a
   * checked one, and the handler above reads the database itself.
   */
  askWorker?: (query: PromptQuery) => WorkerAnswer;
  /** Called after a successful capture, to make sure a worker will distil it. */
  ensureWorker?: () => void;
}

export interface HookOutcome {
  /** What to print on stdout (empty for nothing). */
  stdout: string;
  status: 'inboxed' | 'skipped' | 'rejected' | 'failed';
}

function toInbox(deps: HookDeps, record: InboxRecord): HookOutcome['status'] {
  try {
    writeInbox(deps.runtime.paths.inboxDir, record);
    return 'inboxed';
  } catch (error) {
    deps.logger.error('could not write the event anywhere; it is lost', {
      hook: record.hook,
      error: describeError(error),
    });
    return 'failed';
  }
}

/**
 * A prompt's recall as the running worker renders it, or null (no worker, `worker.recallSocket` off,
 * or no usable answer: the caller then reads the database itself). Never throws.
 */
function answeredByWorker(
  deps: HookDeps,
  record: InboxRecord & { event: { kind: 'prompt' } },
): RenderedContext | null {
  const { runtime, logger } = deps;
  if (!deps.askWorker || !runtime.config['worker.recallSocket']) return null;
  try {
    const project = withProjectId(record.project);
    const { loadsRulesFiles, loadsAutoMemory } = deps.host.capabilities;
    const files = hostLoadedFiles(project, runtime, loadsRulesFiles, loadsAutoMemory);
    const answer = deps.askWorker(promptQueryOf(record, project, runtime, files));
    if (answer.ok) return answer.context;
    logger.debug('the worker did not answer the prompt; reading the database', { reason: answer.reason });
  } catch (error) {
    logger.warn('could not ask the worker; reading the database', { error: describeError(error) });
  }
  return null;
}

export async function runHook(input: Buffer, deps: HookDeps): Promise<HookOutcome> {
  const { runtime, logger } = deps;
  if (runtime.env[DISTILLER_ENV_MARKER] === '1') {
    // A session engram itself started (the LLM distiller): never a memory.
    logger.debug('hook inside engram\u2019s own distiller session; ignored');
    return { stdout: '', status: 'skipped' };
  }
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
  // Scrubbed together: a text or line met again anywhere in the payload (a tool's input and its
  // response repeat an edit's old and new text) is scrubbed once.
  const normalised = scrubbingTogether(() =>
    deps.host.normalise(payload, {
      skipTools: config['capture.skipTools'],
      maxFieldChars: config['capture.maxFieldChars'],
      maxEventBytes: config['capture.maxEventBytes'],
      fallbackCwd: deps.cwd,
      env: runtime.env,
    }),
  );
  payload = undefined; // let a large payload be collected
  if (!normalised.ok) {
    if (normalised.skip) logger.debug('hook payload skipped', { reason: normalised.reason });
    else logger.warn('hook payload rejected', { reason: normalised.reason, bytes: input.length });
    return { stdout: '', status: normalised.skip ? 'skipped' : 'rejected' };
  }
  const n = normalised.value;
  const project = resolveProjectIdentity(n.cwd, runtime.projectLinks);
  if (
    !isProjectCaptured(project, { include: config['projects.include'], exclude: config['projects.exclude'] })
  ) {
    logger.debug('project excluded from capture', { project: project.name });
    return { stdout: '', status: 'skipped' };
  }
  const record: InboxRecord = {
    sessionId: n.sessionId,
    hook: n.hook,
    cwd: n.cwd,
    transcriptPath: n.transcriptPath,
    at: deps.now(),
    event: n.event,
    project,
    ...(deps.host.name === DEFAULT_HOST ? {} : { host: deps.host.name }),
  };
  let outcome: HookOutcome;
  /** Who rendered the injected context: the running worker, or this process (from the worker's snapshot alone, or the database). */
  let context: 'worker' | 'snapshot' | 'database' | undefined;
  // A context event the host lets a hook inject at (Cursor's prompt hook cannot): else captured only.
  if (
    (n.event.kind === 'session_start' || n.event.kind === 'prompt') &&
    deps.host.capabilities.injectsContextAt.includes(n.hook)
  ) {
    try {
      const { event } = n;
      const answered = event.kind === 'prompt' ? answeredByWorker(deps, { ...record, event }) : null;
      const r = answered
        ? finishContextEvent(record, answered, { runtime, logger, renderContext: deps.host.renderContext })
        : deps.contextHandler(event.kind)(record, {
            runtime,
            logger,
            renderContext: deps.host.renderContext,
            rulesFiles: deps.host.capabilities.loadsRulesFiles,
            autoMemory: deps.host.capabilities.loadsAutoMemory,
          });
      context = answered ? 'worker' : (r.read ?? 'database');
      outcome = { stdout: r.stdout, status: 'inboxed' };
    } catch (error) {
      logger.error('the context hook failed; capturing the event only', {
        hook: n.hook,
        error: describeError(error),
      });
      outcome = { stdout: '', status: toInbox(deps, record) };
    }
  } else {
    outcome = { stdout: '', status: toInbox(deps, record) };
  }
  logger.debug('captured', {
    hook: n.hook,
    session: n.sessionId,
    project: project.name,
    status: outcome.status,
    ...(context ? { context } : {}),
  });
  // A worker that just answered is running: nothing to check.
  if (
    outcome.status !== 'failed' &&
    context !== 'worker' &&
    config['worker.autostart'] &&
    deps.ensureWorker
  ) {
    try {
      deps.ensureWorker();
    } catch (error) {
      logger.warn('could not start the worker', { error: describeError(error) });
    }
  }
  return outcome;
}
