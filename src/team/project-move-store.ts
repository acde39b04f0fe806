/**
 * A project moved into another, server side (a client's `engram project move|merge` of a shared
 * project). Every entity of the old project — tombstones included, so a forget still reaches everyone —
 * is copied into the new one (new sequence numbers, same ids, versions, hashes, authors and origins;
 * in chunks, one transaction each, numbered like pushes); an entity the new project already holds is kept as it is.
 * The old project keeps its rows and names the new one (`moved_to`): each puller of the old project
 * learns where it went and follows. Only someone who manages the old project and may write the new
 * one can move it.
 */
import { EngramError } from '../core/errors.ts';
import type { Tx } from './database.ts';
import type { MoveResponse } from './protocol.ts';

export async function moveProject(
  tx: Tx,
  fromId: string,
  toId: string,
): Promise<MoveResponse & { more: boolean }> {
  if (fromId === toId)
    throw new EngramError('INPUT_INVALID', `${fromId} cannot move into itself`, {
      hint: 'Name the project it moves into: its remote, name:<project> or prj_ id.',
    });
  const may = await tx.query<{ manage: boolean; write: boolean }>(
    `SELECT engram_admin() OR engram_can($1, 'manage') AS manage, engram_can($2, 'write') AS write`,
    [fromId, toId],
  );
  const from = await tx.query('SELECT 1 FROM projects WHERE id = $1', [fromId]);
  if (from.rows.length === 0 || !may.rows[0]?.manage)
    throw new EngramError('FORBIDDEN', `you do not manage project ${fromId}`, {
      hint: 'A project admin moves a project: engram team admin grant --role admin.',
    });
  const target = await tx.query<{ id: string; key: string; name: string }>(
    'SELECT id, key, name FROM projects WHERE id = $1',
    [toId],
  );
  const to = target.rows[0];
  if (!to || !may.rows[0]?.write)
    throw new EngramError('FORBIDDEN', `you may not write project ${toId} on this server`, {
      hint: 'A server admin creates it with your role: engram team admin grant --user <you> --project <its remote or name:<project>> --role admin.',
    });
  // Pushes to the old project hold its head row in share mode (sync-store): taking it for update waits
  // for those in flight, and every push after this transaction sees the move and is refused.
  const old = await tx.query<{ moved_to: string | null; encrypted: boolean }>(
    `SELECT p.moved_to, h.encrypted FROM heads h JOIN projects p ON p.id = h.project_id WHERE h.project_id = $1 FOR UPDATE OF h`,
    [fromId],
  );
  // Sealed records are bound to the project they were pushed to: copied elsewhere, none would open
  // (and plain ones copied into an encrypted project would be refused by every reader).
  const sealed = await tx.query<{ encrypted: boolean }>(
    'SELECT bool_or(encrypted) AS encrypted FROM heads WHERE project_id IN ($1, $2)',
    [fromId, toId],
  );
  if (old.rows[0]?.encrypted || sealed.rows[0]?.encrypted)
    throw new EngramError(
      'CONFLICT',
      `moving an end-to-end encrypted project (or into one) is not supported yet`,
      {
        hint: 'Keep sharing it under its present name.',
      },
    );
  const already = old.rows[0]?.moved_to ?? null;
  if (already !== null && already !== toId)
    throw new EngramError('CONFLICT', `project ${fromId} already moved to ${already}`, {
      hint: `Move it into ${already}, where its records went.`,
    });
  await tx.query('UPDATE projects SET moved_to = $2 WHERE id = $1', [fromId, toId]);
  const first = await copyMoveChunk(tx, fromId, toId);
  return { from: fromId, to, copied: first.copied, more: first.more };
}

/** Records one transaction copies: each push numbers at most 1024 rows (team migration 0003). */
const CHUNK = 1000;

/**
 * Copy the next records of a moved project into the one it moved to: those the new project does not
 * hold yet, numbered from this transaction's position like a push (so no puller's cursor passes them),
 * at most CHUNK per transaction; `more` while any are left. Idempotent: a retry goes on where it stopped.
 */
export async function copyMoveChunk(
  tx: Tx,
  fromId: string,
  toId: string,
): Promise<{ copied: number; more: boolean }> {
  const copied = await tx.query(
    `INSERT INTO entities (project_id, kind, entity_id, seq, version, hash, deleted, body, author_id,
                           author_name, device, created_at, updated_at, origin_name, origin_device)
     SELECT $2, e.kind, e.entity_id, engram_push_position() + row_number() OVER (ORDER BY e.seq) - 1,
            e.version, e.hash, e.deleted, e.body, e.author_id, e.author_name, e.device, e.created_at,
            e.updated_at, COALESCE(e.origin_name, e.author_name), COALESCE(e.origin_device, e.device)
       FROM (SELECT * FROM entities e
              WHERE e.project_id = $1
                AND NOT EXISTS (SELECT 1 FROM entities x
                                 WHERE x.project_id = $2 AND x.kind = e.kind AND x.entity_id = e.entity_id)
              ORDER BY e.seq LIMIT $3) e
     ON CONFLICT (project_id, kind, entity_id) DO NOTHING`,
    [fromId, toId, CHUNK],
  );
  const left = await tx.query<{ more: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM entities e WHERE e.project_id = $1
                      AND NOT EXISTS (SELECT 1 FROM entities x WHERE x.project_id = $2
                                        AND x.kind = e.kind AND x.entity_id = e.entity_id)) AS more`,
    [fromId, toId],
  );
  return { copied: copied.rowCount ?? 0, more: left.rows[0]?.more === true };
}
