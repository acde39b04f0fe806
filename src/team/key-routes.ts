/**
 * The endpoints of keys wrapped per device (key-store.ts): a machine enrols its device public key in
 * a project, reads the project's devices and the wraps addressed to it, and stores wraps it made.
 * Each appends to the project's audit chain in the same transaction.
 */
import type { Hono } from 'hono';
import { bodyOf, requestInfo, type AuditFor, type Env, type TeamAppDeps } from './http-context.ts';
import { appendAudit } from './audit-log.ts';
import { enrolDevice, projectKeys, putWraps } from './key-store.ts';
import { enrolDeviceSchema, putWrapsSchema } from './protocol.ts';
import { asTenant } from './tenant.ts';

export function registerKeyRoutes(app: Hono<Env>, deps: TeamAppDeps, audit: AuditFor): void {
  app.put('/v1/projects/:project/devices', async (c) => {
    const projectId = c.req.param('project');
    const { publicKey } = await bodyOf(c, enrolDeviceSchema);
    const id = await asTenant(deps, requestInfo(deps, c), 'read', async (tx, who) => {
      const device = await enrolDevice(tx, who, projectId, publicKey, deps.clock.now());
      await appendAudit(tx, audit(c, who, projectId, 'device.enrol', device));
      return device;
    });
    return c.json({ id });
  });

  app.get('/v1/projects/:project/keys', async (c) => {
    const projectId = c.req.param('project');
    const device = c.req.query('device') ?? null;
    const out = await asTenant(deps, requestInfo(deps, c), 'read', async (tx, who) => {
      const keys = await projectKeys(tx, who, projectId, device);
      await appendAudit(
        tx,
        audit(c, who, projectId, 'keys.read', device ?? projectId, { wraps: keys.wraps.length }),
      );
      return keys;
    });
    return c.json(out);
  });

  app.post('/v1/projects/:project/keys', async (c) => {
    const projectId = c.req.param('project');
    const { wraps } = await bodyOf(c, putWrapsSchema);
    const stored = await asTenant(deps, requestInfo(deps, c), 'read', async (tx, who) => {
      const n = await putWraps(tx, who, projectId, wraps, deps.clock.now());
      await appendAudit(
        tx,
        audit(c, who, projectId, 'keys.wrap', projectId, {
          wraps: wraps.slice(0, 20).map((w) => ({ to: w.to, version: w.version })),
        }),
      );
      return n;
    });
    return c.json({ stored });
  });
}
