/**
 * Push and pull of shared records, server side. A push takes the project's head row FOR UPDATE, so
 * pushes to one project are serialised: sequence numbers are handed out under the lock and committed
 * before the next pusher gets it. Commit order is therefore sequence order, and a puller reading
 * `seq > cursor` (in any snapshot) can never see a later row without every earlier one — no row is
 * skipped under concurrent writers. Each entity keeps only its latest version (a new version moves
 * it to a new sequence number); a tombstone keeps the id and drops the body: forgotten content is
 * purged from the server, and every device learns of the forget from the tombstone.
 */
import { unstorableCharacter } from '../core/clean-text.ts';
import { EngramError } from '../core/errors.ts';
import { scrubTextWithCount } from '../core/scrub.ts';
import { num, type Tx } from './database.ts';
import type { Principal } from './principal.ts';
import {
  linkBodySchema,
  MAX_RECORD_CHARS,
  memoryBodySchema,
  summaryBodySchema,
  type EntityKind,
  type MemberState,
  type ProjectState,
  type PulledRecord,
  type PushRecord,
  type PushResult,
} from './protocol.ts';
import { recordHash } from './record-hash.ts';

const BODY_SCHEMAS = { memory: memoryBodySchema, summary: summaryBodySchema, link: linkBodySchema };

interface Existing {
  version: number;
  hash: string;
  deleted: boolean;
  author: string;
}

interface Write {
  kind: EntityKind;
  id: string;
  seq: number;
  version: number;
  hash: string;
  deleted: boolean;
  body: string | null;
}

/** Every string inside a value (with `keys`, object keys too). */
function stringsOf(value: unknown, out: string[] = [], keys = false): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) stringsOf(v, out, keys);
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) {
      if (keys) out.push(k);
      stringsOf(v, out, keys);
    }
  return out;
}

/** What in a record PostgreSQL could not store (a NUL, half a surrogate pair), or null. */
function unstorableIn(r: PushRecord): string | null {
  for (const text of [r.id, ...stringsOf(r.body, [], true)]) {
    const found = unstorableCharacter(text);
    if (found !== null) return `it holds ${found}, which the server cannot store`;
  }
  return null;
}

/** Why a record may not be stored, or null. The server re-checks what every client checks. */
export function rejectReason(r: PushRecord): string | null {
  const unstorable = unstorableIn(r);
  if (unstorable !== null) return unstorable;
  if (r.hash !== recordHash(r.kind, r.id, r.deleted, r.body)) return 'its hash does not match its content';
  if (r.deleted) return r.body === null ? null : 'a tombstone carries no body';
  const parsed = BODY_SCHEMAS[r.kind].safeParse(r.body);
  if (!parsed.success) return `malformed ${r.kind}: ${parsed.error.issues[0]?.message ?? 'invalid'}`;
  if (JSON.stringify(r.body).length > MAX_RECORD_CHARS) return `larger than ${MAX_RECORD_CHARS} characters`;
  for (const text of stringsOf(r.body)) {
    if (scrubTextWithCount(text).redactions > 0) return 'it holds what looks like a secret';
  }
  return null;
}

/**
 * Apply a batch to a project the tenant may write. Idempotent: a record whose hash the server already
 * has is a `duplicate`; one made on an older version than the server's is a `conflict` (nothing is
 * overwritten: the client keeps both); anything for a tombstoned entity is `gone`. A tombstone always
 * wins. Returns null when the tenant may not write the project.
 */
export async function pushRecords(
  tx: Tx,
  who: Principal,
  projectId: string,
  records: readonly PushRecord[],
): Promise<{ results: PushResult[]; accepted: number } | null> {
  const head = await tx.query<{ last_seq: string; moved_to: string | null }>(
    `SELECT h.last_seq, p.moved_to FROM heads h JOIN projects p ON p.id = h.project_id
      WHERE h.project_id = $1 FOR UPDATE OF h`,
    [projectId],
  );
  if (head.rows.length === 0) return null;
  const movedTo = head.rows[0]?.moved_to ?? null;
  if (movedTo !== null)
    throw new EngramError('CONFLICT', `project ${projectId} moved to ${movedTo}`, {
      hint: 'Pull it: the client follows the move and pushes to the new project.',
    });
  let seq = num(head.rows[0]?.last_seq ?? 0);
  const existing = new Map<string, Existing>();
  const keyOf = (kind: string, id: string) => `${kind}\u0000${id}`;
  const lookup = records.filter((r) => unstorableCharacter(r.id) === null);
  const found = await tx.query<{
    kind: string;
    entity_id: string;
    version: number;
    hash: string;
    deleted: boolean;
    author_name: string;
  }>(
    `SELECT kind, entity_id, version, hash, deleted, author_name FROM entities
     WHERE project_id = $1 AND (kind, entity_id) IN (SELECT * FROM unnest($2::text[], $3::text[]))`,
    // (An id PostgreSQL cannot hold is looked up nowhere: that record is rejected below.)
    [projectId, lookup.map((r) => r.kind), lookup.map((r) => r.id)],
  );
  for (const row of found.rows) {
    existing.set(keyOf(row.kind, row.entity_id), {
      version: row.version,
      hash: row.hash,
      deleted: row.deleted,
      author: row.author_name,
    });
  }
  const results: PushResult[] = [];
  const writes = new Map<string, Write>();
  for (const r of records) {
    const key = keyOf(r.kind, r.id);
    const ex = existing.get(key);
    const reason = rejectReason(r);
    if (reason !== null) {
      results.push({ kind: r.kind, id: r.id, status: 'rejected', version: ex?.version ?? 0, reason });
      continue;
    }
    if (ex && ex.hash === r.hash) {
      results.push({ kind: r.kind, id: r.id, status: 'duplicate', version: ex.version });
      continue;
    }
    // A forgotten memory never comes back; a removed link may be added again.
    if (ex?.deleted && r.kind === 'memory') {
      results.push({ kind: r.kind, id: r.id, status: 'gone', version: ex.version, reason: 'forgotten' });
      continue;
    }
    if (ex && !r.deleted && r.baseVersion !== null && r.baseVersion !== ex.version) {
      results.push({
        kind: r.kind,
        id: r.id,
        status: 'conflict',
        version: ex.version,
        by: ex.author,
        reason: `changed on the server (version ${ex.version}) since version ${r.baseVersion}`,
      });
      continue;
    }
    const version = (ex?.version ?? 0) + 1;
    seq += 1;
    writes.set(key, {
      kind: r.kind,
      id: r.id,
      seq,
      version,
      hash: r.hash,
      deleted: r.deleted,
      body: r.deleted ? null : JSON.stringify(r.body),
    });
    existing.set(key, { version, hash: r.hash, deleted: r.deleted, author: who.userName });
    results.push({ kind: r.kind, id: r.id, status: 'accepted', version });
  }
  if (writes.size > 0) {
    const w = [...writes.values()];
    await tx.query(
      `INSERT INTO entities (project_id, kind, entity_id, seq, version, hash, deleted, body, author_id,
                             author_name, device, origin_name, origin_device)
       SELECT $1, k, i, s, v, h, d, b::jsonb, $9, $10, $11, $10, $11
         FROM unnest($2::text[], $3::text[], $4::bigint[], $5::int[], $6::text[], $7::bool[], $8::text[])
              AS x (k, i, s, v, h, d, b)
       ON CONFLICT (project_id, kind, entity_id) DO UPDATE SET
         seq = excluded.seq, version = excluded.version, hash = excluded.hash, deleted = excluded.deleted,
         body = excluded.body, author_id = excluded.author_id, author_name = excluded.author_name,
         device = excluded.device, updated_at = now()`,
      [
        projectId,
        w.map((x) => x.kind),
        w.map((x) => x.id),
        w.map((x) => x.seq),
        w.map((x) => x.version),
        w.map((x) => x.hash),
        w.map((x) => x.deleted),
        w.map((x) => x.body),
        who.userId,
        who.userName,
        who.device,
      ],
    );
    await tx.query('UPDATE heads SET last_seq = $2 WHERE project_id = $1', [projectId, seq]);
  }
  return { results, accepted: writes.size };
}

/** One page of records after `after`, in sequence order. Null when the tenant may not read the project. */
export async function pullRecords(
  tx: Tx,
  projectId: string,
  after: number,
  limit: number,
): Promise<{
  head: number;
  records: PulledRecord[];
  more: boolean;
  movedTo: { id: string; key: string; name: string } | null;
} | null> {
  const head = await tx.query<{ last_seq: string }>('SELECT last_seq FROM heads WHERE project_id = $1', [
    projectId,
  ]);
  if (head.rows.length === 0) return null;
  const rows = await tx.query<{
    seq: string;
    kind: EntityKind;
    entity_id: string;
    version: number;
    hash: string;
    deleted: boolean;
    body: unknown;
    author_name: string;
    device: string;
    origin_name: string | null;
    origin_device: string | null;
    at: string;
  }>(
    `SELECT seq, kind, entity_id, version, hash, deleted, body, author_name, device, origin_name,
            origin_device, (extract(epoch FROM updated_at) * 1000)::bigint AS at
       FROM entities WHERE project_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`,
    [projectId, after, limit + 1],
  );
  const more = rows.rows.length > limit;
  const records = rows.rows.slice(0, limit).map((row) => ({
    seq: num(row.seq),
    kind: row.kind,
    id: row.entity_id,
    version: row.version,
    hash: row.hash,
    deleted: row.deleted,
    body: row.body ?? null,
    author: row.author_name,
    device: row.device,
    origin: { author: row.origin_name ?? row.author_name, device: row.origin_device ?? row.device },
    at: num(row.at),
  }));
  const moved = await tx.query<{ id: string; key: string; name: string }>(
    `SELECT t.id, t.key, t.name FROM projects p JOIN projects t ON t.id = p.moved_to WHERE p.id = $1`,
    [projectId],
  );
  return { head: num(head.rows[0]?.last_seq ?? 0), records, more, movedTo: moved.rows[0] ?? null };
}

/** Name the device of a token (the caller's own: row-level security allows no other). */
export async function nameDevice(tx: Tx, tokenId: string, device: string): Promise<void> {
  await tx.query('UPDATE tokens SET device = $2 WHERE id = $1', [tokenId, device]);
}

/** Record this member's branch, commit and changed files on this device. False: may not write. */
export async function putState(tx: Tx, who: Principal, projectId: string, s: ProjectState): Promise<boolean> {
  const head = await tx.query('SELECT 1 FROM heads WHERE project_id = $1 AND engram_can(project_id, $2)', [
    projectId,
    'write',
  ]);
  if (head.rows.length === 0) return false;
  await tx.query(
    `INSERT INTO states (project_id, user_id, user_name, device, branch, commit_sha, files, file_count, at)
     VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, $9)
     ON CONFLICT (project_id, user_id, device) DO UPDATE SET user_name = excluded.user_name,
       branch = excluded.branch, commit_sha = excluded.commit_sha, files = excluded.files,
       file_count = excluded.file_count, at = excluded.at`,
    [
      projectId,
      who.userId,
      who.userName,
      who.device,
      s.branch,
      s.commit,
      JSON.stringify(s.files),
      s.fileCount,
      s.at,
    ],
  );
  return true;
}

export async function listStates(tx: Tx, projectId: string): Promise<MemberState[] | null> {
  const head = await tx.query('SELECT 1 FROM heads WHERE project_id = $1', [projectId]);
  if (head.rows.length === 0) return null;
  const r = await tx.query<{
    user_name: string;
    device: string;
    branch: string | null;
    commit_sha: string | null;
    files: string[];
    file_count: number;
    at: string;
  }>(
    'SELECT user_name, device, branch, commit_sha, files, file_count, at FROM states WHERE project_id = $1 ORDER BY at DESC LIMIT 50',
    [projectId],
  );
  return r.rows.map((row) => ({
    user: row.user_name,
    device: row.device,
    branch: row.branch,
    commit: row.commit_sha,
    files: row.files,
    fileCount: row.file_count,
    at: num(row.at),
  }));
}
