/**
 * Admin endpoints (users, tokens, grants, the audit log) and the password sign-in. Users and tokens
 * need a server admin acting with an `admin`-scoped token; grants and the audit log also accept a
 * project admin for their own projects.
 */
import type { Hono } from 'hono';
import { EngramError } from '../core/errors.ts';
import { bodyOf, requestInfo, type AuditFor, type Env, type TeamAppDeps } from './http-context.ts';
import {
  createTokenFor,
  grantRole,
  insertToken,
  insertUser,
  listTokens,
  listUsers,
  removeUser,
  revokeRole,
  revokeToken,
  userByName,
} from './admin-store.ts';
import { appendAudit, listAudit, SERVER_CHAIN, verifyAudit } from './audit-log.ts';
import { appTransaction } from './database.ts';
import { hashPassword, verifyPassword } from './password.ts';
import { actsAsServerAdmin, type Principal } from './principal.ts';
import { parseProjectSpec } from './project-key.ts';
import {
  addUserSchema,
  createTokenSchema,
  grantSchema,
  loginSchema,
  revokeGrantSchema,
  USER_NAME_RE,
} from './protocol.ts';
import { hitRateLimit } from './rate-limit.ts';
import { asTenant } from './tenant.ts';

function requireServerAdmin(who: Principal): void {
  if (!actsAsServerAdmin(who)) {
    throw new EngramError('FORBIDDEN', 'only a server admin (with an admin-scoped token) may do this');
  }
}

export function registerAdminRoutes(app: Hono<Env>, deps: TeamAppDeps, audit: AuditFor): void {
  const admin = <T>(c: Parameters<typeof requestInfo>[1], fn: Parameters<typeof asTenant<T>>[3]) =>
    asTenant(deps, requestInfo(deps, c), 'admin', fn);

  app.post('/v1/admin/users', async (c) => {
    const spec = await bodyOf(c, addUserSchema);
    const passwordHash = spec.password ? await hashPassword(spec.password) : null;
    const out = await admin(c, async (tx, who) => {
      requireServerAdmin(who);
      const now = deps.clock.now();
      const id = await insertUser(tx, { name: spec.name, admin: spec.admin, passwordHash }, now);
      const scopes = spec.admin ? (['read', 'write', 'admin'] as const) : (['read', 'write'] as const);
      const token = await insertToken(
        tx,
        { userId: id, device: spec.device, scopes: [...scopes], expiresInDays: null },
        now,
      );
      await appendAudit(
        tx,
        audit(c, who, SERVER_CHAIN, 'user.add', spec.name, { admin: spec.admin, tokenId: token.id }),
      );
      return { user: { id, name: spec.name, admin: spec.admin }, tokenId: token.id, token: token.token };
    });
    return c.json(out, 201);
  });

  app.get('/v1/admin/users', async (c) => {
    const users = await admin(c, async (tx, who) => {
      requireServerAdmin(who);
      const list = await listUsers(tx);
      await appendAudit(tx, audit(c, who, SERVER_CHAIN, 'user.list'));
      return list;
    });
    return c.json({ users });
  });

  app.delete('/v1/admin/users/:name', async (c) => {
    const name = c.req.param('name');
    await admin(c, async (tx, who) => {
      requireServerAdmin(who);
      if (name === who.userName) throw new EngramError('INPUT_INVALID', 'you cannot remove yourself');
      await removeUser(tx, name);
      await appendAudit(tx, audit(c, who, SERVER_CHAIN, 'user.remove', name));
    });
    return c.json({ removed: name });
  });

  app.post('/v1/admin/tokens', async (c) => {
    const spec = await bodyOf(c, createTokenSchema);
    const out = await admin(c, async (tx, who) => {
      requireServerAdmin(who);
      const token = await createTokenFor(tx, spec, deps.clock.now());
      await appendAudit(
        tx,
        audit(c, who, SERVER_CHAIN, 'token.create', spec.user, {
          tokenId: token.id,
          device: spec.device,
          scopes: spec.scopes,
        }),
      );
      return { id: token.id, user: spec.user, device: spec.device, scopes: spec.scopes, token: token.token };
    });
    return c.json(out, 201);
  });

  app.get('/v1/admin/tokens', async (c) => {
    const user = c.req.query('user') ?? null;
    const tokens = await admin(c, async (tx, who) => {
      requireServerAdmin(who);
      const list = await listTokens(tx, user);
      await appendAudit(tx, audit(c, who, SERVER_CHAIN, 'token.list', user ?? undefined));
      return list;
    });
    return c.json({ tokens });
  });

  app.delete('/v1/admin/tokens/:id', async (c) => {
    const id = c.req.param('id');
    await admin(c, async (tx, who) => {
      requireServerAdmin(who);
      if (!(await revokeToken(tx, id))) throw new EngramError('NOT_FOUND', `no live token ${id}`);
      await appendAudit(tx, audit(c, who, SERVER_CHAIN, 'token.revoke', id));
    });
    return c.json({ revoked: id });
  });

  app.post('/v1/admin/grants', async (c) => {
    const spec = await bodyOf(c, grantSchema);
    const project = parseProjectSpec(spec.project);
    const out = await admin(c, async (tx, who) => {
      const result = await grantRole(
        tx,
        { user: spec.user, project, role: spec.role, by: who.userName },
        actsAsServerAdmin(who),
      );
      await appendAudit(tx, audit(c, who, result.projectId, 'member.grant', spec.user, { role: spec.role }));
      return {
        user: spec.user,
        project: result.projectId,
        key: project.key,
        role: spec.role,
        createdProject: result.created,
      };
    });
    return c.json(out);
  });

  app.post('/v1/admin/grants/revoke', async (c) => {
    const spec = await bodyOf(c, revokeGrantSchema);
    const project = parseProjectSpec(spec.project);
    await admin(c, async (tx, who) => {
      if (!(await revokeRole(tx, { user: spec.user, project }))) {
        throw new EngramError('NOT_FOUND', `${spec.user} has no role in ${spec.project} that you administer`);
      }
      await appendAudit(tx, audit(c, who, project.id, 'member.revoke', spec.user));
    });
    return c.json({ revoked: { user: spec.user, project: project.id } });
  });

  app.get('/v1/admin/audit', async (c) => {
    const projectSpec = c.req.query('project');
    const chain = projectSpec ? parseProjectSpec(projectSpec).id : undefined;
    const limit = Math.min(1000, Math.max(1, Number(c.req.query('limit') ?? '50') || 50));
    const entries = await admin(c, async (tx, who) => {
      const list = await listAudit(tx, { chain, limit });
      await appendAudit(tx, audit(c, who, chain ?? SERVER_CHAIN, 'audit.read'));
      return list;
    });
    return c.json({ entries });
  });

  app.get('/v1/admin/audit/verify', async (c) => {
    // Verify first, then record the verification (the report covers the log as it was found).
    const report = await admin(c, async (tx, who) => {
      const r = await verifyAudit(tx);
      await appendAudit(tx, audit(c, who, SERVER_CHAIN, 'audit.verify', undefined, { ok: r.ok }));
      return r;
    });
    return c.json(report);
  });

  // Password sign-in (for the viewer): a short-lived read-only token. Every attempt counts against
  // the address and the user name; when the limiter cannot count, nobody signs in.
  app.post('/v1/login', async (c) => {
    const spec = await bodyOf(c, loginSchema);
    const info = requestInfo(deps, c);
    const now = deps.clock.now();
    await hitRateLimit(deps.pool, `login:${info.client}`, deps.logins, now);
    await hitRateLimit(deps.pool, `login-user:${spec.name}`, deps.logins, now);
    // Nobody is signed in yet, so the server itself looks the user up and issues the token: it acts as
    // admin (engram.admin) for these two statements only, still as engram_app under RLS.
    const user = USER_NAME_RE.test(spec.name)
      ? await appTransaction(deps.pool, async (tx) => {
          await tx.query(`SELECT set_config('engram.admin', 'on', true)`);
          return userByName(tx, spec.name);
        })
      : null;
    const ok = user?.passwordHash ? await verifyPassword(spec.password, user.passwordHash) : false;
    const out = await appTransaction(deps.pool, async (tx) => {
      await tx.query(`SELECT set_config('engram.admin', 'on', true)`);
      if (!ok || !user) {
        await appendAudit(tx, audit(c, null, SERVER_CHAIN, 'login.failed', spec.name));
        return null;
      }
      const token = await insertToken(
        tx,
        { userId: user.id, device: spec.device, scopes: ['read'], expiresInDays: 1 },
        now,
      );
      await appendAudit(tx, { ...audit(c, null, SERVER_CHAIN, 'login', spec.name, { tokenId: token.id }) });
      return token;
    });
    if (!out) throw new EngramError('UNAUTHORIZED', 'wrong user name or password');
    return c.json({ token: out.token, expiresInDays: 1 });
  });
}
