/**
 * The team server's HTTP API (Hono): health, the sync endpoints and the admin endpoints. Every
 * endpoint but health and login runs as its token's tenant (tenant.ts) and appends to the audit log
 * in the same transaction, so a request that is answered is also recorded.
 */
import { randomUUID } from 'node:crypto';
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { cleanText } from '../core/clean-text.ts';
import { EngramError } from '../core/errors.ts';
import { registerAdminRoutes } from './admin-routes.ts';
import { appendAudit, appendAuditAtCommit, SERVER_CHAIN } from './audit-log.ts';
import { myProjects } from './admin-store.ts';
import {
  deviceNameSchema,
  MAX_PULL_RECORDS,
  moveRequestSchema,
  projectStateSchema,
  pushRequestSchema,
  reviewsRequestSchema,
  type MeResponse,
} from './protocol.ts';
import { toErrorResponse } from './http-errors.ts';
import { registerKeyRoutes } from './key-routes.ts';
import { quickPushRequest } from './shape-check.ts';
import { parseProjectSpec } from './project-key.ts';
import { appendReviews } from './review-audit.ts';
import { copyMoveChunk, moveProject } from './project-move-store.ts';
import { listStates, nameDevice, pullRecords, pushRecords, putState } from './sync-store.ts';
import { asTenant } from './tenant.ts';
import { bodyOf, requestInfo, type AuditFor, type Env, type TeamAppDeps } from './http-context.ts';

const noAccess = (projectId: string) =>
  new EngramError('FORBIDDEN', `no access to project ${projectId}`, {
    hint: 'A project admin or server admin grants roles: engram team admin grant.',
  });

/** Routes a surface adds to the server (the web view, src/surfaces/team-web): team/ never imports them. */
export type TeamAppMount = (app: Hono<Env>, deps: TeamAppDeps) => void;

export function createTeamApp(deps: TeamAppDeps, mount?: TeamAppMount): Hono<Env> {
  const app = new Hono<Env>();
  const audit: AuditFor = (c, who, chain, action, target, detail) => ({
    chain,
    at: deps.clock.now(),
    principal: who,
    action,
    target: target ?? null,
    detail: detail ?? null,
    requestId: c.get('requestId'),
  });

  app.use('*', async (c, next) => {
    const started = performance.now();
    const requestId = randomUUID();
    c.set('requestId', requestId);
    c.header('x-request-id', requestId);
    await next();
    deps.logger.info('request', {
      requestId,
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      ms: Math.round(performance.now() - started),
    });
  });
  // A full batch of the largest records fits (MAX_PUSH_RECORDS × MAX_RECORD_CHARS, JSON-escaped).
  const maxBody = 16 * 1024 * 1024;
  const tooLarge = (c: Context<Env>) =>
    c.json({ error: { code: 'INPUT_INVALID', message: 'body too large' } }, 413);
  const countedBody = bodyLimit({ maxSize: maxBody, onError: tooLarge });
  app.use('/v1/*', async (c, next) => {
    // A declared length is judged by its header alone, as bodyLimit judges it — but without asking for
    // the body as a stream, which would make the Node adapter build a whole web Request and read the
    // body through it instead of straight from the socket. A body of unknown length (chunked) goes
    // through bodyLimit, which counts it as it reads.
    const length = c.req.header('content-length');
    if (length === undefined || c.req.header('transfer-encoding') !== undefined) return countedBody(c, next);
    if (parseInt(length || '0', 10) > maxBody) return tooLarge(c);
    await next();
  });
  app.onError((error, c) => toErrorResponse(c, error, deps.logger));
  app.notFound((c) =>
    c.json(
      {
        error: {
          code: 'NOT_FOUND',
          message: `no route ${c.req.method} ${c.req.path}`,
          requestId: c.get('requestId'),
        },
      },
      404,
    ),
  );

  app.get('/health/live', (c) => c.json({ ok: true }));
  app.get('/health', async (c) => {
    const ready = await deps.ready().catch(() => false);
    return c.json({ ok: ready, epoch: deps.epoch }, ready ? 200 : 503);
  });

  app.get('/v1/me', async (c) => {
    const body = await asTenant(deps, requestInfo(deps, c), null, async (tx, who): Promise<MeResponse> => {
      const projects = await myProjects(tx, who.userId);
      await appendAudit(tx, audit(c, who, SERVER_CHAIN, 'me.read'));
      return {
        epoch: deps.epoch,
        user: { id: who.userId, name: who.userName, admin: who.serverAdmin },
        token: { id: who.tokenId, device: who.device, scopes: who.scopes },
        projects,
      };
    });
    return c.json(body);
  });

  // The device of the calling token is the machine's to name (its host name at login, or its choice).
  app.put('/v1/me/device', async (c) => {
    const { device } = await bodyOf(c, deviceNameSchema);
    await asTenant(deps, requestInfo(deps, c), null, async (tx, who) => {
      await nameDevice(tx, who.tokenId, device);
      await appendAudit(tx, audit(c, who, SERVER_CHAIN, 'token.device', who.tokenId, { device }));
    });
    return c.json({ device });
  });

  app.post('/v1/projects/:project/push', async (c) => {
    const projectId = c.req.param('project');
    const req = await bodyOf(c, pushRequestSchema, quickPushRequest);
    const results = await asTenant(deps, requestInfo(deps, c), 'write', async (tx, who) => {
      // The audit row goes in with the push's write (one statement), told what became of each record.
      const out = await pushRecords(tx, who, projectId, req.records, (pushed) => {
        const counts: Record<string, number> = {};
        for (const r of pushed) counts[r.status] = (counts[r.status] ?? 0) + 1;
        return audit(c, who, projectId, 'records.push', projectId, {
          records: req.records.length,
          ...counts,
          ids: req.records.slice(0, 20).map((r) => cleanText(r.id)),
        });
      });
      if (!out) throw noAccess(projectId);
      return out.results;
    });
    return c.json({ epoch: deps.epoch, results });
  });

  app.get('/v1/projects/:project/pull', async (c) => {
    const projectId = c.req.param('project');
    const after = Number(c.req.query('after') ?? '0');
    const limit = Math.min(MAX_PULL_RECORDS, Number(c.req.query('limit') ?? String(MAX_PULL_RECORDS)));
    if (!Number.isSafeInteger(after) || after < 0 || !Number.isSafeInteger(limit) || limit < 1) {
      throw new EngramError('INPUT_INVALID', 'after and limit take whole numbers (limit ≥ 1)');
    }
    const page = await asTenant(deps, requestInfo(deps, c), 'read', async (tx, who) => {
      const out = await pullRecords(tx, projectId, after, limit);
      if (!out) throw noAccess(projectId);
      // Sent with the COMMIT, like a push's: pullers and pushers of a project share its audit chain.
      appendAuditAtCommit(
        tx,
        audit(c, who, projectId, 'records.pull', projectId, { after, records: out.records.length }),
      );
      return out;
    });
    return c.json({ epoch: deps.epoch, ...page });
  });

  app.post('/v1/projects/:project/move', async (c) => {
    const projectId = c.req.param('project');
    const { to } = await bodyOf(c, moveRequestSchema);
    const target = parseProjectSpec(to);
    const moved = await asTenant(deps, requestInfo(deps, c), 'write', async (tx, who) => {
      const out = await moveProject(tx, projectId, target.id);
      for (const chain of [projectId, target.id])
        await appendAudit(
          tx,
          audit(c, who, chain, 'project.move', projectId, { to: target.id, copied: out.copied }),
        );
      return out;
    });
    // The rest in transactions of their own, numbered like pushes (project-move-store).
    let { copied, more } = moved;
    while (more) {
      const next = await asTenant(deps, requestInfo(deps, c), 'write', (tx) =>
        copyMoveChunk(tx, projectId, target.id),
      );
      copied += next.copied;
      more = next.more;
    }
    return c.json({ from: moved.from, to: moved.to, copied });
  });

  // A member's approvals and rejections of quarantined memories, into the project's audit chain.
  app.post('/v1/projects/:project/reviews', async (c) => {
    const projectId = c.req.param('project');
    const { reviews } = await bodyOf(c, reviewsRequestSchema);
    const recorded = await asTenant(deps, requestInfo(deps, c), 'read', async (tx, who) => {
      const base = { at: deps.clock.now(), principal: who, requestId: c.get('requestId') };
      const n = await appendReviews(tx, projectId, reviews, base);
      if (n === null) throw noAccess(projectId);
      return n;
    });
    return c.json({ recorded });
  });

  app.put('/v1/projects/:project/state', async (c) => {
    const projectId = c.req.param('project');
    const state = await bodyOf(c, projectStateSchema);
    await asTenant(deps, requestInfo(deps, c), 'write', async (tx, who) => {
      if (!(await putState(tx, who, projectId, state))) throw noAccess(projectId);
      await appendAudit(
        tx,
        audit(c, who, projectId, 'state.write', projectId, { branch: state.branch, files: state.fileCount }),
      );
    });
    return c.json({ ok: true });
  });

  app.get('/v1/projects/:project/state', async (c) => {
    const projectId = c.req.param('project');
    const states = await asTenant(deps, requestInfo(deps, c), 'read', async (tx, who) => {
      const out = await listStates(tx, projectId);
      if (!out) throw noAccess(projectId);
      await appendAudit(tx, audit(c, who, projectId, 'state.read', projectId));
      return out;
    });
    return c.json({ states });
  });

  registerAdminRoutes(app, deps, audit);
  registerKeyRoutes(app, deps, audit);
  mount?.(app, deps);
  return app;
}
