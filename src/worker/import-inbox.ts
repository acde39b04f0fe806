/**
 * Move events from the inbox (files written by capture hooks) into the durable queue table, one
 * transaction per batch. Idempotent: an event already imported (same file name) is ignored. Files set
 * aside as unreadable are logged with their reason. A context hook's event carries what it injected:
 * recorded with the event (injections, the context log).
 */
import { projectIdFromKey } from '../core/ids.ts';
import type { InjectedContext, Project } from '../core/model.ts';
import type { Logger } from '../core/ports.ts';
import { importInbox, type ImportReport, type InboxEntry } from '../store/inbox.ts';
import { withoutLinesOf } from '../store/erase-injected.ts';
import type { Store } from '../store/store.ts';
import { syncStandingOf, type StandingLocator } from './standing-pass.ts';

/** What a context hook injected: the session will not be told these memories again; the viewer shows it. */
function recordInjection(
  store: Store,
  e: InboxEntry,
  projectId: string,
  seq: number,
  injected: InjectedContext,
): void {
  // A memory forgotten while the event waited in the inbox leaves no line in the log either.
  const forgotten = injected.observationIds.filter(
    (id) => store.observations.get(id)?.status === 'forgotten',
  );
  const told = injected.observationIds.filter((id) => !forgotten.includes(id));
  if (injected.text !== '') store.injections.record(e.sessionId, told, e.at);
  store.contextLog.add({
    sessionId: e.sessionId,
    projectId,
    hook: e.hook,
    startSource: e.event.kind === 'session_start' ? e.event.source : null,
    eventSeq: seq,
    at: e.at,
    text: forgotten.length > 0 ? withoutLinesOf(injected.text, forgotten) : injected.text,
    tokens: injected.tokens,
    items: injected.items,
    latencyMs: injected.latencyMs,
    dropped: Array.isArray(injected.dropped) ? injected.dropped : [],
  });
}

/**
 * Import the inbox. With `standing`, the standing files of each project a session started in are read
 * again afterwards (worker/standing-pass.ts).
 */
export function importInboxInto(
  store: Store,
  inboxDir: string,
  logger?: Logger,
  standing?: StandingLocator,
): ImportReport {
  const started = new Map<string, Project>();
  let startedAt = 0;
  const report = importInbox(inboxDir, (entries) =>
    store.transaction(() => {
      for (const e of entries) {
        const project = { ...e.project, id: projectIdFromKey(e.project.key) };
        const seq = store.events.append({
          sourceKey: e.key,
          sessionId: e.sessionId,
          projectId: project.id,
          hook: e.hook,
          cwd: e.cwd,
          transcriptPath: e.transcriptPath,
          at: e.at,
          event: e.event,
        });
        if (seq !== null) {
          store.sessions.touch(
            project,
            {
              id: e.sessionId,
              cwd: e.cwd,
              transcriptPath: e.transcriptPath,
              ...(e.host ? { host: e.host } : {}),
            },
            e.hook,
            e.at,
          );
          store.sessions.countEvent(e.host ?? 'claude-code', e.at);
          if (e.injected) recordInjection(store, e, project.id, seq, e.injected);
          if (e.event.kind === 'session_start') {
            started.set(project.id, project);
            startedAt = Math.max(startedAt, e.at);
          }
        }
      }
    }),
  );
  if (standing && started.size > 0) syncStandingOf(store, started.values(), standing, startedAt, logger);
  for (const r of report.reasons)
    logger?.warn('captured event set aside in inbox/rejected', { file: r.file, reason: r.reason });
  if (report.newer > 0)
    logger?.warn('captured events written by a newer engram wait in the inbox', { count: report.newer });
  return report;
}
