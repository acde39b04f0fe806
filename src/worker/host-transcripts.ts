/**
 * A turn's transcript where the host keeps none as a file: opencode's hook names its session store
 * (`opencode.db`) as the transcript, and at the turn's end the worker writes that session's log from it
 * into engram's own folder (`host-sessions/opencode/<id>.jsonl`, the log backfill writes: the same
 * path, so the same offsets and fingerprints — nothing is read twice whichever comes first). The turn
 * is then read from the log exactly like a Claude Code transcript. Only what is new since the last
 * turn is read from the store: a cursor per log, kept in engram's database beside the log's reading
 * progress (`capture/hosts/opencode/session-cursor.ts`); without a usable one the session is read whole.
 * A store that is missing, locked or unreadable leaves the turn to its plugin events alone, with the
 * reason logged.
 */
import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import {
  parseSessionCursor,
  updateSessionLog,
} from '../capture/hosts/opencode/session-cursor.ts';
import { OPENCODE_DB, sessionLogPath } from '../capture/hosts/opencode/session-store.ts';
import { describeError } from '../core/errors.ts';
import type { QueuedEvent } from '../core/model.ts';
import type { Logger } from '../core/ports.ts';

/** How long the worker waits on opencode's writer before leaving the turn to the plugin's events. */
const STORE_BUSY_MS = 500;

/**
 * Where reading a host's store for each log stopped (the transcripts repository's `transcript_sources`):
 * absent, every turn reads its session whole.
 */
export interface SourceCursors {
  get(logPath: string): string | null;
  save(logPath: string, cursor: string): void;
}

/** Whether a captured transcript path names opencode's session store rather than a transcript file. */
export const isOpencodeStore = (path: string): boolean => basename(path) === OPENCODE_DB;

/** The session's log written from opencode's store, or null (the reason logged) when it cannot be. */
function opencodeLog(
  store: string,
  sessionId: string,
  logDir: string | undefined,
  logger: Logger,
  cursors: SourceCursors | undefined,
): string | null {
  const why = (reason: string, extra: Record<string, unknown> = {}) => {
    logger.warn(
      `opencode’s session store was not read (${reason}); the turn is distilled from the plugin's events`,
      {
        sessionId,
        store,
        ...extra,
      },
    );
    return null;
  };
  if (logDir === undefined) return why('no folder for session logs');
  if (!existsSync(store)) return why('no such file');
  const dir = join(logDir, 'opencode');
  let update;
  try {
    const cursor = parseSessionCursor(cursors?.get(sessionLogPath(dir, sessionId)) ?? null);
    update = updateSessionLog(store, sessionId, dir, cursor, STORE_BUSY_MS);
    if (!update) return why('the session is not in it');
  } catch (error) {
    return why('it could not be read', { error: describeError(error) });
  }
  try {
    cursors?.save(update.path, JSON.stringify(update.cursor));
  } catch (error) {
    // Only speed depends on it: the next turn reads the session whole.
    logger.warn('could not keep where opencode’s store was read to', {
      sessionId,
      error: describeError(error),
    });
  }
  return update.path;
}

/**
 * The turn's events with each transcript path that names a host's store replaced by the session log
 * written from it now (null when none could be written). Other paths are left as they are.
 */
export function withHostTranscripts(
  events: QueuedEvent[],
  logDir: string | undefined,
  logger: Logger,
  cursors?: SourceCursors,
): QueuedEvent[] {
  const written = new Map<string, string | null>();
  return events.map((e) => {
    if (!e.transcriptPath || !isOpencodeStore(e.transcriptPath)) return e;
    const key = `${e.transcriptPath}\u0000${e.sessionId}`;
    if (!written.has(key)) written.set(key, opencodeLog(e.transcriptPath, e.sessionId, logDir, logger, cursors));
    return { ...e, transcriptPath: written.get(key) ?? null };
  });
}
