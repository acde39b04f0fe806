/**
 * The first start on an empty database: one admin user (`admin`) and a one-time token for it,
 * written to a file only its owner can read and never shown again.
 */
import { writeFileSync } from 'node:fs';
import { unlink } from 'node:fs/promises';
import { insertToken, insertUser } from './admin-store.ts';
import { appendAudit, SERVER_CHAIN } from './audit-log.ts';
import { ownerTransaction, type Pool } from './database.ts';

/** Create the admin and its token when there are no users yet; returns where the token went, or null. */
export async function bootstrapAdmin(pool: Pool, tokenFile: string, now: number): Promise<string | null> {
  return ownerTransaction(pool, async (tx) => {
    // Serialise with other instances starting at once, then look again.
    await tx.query('LOCK TABLE users IN EXCLUSIVE MODE');
    await tx.query(`SELECT set_config('engram.admin', 'on', true)`);
    const any = await tx.query('SELECT 1 FROM users LIMIT 1');
    if (any.rows.length > 0) return null;
    const userId = await insertUser(tx, { name: 'admin', admin: true, passwordHash: null }, now);
    const token = await insertToken(
      tx,
      { userId, device: 'bootstrap', scopes: ['read', 'write', 'admin'], expiresInDays: null },
      now,
    );
    await appendAudit(tx, {
      chain: SERVER_CHAIN,
      at: now,
      principal: null,
      action: 'bootstrap',
      target: 'admin',
      detail: { tokenId: token.id },
      requestId: 'bootstrap',
    });
    // 'wx': never overwrite a file; if the commit then fails, the file goes again.
    writeFileSync(tokenFile, `${token.token}\n`, { mode: 0o600, flag: 'wx' });
    return tokenFile;
  }).catch(async (error: unknown) => {
    if ((error as { code?: string }).code !== 'EEXIST') await unlink(tokenFile).catch(() => undefined);
    throw error;
  });
}
