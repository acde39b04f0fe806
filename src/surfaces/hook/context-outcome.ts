/**
 * The last step of a context hook, whoever rendered the context (the hook reading the database, or the
 * worker answering through its recall folder): note the injected ids in the told ledger, leave the event in the
 * inbox with what was injected (the worker records the injection and the context log row from it),
 * and print the host's format.
 */
import { describeError } from '../../core/errors.ts';
import type { Logger } from '../../core/ports.ts';
import type { RenderedContext } from '../../recall/context-lines.ts';
import { writeInbox, type InboxRecord } from '../../store/inbox.ts';
import { appendTold } from '../../store/told-ledger.ts';
import type { Runtime } from '../runtime.ts';

export interface ContextOutcome {
  stdout: string;
  /** Where a context hook read what it rendered: the worker's files alone, or the database. */
  read?: 'snapshot' | 'database';
}

/** `ctx` null: nothing could be rendered (the database unreadable); the event is kept all the same. */
export function finishContextEvent(
  record: InboxRecord,
  ctx: RenderedContext | null,
  deps: {
    runtime: Runtime;
    logger: Logger;
    renderContext: (hookEventName: string, text: string) => string;
  },
): ContextOutcome {
  const { runtime, logger } = deps;
  const injected = ctx !== null && ctx.text !== '' ? ctx : null;
  if (injected) {
    try {
      appendTold(runtime.paths.toldDir, record.sessionId, injected.observationIds);
    } catch (error) {
      // Only the next prompt's repeat-avoidance depends on it; the event matters more.
      logger.warn('could not note what was injected', { error: describeError(error) });
    }
  }
  writeInbox(runtime.paths.inboxDir, {
    ...record,
    injected: {
      text: ctx?.text ?? '',
      tokens: ctx?.tokens ?? 0,
      observationIds: injected?.observationIds ?? [],
      items: ctx?.items ?? [],
      // Lines the injection gate kept out: the context log and `engram status` say what and why.
      ...(ctx && ctx.dropped.length > 0 ? { dropped: ctx.dropped } : {}),
      // Since the process started (process.uptime: `performance` would load perf_hooks, ~1.5 ms).
      latencyMs: Math.round(process.uptime() * 1000),
    },
  });
  return { stdout: injected ? deps.renderContext(record.hook, injected.text) : '' };
}
