/**
 * Wire records for tests and benchmarks: a memory as a client would push it, with its real hash and
 * its keys in canonical order (as worker/team-records sends them).
 */
import type { MemoryBody, PushRecord, SummaryBody } from './protocol.ts';
import { inCanonicalOrder, recordHash } from './record-hash.ts';
import { summaryDraft } from '../core/model.ts';

/** A memory record `id`, titled `title` unless `body` says otherwise. */
export function memoryRecord(id: string, title = `memory ${id}`, body: Partial<MemoryBody> = {}): PushRecord {
  const full: MemoryBody = {
    type: 'fact',
    title,
    subtitle: '',
    narrative: '',
    facts: [],
    concepts: [],
    filesRead: [],
    filesModified: [],
    sessionId: null,
    source: 'hook',
    status: 'active',
    statusReason: null,
    supersedes: null,
    createdAt: 1,
    ...body,
  };
  return {
    kind: 'memory',
    id,
    baseVersion: null,
    hash: recordHash('memory', id, false, full),
    deleted: false,
    body: inCanonicalOrder(full),
  };
}

/** A session summary record for `sessionId`, asking `request`. */
export function summaryRecord(
  sessionId: string,
  request: string,
  body: Partial<SummaryBody> = {},
): PushRecord {
  const full: SummaryBody = {
    ...summaryDraft({ request }),
    sessionId,
    final: true,
    updatedAt: 1,
    ...body,
  };
  return {
    kind: 'summary',
    id: sessionId,
    baseVersion: null,
    hash: recordHash('summary', sessionId, false, full),
    deleted: false,
    body: inCanonicalOrder(full),
  };
}

/** A link record `from kind to`. */
export function linkRecord(from: string, kind: string, to: string): PushRecord {
  const id = `${from} ${kind} ${to}`;
  const body = { from, kind, to };
  return {
    kind: 'link',
    id,
    baseVersion: null,
    hash: recordHash('link', id, false, body),
    deleted: false,
    body: inCanonicalOrder(body),
  };
}

/** A memory's deletion as pushed: no body, its hash of a deleted record. */
export const tombstoneRecord = (id: string): PushRecord => ({
  kind: 'memory',
  id,
  baseVersion: null,
  hash: recordHash('memory', id, true, null),
  deleted: true,
  body: null,
});
