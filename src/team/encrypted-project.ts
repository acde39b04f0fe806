/**
 * What the server enforces for an end-to-end encrypted project (migration 0006). It cannot read a
 * sealed record, so it checks only that nothing arrives in the clear and nothing under a key version
 * older than the newest it has seen; membership, ordering, tombstones and the audit chain are enforced
 * as for any project.
 */
import { EngramError } from '../core/errors.ts';
import type { Tx } from './database.ts';
import { isSealed, type ProjectState, type PushRecord } from './protocol.ts';

/**
 * An encrypted project takes sealed records only (a tombstone has no body to seal), each sealed with
 * its newest key version; the first sealed record makes a project encrypted for good, and the first of
 * a new version makes that version the newest. A plain record, or one sealed with an older version,
 * refuses the whole batch, so the client keeps it queued until it holds the current key (nothing is
 * set aside for good).
 */
export async function keepEncrypted(
  tx: Tx,
  projectId: string,
  head: { encrypted: boolean; key_version: number },
  records: readonly PushRecord[],
): Promise<void> {
  const bodies = records.filter((r) => !r.deleted);
  const versions = bodies.flatMap((r) => (isSealed(r.body) ? [r.body.kv] : []));
  if ((head.encrypted || versions.length > 0) && versions.length < bodies.length)
    throw new EngramError(
      'KEY_MISSING',
      `project ${projectId} is end-to-end encrypted: the server takes only records sealed with its key`,
    );
  if (versions.length === 0) return;
  const oldest = Math.min(...versions);
  if (oldest < head.key_version)
    throw new EngramError(
      'KEY_MISSING',
      `project ${projectId}'s key was rotated to version ${head.key_version}: a record sealed with version ${oldest} is refused`,
      {
        hint: 'Import the current key ("engram team key export" on a machine that has it, then "engram team key import").',
      },
    );
  const newest = Math.max(...versions);
  // (Taken once per project and key version: the row is otherwise only read, so pushes do not queue on it.)
  if (newest > head.key_version || !head.encrypted)
    await tx.query(
      'UPDATE heads SET encrypted = true, key_version = greatest(key_version, $2) WHERE project_id = $1',
      [projectId, newest],
    );
}

/** An encrypted project's state travels sealed: branch and commit withheld, the files one sealed text. */
export function keepStateSealed(projectId: string, s: ProjectState): void {
  const sealed = s.branch === null && s.commit === null && (s.files[0]?.startsWith('e2ee:') ?? false);
  if (!sealed)
    throw new EngramError(
      'KEY_MISSING',
      `project ${projectId} is end-to-end encrypted: its state is taken sealed only`,
    );
}
