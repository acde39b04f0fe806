/**
 * The inbox: where capture hooks leave events. One small file per event, written under a temporary
 * name and renamed into place (atomic: a reader sees a whole event or none). Writing a file costs far
 * less than opening SQLite, which keeps a capture hook near the cost of starting Node; the worker
 * imports the files into the events table, idempotently (the file name is the event's source key).
 *
 * Each record carries a format version and is checked on its own when imported: one that cannot be
 * read or has the wrong shape is set aside in `rejected/` with its reason, and the others go on.
 */
import {
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { capturedEventProblem } from '../core/event-shape.ts';
import type { CapturedEvent, InjectedContext, ProjectIdentity } from '../core/model.ts';

/** The inbox record format this engram writes and reads. */
export const INBOX_FORMAT = 1;

export interface InboxRecord {
  sessionId: string;
  hook: string;
  cwd: string;
  transcriptPath: string | null;
  at: number;
  event: CapturedEvent;
  project: ProjectIdentity;
  /** A SessionStart / UserPromptSubmit event: what its hook injected (or tried to). */
  injected?: InjectedContext;
  /** The host whose hook captured it (`codex`, …); absent for Claude Code, as in every earlier record. */
  host?: string;
}

export interface InboxEntry extends InboxRecord {
  key: string;
}

let counter = 0;

/** Write one event into the inbox; returns the file name (the event's source key). */
export function writeInbox(dir: string, record: InboxRecord): string {
  const name = `${String(record.at).padStart(15, '0')}-${process.pid}-${counter++}-${Math.random().toString(36).slice(2, 8)}.json`;
  const tmp = join(dir, `.${name}.tmp`);
  const text = JSON.stringify({ v: INBOX_FORMAT, ...record });
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

const isStr = (v: unknown): v is string => typeof v === 'string';

/**
 * Check one record read back from a file: the record, or why it cannot be imported. `newer`: written
 * by a newer engram (left in place for it, never rejected).
 */
export function checkInboxRecord(
  value: unknown,
): { ok: true; record: InboxRecord } | { ok: false; newer: boolean; reason: string } {
  const bad = (reason: string) => ({ ok: false as const, newer: false, reason });
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return bad('not a JSON object');
  const r = value as Record<string, unknown>;
  const v = r['v'] ?? 1; // records from before the format was versioned are format 1
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1)
    return bad(`bad format version ${JSON.stringify(v)}`);
  if (v > INBOX_FORMAT)
    return { ok: false, newer: true, reason: `format ${v} is newer than this engram (${INBOX_FORMAT})` };
  if (!isStr(r['sessionId']) || r['sessionId'] === '') return bad('sessionId is missing');
  if (!isStr(r['hook'])) return bad('hook is missing');
  if (!isStr(r['cwd'])) return bad('cwd is missing');
  if (r['transcriptPath'] !== null && !isStr(r['transcriptPath']))
    return bad('transcriptPath must be a string or null');
  if (typeof r['at'] !== 'number' || !Number.isFinite(r['at'])) return bad('at must be a time');
  const p = r['project'] as Record<string, unknown> | null | undefined;
  if (p === null || typeof p !== 'object' || !isStr(p['name']) || !isStr(p['key']) || !isStr(p['root']))
    return bad('project must have a name, key and root');
  const problem = capturedEventProblem(r['event']);
  if (problem) return bad(problem);
  const injected = r['injected'] as Record<string, unknown> | undefined;
  const injectedOk =
    injected === undefined ||
    (injected !== null &&
      typeof injected === 'object' &&
      isStr(injected['text']) &&
      typeof injected['tokens'] === 'number' &&
      Array.isArray(injected['observationIds']) &&
      injected['observationIds'].every(isStr) &&
      Array.isArray(injected['items']) &&
      typeof injected['latencyMs'] === 'number');
  if (!injectedOk) return bad('injected must hold text, tokens, observationIds, items and latencyMs');
  const host = r['host'];
  if (host !== undefined && !(isStr(host) && /^[a-z][a-z0-9-]{0,39}$/.test(host)))
    return bad('host must be a short lower-case name');
  return {
    ok: true,
    record: {
      sessionId: r['sessionId'],
      hook: r['hook'],
      cwd: r['cwd'],
      transcriptPath: r['transcriptPath'] as string | null,
      at: r['at'],
      event: r['event'] as CapturedEvent,
      project: { name: p['name'], key: p['key'], root: p['root'] },
      ...(injected ? { injected: injected as unknown as InjectedContext } : {}),
      ...(isStr(host) ? { host } : {}),
    },
  };
}

/** Files set aside as unreadable (`inbox/rejected/`), newest first, at most `limit`. */
export function listRejected(dir: string, limit: number): { name: string; bytes: number; at: number }[] {
  const rejected = join(dir, 'rejected');
  let names: string[];
  try {
    names = readdirSync(rejected);
  } catch {
    return []; // nothing was ever rejected
  }
  const out: { name: string; bytes: number; at: number }[] = [];
  for (const name of names) {
    try {
      const st = statSync(join(rejected, name));
      out.push({ name, bytes: st.size, at: st.mtimeMs });
    } catch {
      // Deleted between the listing and the stat: no longer rejected.
    }
  }
  return out.sort((a, b) => b.at - a.at).slice(0, limit);
}

export interface ImportReport {
  imported: number;
  rejected: number;
  /** Why each rejected file was set aside, by file name. */
  reasons: { file: string; reason: string }[];
  /** Files written by a newer engram, left in place. */
  newer: number;
}

function reject(dir: string, name: string, reason: string, report: ImportReport): void {
  mkdirSync(join(dir, 'rejected'), { recursive: true, mode: 0o700 });
  try {
    renameSync(join(dir, name), join(dir, 'rejected', name));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return; // another importer took it
    throw error;
  }
  report.rejected++;
  report.reasons.push({ file: name, reason });
}

/**
 * Hand inbox events to `accept` in batches (oldest first); files are deleted only after `accept`
 * returned, so a crash in between leaves them to be imported again (and ignored as already imported).
 * A file that cannot be read or has the wrong shape is moved to `rejected/` rather than lost.
 */
export function importInbox(
  dir: string,
  accept: (entries: InboxEntry[]) => void,
  batchSize = 500,
): ImportReport {
  const report: ImportReport = { imported: 0, rejected: 0, reasons: [], newer: 0 };
  const names = listInbox(dir);
  for (let i = 0; i < names.length; i += batchSize) {
    const batch: InboxEntry[] = [];
    const done: string[] = [];
    for (const name of names.slice(i, i + batchSize)) {
      const path = join(dir, name);
      let value: unknown;
      try {
        value = JSON.parse(readFileSync(path, 'utf8'));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue; // another importer took it
        reject(dir, name, `not readable JSON (${(error as Error).message.slice(0, 120)})`, report);
        continue;
      }
      const checked = checkInboxRecord(value);
      if (!checked.ok) {
        if (checked.newer) report.newer++;
        else reject(dir, name, checked.reason, report);
        continue;
      }
      batch.push({ ...checked.record, key: name });
      done.push(path);
    }
    if (batch.length > 0) accept(batch);
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
