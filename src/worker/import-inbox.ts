/**
 * Move events from the inbox (files written by capture hooks) into the durable queue table, one
 * transaction per batch. Idempotent: an event already imported (same file name) is ignored. Files set
 * aside as unreadable are logged with their reason.
 */
import { projectIdFromKey } from '../core/ids.ts';
import type { Logger } from '../core/ports.ts';
import { importInbox, type ImportReport } from '../store/inbox.ts';
import type { Store } from '../store/store.ts';

export function importInboxInto(store: Store, inboxDir: string, logger?: Logger): ImportReport {
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
            { id: e.sessionId, cwd: e.cwd, transcriptPath: e.transcriptPath },
            e.hook,
            e.at,
          );
        }
      }
    }),
  );
  for (const r of report.reasons)
    logger?.warn('captured event set aside in inbox/rejected', { file: r.file, reason: r.reason });
  if (report.newer > 0)
    logger?.warn('captured events written by a newer engram wait in the inbox', { count: report.newer });
  return report;
}
