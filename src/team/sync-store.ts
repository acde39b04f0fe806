/**
 * Push and pull of shared records, server side. Pushes to one project run side by side: a push locks
 * only the entities it writes (transaction-level advisory locks, taken in one sorted order so two
 * pushes cannot deadlock), and numbers its records from its own transaction id
 * (engram_push_position, migration 0003), so no row is shared by every pusher. Commit order is
 * therefore not sequence order; a puller reads only below engram_pull_horizon — the position of the
 * oldest transaction still running — and every transaction that can still commit numbers its rows
 * at or above it, so a cursor never passes a row that commits later. Each entity keeps only its
 * latest version (a new version moves it above every number a puller has been given); a tombstone
 * keeps the id and drops the body: forgotten content is purged from the server, and every device
 * learns of the forget from the tombstone.
 */
import { unstorableCharacter } from '../core/clean-text.ts';
import { EngramError } from '../core/errors.ts';
import { num, ownerTransaction, type Pool, type Tx } from './database.ts';
import type { Principal } from './principal.ts';
import {
  type EntityKind,
  type MemberState,
  type ProjectState,
  type PulledRecord,
  type PushRecord,
  type PushResult,
} from './protocol.ts';
import { keepEncrypted, keepStateSealed } from './encrypted-project.ts';
import { checkRecord } from './record-check.ts';
import { appendAuditAtCommit, type AuditEvent } from './audit-log.ts';

interface Existing {
  version: number;
  hash: string;
  deleted: boolean;
  author: string;
}

interface Write {
  kind: EntityKind;
  id: string;
  version: number;
  hash: string;
  deleted: boolean;
  body: string | null;
}

/**
 * Apply a batch to a project the tenant may write, and append the push's audit row (`auditOf`, told
 * the results) in the same transaction. Idempotent: a record whose hash the server already has is a
 * `duplicate`; one made on an older version than the server's is a `conflict` (nothing is overwritten:
 * the client keeps both); anything for a tombstoned entity is `gone`. A tombstone always wins. Returns
 * null when the tenant may not write the project (nothing written, nothing audited).
 *
 * Two round trips to PostgreSQL before the COMMIT (three when a sealed push marks the project encrypted
 * or raises its key version): engram_push_begin (team migration 0009: the head row in share mode, the
 * batch's entity locks, then their current rows); then, the records checked here, one statement that
 * writes the accepted records and blanks the search words of the memories they replace. The audit row
 * is appended by the statement sent with the COMMIT (one message): the project's audit chain, which
 * every push to it appends to, is locked only while PostgreSQL appends and commits.
 */
export async function pushRecords(
  tx: Tx,
  who: Principal,
  projectId: string,
  records: readonly PushRecord[],
  auditOf: (results: readonly PushResult[]) => AuditEvent,
): Promise<{ results: PushResult[]; accepted: number } | null> {
  const keyOf = (kind: string, id: string) => `${kind}\u0000${id}`;
  // (An id PostgreSQL cannot hold is looked up nowhere: that record is rejected below.)
  const lookup = records.filter((r) => unstorableCharacter(r.id) === null);
  const begun = await tx.query<{
    kind: string | null;
    entity_id: string;
    version: number;
    hash: string;
    deleted: boolean;
    author_name: string;
    moved_to: string | null;
    encrypted: boolean;
    key_version: number;
  }>({
    name: 'push-begin',
    text: 'SELECT * FROM engram_push_begin($1, $2::text[], $3::text[])',
    values: [projectId, lookup.map((r) => r.kind), lookup.map((r) => r.id)],
  });
  const head = begun.rows[0];
  if (head === undefined) return null;
  if (head.moved_to !== null)
    throw new EngramError('CONFLICT', `project ${projectId} moved to ${head.moved_to}`, {
      hint: 'Pull it: the client follows the move and pushes to the new project.',
    });
  await keepEncrypted(tx, projectId, head, records);
  const existing = new Map<string, Existing>();
  for (const row of begun.rows) {
    if (row.kind === null) continue; // the head
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
    const { reason, json } = checkRecord(r);
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
    writes.set(key, {
      kind: r.kind,
      id: r.id,
      version,
      hash: r.hash,
      deleted: r.deleted,
      body: json,
    });
    existing.set(key, { version, hash: r.hash, deleted: r.deleted, author: who.userName });
    results.push({ kind: r.kind, id: r.id, status: 'accepted', version });
  }
  // The audit row goes in last, sent with the COMMIT: the chain's head is locked only from the append
  // until PostgreSQL commits (audit-log appendAuditAtCommit).
  appendAuditAtCommit(tx, auditOf(results));
  if (writes.size === 0) return { results, accepted: 0 };
  // The batch as one JSON parameter: each body goes in as the JSON text its check measured (no array
  // literal to escape and parse again); a tombstone has no "b", so its body is NULL.
  const rows = [...writes.values()].map(
    (x, s) =>
      `{"k":${JSON.stringify(x.kind)},"i":${JSON.stringify(x.id)},"s":${s},"v":${x.version},"h":${JSON.stringify(x.hash)},"d":${x.deleted}${x.body === null ? '' : `,"b":${x.body}`}}`,
  );
  // A memory's older version may have been indexed for the web view's search (team migration 0008):
  // its row takes the new version with no words, in this transaction, so erased or replaced text
  // leaves the index when the push commits, and an index run that read the older version cannot
  // write it back. A new memory has nothing indexed: its words are made at the next search.
  const replaced = [...writes.values()].filter((x) => x.kind === 'memory' && x.version > 1);
  await tx.query({
    name: 'push-write',
    text: `WITH written AS (
         INSERT INTO entities (project_id, kind, entity_id, seq, version, hash, deleted, body, author_id,
                               author_name, device, origin_name, origin_device)
         SELECT $1, x.k, x.i, pos.first + x.s, x.v, x.h, x.d, x.b, $3, $4, $5, $4, $5
           FROM jsonb_to_recordset($2::jsonb) AS x (k text, i text, s int, v int, h text, d boolean, b jsonb),
                (SELECT engram_push_position() AS first) pos
         ON CONFLICT (project_id, kind, entity_id) DO UPDATE SET
           seq = excluded.seq, version = excluded.version, hash = excluded.hash, deleted = excluded.deleted,
           body = excluded.body, author_id = excluded.author_id, author_name = excluded.author_name,
           device = excluded.device, updated_at = now()
       )
       INSERT INTO memory_words (project_id, entity_id, version, words)
       SELECT $1, x.i, x.v, NULL FROM unnest($6::text[], $7::int[]) AS x (i, v)
       ON CONFLICT (project_id, entity_id) DO UPDATE SET version = excluded.version, words = NULL
         WHERE memory_words.version <= excluded.version`,
    values: [
      projectId,
      `[${rows.join(',')}]`,
      who.userId,
      who.userName,
      who.device,
      replaced.map((x) => x.id),
      replaced.map((x) => x.version),
    ],
  });
  return { results, accepted: writes.size };
}

/**
 * Keep new sequence numbers above every stored one. They grow with PostgreSQL's transaction ids, which
 * start low again when a dump is restored into a new cluster: then the base is raised past the highest
 * stored number (run by the owner on every start, reading every project as a server admin would) — and
 * past each project's search-words mark (team migration 0008: the search indexes only rows at or above
 * it, so a row numbered below it would never be found). Returns the base when it had to be raised, else
 * null.
 */
export async function ensureSeqBase(pool: Pool): Promise<number | null> {
  return ownerTransaction(pool, async (tx) => {
    await tx.query(`SELECT set_config('engram.admin', 'on', true)`);
    await tx.query(
      `SELECT set_config('engram.read', coalesce((SELECT string_agg(id, ',') FROM projects), ''), true)`,
    );
    const r = await tx.query<{ value: string }>(
      `UPDATE meta SET value = (top.seq + 1 - pg_current_xact_id()::text::bigint * 1024)::text
         FROM (SELECT greatest(coalesce(max(seq), 0), (SELECT max(seq) FROM memory_word_marks)) AS seq
                 FROM entities) top
        WHERE key = 'seq_base' AND engram_push_position() <= top.seq
        RETURNING value`,
    );
    return r.rows[0] ? num(r.rows[0].value) : null;
  });
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
  encrypted: boolean;
} | null> {
  // The horizon first, then the rows (a later snapshot in which everything below it has ended).
  // The head is the project's highest number committed so far, above the horizon or not.
  const head = await tx.query<{ horizon: string; head: string | null; encrypted: boolean }>(
    `SELECT engram_pull_horizon() AS horizon, (SELECT max(seq) FROM entities WHERE project_id = $1) AS head,
            encrypted
       FROM heads WHERE project_id = $1`,
    [projectId],
  );
  const found = head.rows[0];
  if (!found) return null;
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
       FROM entities WHERE project_id = $1 AND seq > $2 AND seq < $4 ORDER BY seq LIMIT $3`,
    [projectId, after, limit + 1, found.horizon],
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
  return {
    head: num(found.head),
    records,
    more,
    movedTo: moved.rows[0] ?? null,
    encrypted: found.encrypted,
  };
}

/** Name the device of a token (the caller's own: row-level security allows no other). */
export async function nameDevice(tx: Tx, tokenId: string, device: string): Promise<void> {
  await tx.query('UPDATE tokens SET device = $2 WHERE id = $1', [tokenId, device]);
}

/** Record this member's branch, commit and changed files on this device. False: may not write. */
export async function putState(tx: Tx, who: Principal, projectId: string, s: ProjectState): Promise<boolean> {
  const head = await tx.query<{ encrypted: boolean }>(
    'SELECT encrypted FROM heads WHERE project_id = $1 AND engram_can(project_id, $2)',
    [projectId, 'write'],
  );
  if (head.rows.length === 0) return false;
  if (head.rows[0]?.encrypted) keepStateSealed(projectId, s);
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
