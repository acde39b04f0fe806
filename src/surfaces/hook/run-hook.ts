/**
 * One hook call: payload in, context out. Capture is scrub → size-cap → one durable write (a file in
 * the inbox, renamed into place); SessionStart and UserPromptSubmit go through the database instead,
 * since they read memory to inject anyway. Never throws: every problem is logged and the hook still
 * succeeds, because a memory system must never get in the agent's way.
 *
 * This module is on the capture hot path: it must not import the store, recall or SQLite.
 */
import { DEFAULT_HOST } from '../../capture/hosts/index.ts';
import type { HostAdapter } from '../../capture/hosts/host-port.ts';
import { isProjectCaptured, resolveProjectIdentity } from '../../capture/project-identity.ts';
import type { Runtime } from '../runtime.ts';
import { describeError } from '../../core/errors.ts';
import { DISTILLER_ENV_MARKER } from '../../core/llm.ts';
import { scrubbingTogether } from '../../core/scrub.ts';
import type { Logger } from '../../core/ports.ts';
import { writeInbox, type InboxRecord } from '../../store/inbox.ts';

export interface ContextOutcome {
  stdout: string;
}

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
  /** Loads the database-backed handler (a separate bundle, so capture hooks never load SQLite). */
  contextHandler: () => ContextHandler;
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

export function runHook(input: Buffer, deps: HookDeps): HookOutcome {
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
  // A context event the host lets a hook inject at (Cursor's prompt hook cannot): else captured only.
  if (
    (n.event.kind === 'session_start' || n.event.kind === 'prompt') &&
    deps.host.capabilities.injectsContextAt.includes(n.hook)
  ) {
    try {
      const r = deps.contextHandler()(record, {
        runtime,
        logger,
        renderContext: deps.host.renderContext,
        rulesFiles: deps.host.capabilities.loadsRulesFiles,
        autoMemory: deps.host.capabilities.loadsAutoMemory,
      });
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
  });
  if (outcome.status !== 'failed' && config['worker.autostart'] && deps.ensureWorker) {
    try {
      deps.ensureWorker();
    } catch (error) {
      logger.warn('could not start the worker', { error: describeError(error) });
    }
  }
  return outcome;
}
