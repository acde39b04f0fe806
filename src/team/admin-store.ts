/**
 * Users, tokens and project grants, server side. Every statement runs as `engram_app` under
 * row-level security; the checks here give clear errors, the policies are what enforce them.
 */
import { EngramError } from '../core/errors.ts';
import { newSortableId } from '../core/ids.ts';
import { num, type Tx } from './database.ts';
import { projectNameOf, type TeamProjectRef } from './project-key.ts';
import type { Role, Scope, TokenInfo, UserInfo } from './protocol.ts';
import { newToken, tokenHash } from './token-format.ts';

const DAY_MS = 86_400_000;

export interface NewTokenSpec {
  userId: string;
  device: string;
  scopes: readonly Scope[];
  expiresInDays: number | null;
  /** A web view session (accepted only from its cookie, never as an API bearer token). */
  web?: boolean;
}

export async function insertToken(
  tx: Tx,
  spec: NewTokenSpec,
  now: number,
): Promise<{ id: string; token: string }> {
  const token = newToken();
  const id = newSortableId('tok', now);
  await tx.query(
    `INSERT INTO tokens (id, user_id, token_hash, scopes, device, created_at, expires_at, web)
     VALUES ($1, $2, $3, $4, $5, to_timestamp($6 / 1000.0), to_timestamp($7 / 1000.0), $8)`,
    [
      id,
      spec.userId,
      tokenHash(token),
      spec.scopes,
      spec.device,
      now,
      spec.expiresInDays === null ? null : now + spec.expiresInDays * DAY_MS,
      spec.web === true,
    ],
  );
  return { id, token };
}

export async function insertUser(
  tx: Tx,
  user: { name: string; admin: boolean; passwordHash: string | null },
  now: number,
): Promise<string> {
  const id = newSortableId('usr', now);
  const r = await tx.query(
    `INSERT INTO users (id, name, is_admin, password_hash, created_at) VALUES ($1, $2, $3, $4, to_timestamp($5 / 1000.0))
     ON CONFLICT (name) WHERE removed_at IS NULL DO NOTHING`,
    [id, user.name, user.admin, user.passwordHash, now],
  );
  if (r.rowCount !== 1) throw new EngramError('CONFLICT', `a user named "${user.name}" exists already`);
  return id;
}

export async function userByName(
  tx: Tx,
  name: string,
): Promise<{ id: string; passwordHash: string | null } | null> {
  const r = await tx.query<{ id: string; password_hash: string | null }>(
    'SELECT id, password_hash FROM users WHERE name = $1 AND removed_at IS NULL',
    [name],
  );
  const row = r.rows[0];
  return row ? { id: row.id, passwordHash: row.password_hash } : null;
}

async function requireUser(tx: Tx, name: string): Promise<string> {
  const user = await userByName(tx, name);
  if (!user) throw new EngramError('NOT_FOUND', `no user named "${name}"`);
  return user.id;
}

const ms = (v: Date | null): number | null => (v === null ? null : v.getTime());

export async function listUsers(tx: Tx): Promise<UserInfo[]> {
  const r = await tx.query<{
    id: string;
    name: string;
    is_admin: boolean;
    created_at: Date;
    projects: { project: string; role: Role }[] | null;
    tokens: string;
  }>(
    `SELECT u.id, u.name, u.is_admin, u.created_at,
            (SELECT json_agg(json_build_object('project', p.key, 'role', m.role) ORDER BY p.key)
               FROM members m JOIN projects p ON p.id = m.project_id WHERE m.user_id = u.id) AS projects,
            (SELECT count(*) FROM tokens t WHERE t.user_id = u.id AND t.revoked_at IS NULL
               AND (t.expires_at IS NULL OR t.expires_at > now())) AS tokens
       FROM users u WHERE u.removed_at IS NULL ORDER BY u.name`,
  );
  return r.rows.map((row) => ({
    id: row.id,
    name: row.name,
    admin: row.is_admin,
    createdAt: row.created_at.getTime(),
    projects: row.projects ?? [],
    tokens: num(row.tokens),
  }));
}

/** Remove a user: their tokens stop working at once and their project roles go. */
export async function removeUser(tx: Tx, name: string): Promise<string> {
  const id = await requireUser(tx, name);
  await tx.query('UPDATE tokens SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL', [id]);
  await tx.query('DELETE FROM members WHERE user_id = $1', [id]);
  await tx.query('UPDATE users SET removed_at = now() WHERE id = $1', [id]);
  return id;
}

export async function createTokenFor(
  tx: Tx,
  spec: { user: string; device: string; scopes: Scope[]; expiresInDays: number | null },
  now: number,
): Promise<{ id: string; token: string }> {
  const userId = await requireUser(tx, spec.user);
  return insertToken(
    tx,
    { userId, device: spec.device, scopes: spec.scopes, expiresInDays: spec.expiresInDays },
    now,
  );
}

export async function listTokens(tx: Tx, user: string | null): Promise<TokenInfo[]> {
  const r = await tx.query<{
    id: string;
    name: string;
    device: string;
    scopes: Scope[];
    created_at: Date;
    expires_at: Date | null;
    last_used_at: Date | null;
    revoked_at: Date | null;
  }>(
    `SELECT t.id, u.name, t.device, t.scopes, t.created_at, t.expires_at, t.last_used_at, t.revoked_at
       FROM tokens t JOIN users u ON u.id = t.user_id
      WHERE ($1::text IS NULL OR u.name = $1) ORDER BY t.created_at`,
    [user],
  );
  return r.rows.map((row) => ({
    id: row.id,
    user: row.name,
    device: row.device,
    scopes: row.scopes,
    createdAt: row.created_at.getTime(),
    expiresAt: ms(row.expires_at),
    lastUsedAt: ms(row.last_used_at),
    revokedAt: ms(row.revoked_at),
  }));
}

export async function revokeToken(tx: Tx, id: string): Promise<boolean> {
  const r = await tx.query('UPDATE tokens SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL', [id]);
  return r.rowCount === 1;
}

/**
 * Give a user a role in a project. A server admin creates the project on its first grant; a project
 * admin may grant only in projects it administers.
 */
export async function grantRole(
  tx: Tx,
  spec: { user: string; project: TeamProjectRef; role: Role; by: string },
  canCreate: boolean,
): Promise<{ projectId: string; created: boolean }> {
  const userId = await requireUser(tx, spec.user);
  const { id, key } = spec.project;
  let created = false;
  const known = await tx.query('SELECT 1 FROM projects WHERE id = $1', [id]);
  if (known.rows.length === 0) {
    if (!canCreate || key === null) {
      throw new EngramError('NOT_FOUND', `no project ${key ?? id} that you administer`, {
        hint: key === null ? 'Name a new project by its git remote.' : undefined,
      });
    }
    await tx.query('INSERT INTO projects (id, key, name) VALUES ($1, $2, $3)', [id, key, projectNameOf(key)]);
    await tx.query('INSERT INTO heads (project_id) VALUES ($1)', [id]);
    created = true;
  }
  await tx.query(
    `INSERT INTO members (project_id, user_id, role, granted_by) VALUES ($1, $2, $3, $4)
     ON CONFLICT (project_id, user_id) DO UPDATE SET role = excluded.role, granted_at = now(),
       granted_by = excluded.granted_by`,
    [id, userId, spec.role, spec.by],
  );
  return { projectId: id, created };
}

export async function revokeRole(tx: Tx, spec: { user: string; project: TeamProjectRef }): Promise<boolean> {
  const userId = await requireUser(tx, spec.user);
  const r = await tx.query('DELETE FROM members WHERE project_id = $1 AND user_id = $2', [
    spec.project.id,
    userId,
  ]);
  return r.rowCount === 1;
}

/** The tenant's own projects and roles. */
export async function myProjects(
  tx: Tx,
  userId: string,
): Promise<{ id: string; key: string; name: string; role: Role }[]> {
  const r = await tx.query<{ id: string; key: string; name: string; role: Role }>(
    `SELECT p.id, p.key, p.name, m.role FROM members m JOIN projects p ON p.id = m.project_id
      WHERE m.user_id = $1 ORDER BY p.key`,
    [userId],
  );
  return r.rows;
}
