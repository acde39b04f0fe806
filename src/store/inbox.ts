/**
 * The inbox: where capture hooks leave events. One small file per event, written under a temporary
 * name and renamed into place (atomic: a reader sees a whole event or none). Writing a file costs far
 * less than opening SQLite, which keeps a capture hook near the cost of starting Node; the worker
 * imports the files into the events table, idempotently (the file name is the event's source key).
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CapturedEvent, ProjectIdentity } from '../core/model.ts';

export interface InboxRecord {
  sessionId: string;
  hook: string;
  cwd: string;
  transcriptPath: string | null;
  at: number;
  event: CapturedEvent;
  project: ProjectIdentity;
}

export interface InboxEntry extends InboxRecord {
  key: string;
}

let counter = 0;

/** Write one event into the inbox; returns the file name (the event's source key). */
export function writeInbox(dir: string, record: InboxRecord): string {
  const name = `${String(record.at).padStart(15, '0')}-${process.pid}-${counter++}-${Math.random().toString(36).slice(2, 8)}.json`;
  const tmp = join(dir, `.${name}.tmp`);
  const text = JSON.stringify(record);
  try {
    writeFileSync(tmp, text, { mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(tmp, text, { mode: 0o600 });
  }
  renameSync(tmp, join(dir, name));
  return name;
}

/** Names of the events waiting in the inbox, oldest first. */
export function listInbox(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((n) => n.endsWith('.json') && !n.startsWith('.'))
      .sort();
  } catch {
    return []; // no inbox yet: nothing was ever captured
  }
}

export interface ImportReport {
  imported: number;
  rejected: number;
}

/**
 * Hand inbox events to `accept` in batches (oldest first); files are deleted only after `accept`
 * returned, so a crash in between leaves them to be imported again (and ignored as already imported).
 * Unreadable files are moved to `rejected/` rather than lost.
 */
export function importInbox(
  dir: string,
  accept: (entries: InboxEntry[]) => void,
  batchSize = 500,
): ImportReport {
  const report: ImportReport = { imported: 0, rejected: 0 };
  const names = listInbox(dir);
  for (let i = 0; i < names.length; i += batchSize) {
    const batch: InboxEntry[] = [];
    const done: string[] = [];
    for (const name of names.slice(i, i + batchSize)) {
      const path = join(dir, name);
      let record: InboxRecord;
      try {
        record = JSON.parse(readFileSync(path, 'utf8')) as InboxRecord;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue; // another importer took it
        mkdirSync(join(dir, 'rejected'), { recursive: true, mode: 0o700 });
        renameSync(path, join(dir, 'rejected', name));
        report.rejected++;
        continue;
      }
      batch.push({ ...record, key: name });
      done.push(path);
    }
    accept(batch);
    for (const path of done) {
      try {
        unlinkSync(path);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    }
    report.imported += batch.length;
  }
  return report;
}
