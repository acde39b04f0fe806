/**
 * The audit log: one row per read and write, hash-chained per project (the chain `server` holds the
 * rest: users, tokens, failed sign-ins). Rows are appended by `engram_audit_append` in SQL under a
 * lock on the chain's head, so a chain is numbered and linked in commit order; `verifyAudit`
 * recomputes every hash and link and compares each chain's last row with its head, so a row changed
 * or deleted in SQL is found. (Someone who can rewrite a whole chain and its head can hide that too:
 * keep the printed head hashes somewhere else to catch it.)
 */
import { finishWith, num, sqlLiteral, type Tx } from './database.ts';
import type { Principal } from './principal.ts';
import type { AuditEntry, AuditVerifyReport } from './protocol.ts';

export const SERVER_CHAIN = 'server';

export interface AuditEvent {
  chain: string;
  at: number;
  principal: Principal | null;
  action: string;
  target?: string | null;
  detail?: Record<string, unknown> | null;
  requestId: string;
}

/** engram_audit_append's nine arguments for an event, in order. */
export function auditArguments(e: AuditEvent): (string | number | null)[] {
  return [
    e.chain,
    e.at,
    e.principal?.userId ?? null,
    e.principal?.userName ?? null,
    e.principal?.device ?? null,
    e.action,
    e.target ?? null,
    e.detail ? JSON.stringify(e.detail) : null,
    e.requestId,
  ];
}

/**
 * Append the event as the transaction's last statement, sent with its COMMIT (database finishWith): the
 * chain's head is locked from the append until PostgreSQL commits, with no round trip to this process
 * in between — so requests appending to one chain (every push to a project) queue on it only for the
 * append and the commit's flush.
 */
export function appendAuditAtCommit(tx: Tx, e: AuditEvent): void {
  finishWith(tx, `SELECT engram_audit_append(${auditArguments(e).map(sqlLiteral).join(', ')})`);
}

export async function appendAudit(tx: Tx, e: AuditEvent): Promise<void> {
  await tx.query({
    name: 'audit-append',
    text: 'SELECT engram_audit_append($1, $2, $3, $4, $5, $6, $7, $8, $9)',
    values: auditArguments(e),
  });
}

interface AuditRow {
  chain: string;
  seq: string;
  at: string;
  user_name: string | null;
  device: string | null;
  action: string;
  target: string | null;
  detail: string | null;
  request_id: string | null;
  hash: string;
}

/** The newest entries the tenant may see (server admins: all; project admins: their projects). */
export async function listAudit(
  tx: Tx,
  options: { chain?: string | undefined; limit: number },
): Promise<AuditEntry[]> {
  const r = await tx.query<AuditRow>(
    `SELECT chain, seq, at, user_name, device, action, target, detail, request_id, hash FROM audit_log
     WHERE ($1::text IS NULL OR chain = $1) ORDER BY at DESC, chain, seq DESC LIMIT $2`,
    [options.chain ?? null, options.limit],
  );
  return r.rows.map((row) => ({
    chain: row.chain,
    seq: num(row.seq),
    at: num(row.at),
    user: row.user_name,
    device: row.device,
    action: row.action,
    target: row.target,
    detail: row.detail,
    requestId: row.request_id,
    hash: row.hash,
  }));
}

/** Recompute every visible chain: hashes, links, numbering, and the head. */
export async function verifyAudit(tx: Tx): Promise<AuditVerifyReport> {
  const bad = await tx.query<{ chain: string; seq: string; hash_ok: boolean; link_ok: boolean }>(
    `WITH rows AS (
       SELECT chain, seq, prev_hash, hash,
              encode(sha256(engram_audit_bytes(chain, seq, at, user_id, user_name, device, action, target,
                                               detail, request_id, prev_hash)), 'hex') AS computed,
              lag(seq) OVER w AS prev_seq, lag(hash) OVER w AS prev_row_hash
         FROM audit_log WINDOW w AS (PARTITION BY chain ORDER BY seq))
     SELECT chain, seq, hash = computed AS hash_ok,
            CASE WHEN prev_seq IS NULL THEN seq = 1 AND prev_hash = ''
                 ELSE prev_seq = seq - 1 AND prev_hash = prev_row_hash END AS link_ok
       FROM rows WHERE hash <> computed OR NOT
            (CASE WHEN prev_seq IS NULL THEN seq = 1 AND prev_hash = ''
                  ELSE prev_seq = seq - 1 AND prev_hash = prev_row_hash END)
      ORDER BY chain, seq LIMIT 1000`,
  );
  const chains = await tx.query<{
    chain: string;
    rows: string;
    last_seq: string | null;
    last_hash: string | null;
    head_seq: string | null;
    head_hash: string | null;
  }>(
    `WITH visible AS (SELECT chain FROM audit_heads WHERE engram_admin() OR engram_can(chain, 'manage')
                      UNION SELECT DISTINCT chain FROM audit_log)
     SELECT v.chain, (SELECT count(*) FROM audit_log a WHERE a.chain = v.chain) AS rows,
            (SELECT a.seq FROM audit_log a WHERE a.chain = v.chain ORDER BY a.seq DESC LIMIT 1) AS last_seq,
            (SELECT a.hash FROM audit_log a WHERE a.chain = v.chain ORDER BY a.seq DESC LIMIT 1) AS last_hash,
            h.last_seq AS head_seq, h.last_hash AS head_hash
       FROM visible v LEFT JOIN audit_heads h ON h.chain = v.chain ORDER BY v.chain`,
  );
  const report: AuditVerifyReport = { ok: true, chains: [] };
  for (const c of chains.rows) {
    const problems: string[] = [];
    for (const b of bad.rows.filter((row) => row.chain === c.chain)) {
      if (!b.hash_ok) problems.push(`row ${b.seq}: its content does not match its hash (changed)`);
      if (!b.link_ok)
        problems.push(`row ${b.seq}: does not follow the row before it (a row was removed or changed)`);
    }
    if (c.head_seq === null) problems.push('the chain has no head');
    else if (num(c.head_seq) !== num(c.last_seq) || (c.head_hash ?? '') !== (c.last_hash ?? '')) {
      problems.push(
        `the chain ends at row ${num(c.last_seq)} but its head says ${num(c.head_seq)} (rows at the end were removed or changed)`,
      );
    }
    report.chains.push({
      chain: c.chain,
      rows: num(c.rows),
      head: c.head_hash ?? '',
      ok: problems.length === 0,
      problems,
    });
    if (problems.length > 0) report.ok = false;
  }
  return report;
}
