/**
 * Ids of the graph's own nodes (memories keep their `obs_` ids): file nodes (`fil_`, stable per
 * project and path) and session nodes (`ses_` + the host's session id).
 */
import { createHash } from 'node:crypto';
import type { Brand, ProjectId } from '../core/ids.ts';

export type FileNodeId = Brand<string, 'FileNodeId'>;
export type SessionNodeId = Brand<string, 'SessionNodeId'>;

/** The same file of the same project always gets the same id (on every machine). */
export function fileNodeId(projectId: ProjectId, path: string): FileNodeId {
  const hash = createHash('sha1').update(`${projectId}\0${path}`).digest('hex').slice(0, 20);
  return `fil_${hash}` as FileNodeId;
}

export function sessionNodeId(sessionId: string): SessionNodeId {
  return `ses_${sessionId}` as SessionNodeId;
}

export function isFileNodeId(id: string): id is FileNodeId {
  return /^fil_[0-9a-f]{20}$/.test(id);
}

export function isSessionNodeId(id: string): id is SessionNodeId {
  return id.startsWith('ses_') && id.length > 4;
}

/** The host's session id inside a session node id. */
export function sessionIdOf(id: SessionNodeId): string {
  return id.slice(4);
}
