/**
 * Wire records for tests and benchmarks: a memory as a client would push it, with its real hash.
 */
import type { MemoryBody, PushRecord } from './protocol.ts';
import { recordHash } from './record-hash.ts';

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
    body: full,
  };
}
