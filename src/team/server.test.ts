import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { request, type ClientRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startTestPostgres,
  startTestTeamServer,
  type TestPostgres,
  type TestTeamServer,
} from '../../test/support/team-postgres.ts';
import { createMemoryLogger, systemClock } from '../core/ports.ts';
import { createTeamApi } from './api-client.ts';
import { startTeamServer } from './server.ts';
import { recordHash } from './record-hash.ts';
import { memoryRecord } from './records.test-support.ts';
import type { PushRecord } from './protocol.ts';

let pg: TestPostgres;
let server: TestTeamServer;

beforeAll(async () => {
  pg = await startTestPostgres();
  server = await startTestTeamServer(pg);
}, 120_000);
afterAll(async () => {
  await server?.close();
  await pg?.stop();
});

const memory = (id: string, title: string) =>
  memoryRecord(id, title, {
    type: 'decision',
    narrative: `because ${title}`,
    sessionId: 's1',
    createdAt: 1_700_000_000_000,
  });

describe('team server', () => {
  it('answers /health, wrote a 0600 bootstrap token once, and a second start does not bootstrap again', async () => {
    const health = await fetch(`${server.url}/health`);
    expect(health.status).toBe(200);
    expect(server.adminToken).toMatch(/^egr_/);
    expect(statSync(server.bootstrapTokenFile as string).mode & 0o777).toBe(0o600);
    const again = await startTestTeamServer(pg, { db: server.databaseUrl });
    expect(again.bootstrapTokenFile).toBeNull();
    expect(again.epoch).toBe(server.epoch);
    await again.close();
  });

  it('adds a user, grants a project, and round-trips a memory', async () => {
    const admin = createTeamApi({ server: server.url, token: server.adminToken });
    const alice = await admin.addUser({ name: 'alice', device: 'laptop' });
    expect(alice.token).toMatch(/^egr_/);
    const grant = await admin.grant({
      user: 'alice',
      project: 'git@github.com:Acme/App.git',
      role: 'writer',
    });
    expect(grant.key).toBe('git:github.com/acme/app');
    const api = createTeamApi({ server: server.url, token: alice.token });
    const me = await api.me();
    expect(me.projects).toEqual([
      { id: grant.project, key: 'git:github.com/acme/app', name: 'app', role: 'writer' },
    ]);
    const rec = memory('obs_1', 'use pg');
    const pushed = await api.push(grant.project, [rec]);
    expect(pushed.results).toEqual([{ kind: 'memory', id: 'obs_1', status: 'accepted', version: 1 }]);
    expect((await api.push(grant.project, [rec])).results[0]?.status).toBe('duplicate');
    const page = await api.pull(grant.project, 0);
    expect(page.records.map((r) => [r.id, r.version, r.author, r.device])).toEqual([
      ['obs_1', 1, 'alice', 'laptop'],
    ]);
    expect(recordHash('memory', 'obs_1', false, page.records[0]?.body)).toBe(rec.hash);
  });

  it('a forgotten memory is gone for good; a removed link may come back', async () => {
    const admin = createTeamApi({ server: server.url, token: server.adminToken });
    const bob = await admin.addUser({ name: 'bob' });
    const { project } = await admin.grant({
      user: 'bob',
      project: 'git@github.com:acme/tools.git',
      role: 'writer',
    });
    const api = createTeamApi({ server: server.url, token: bob.token });
    const tombstone = (kind: 'memory' | 'link', id: string): PushRecord => ({
      kind,
      id,
      baseVersion: null,
      hash: recordHash(kind, id, true, null),
      deleted: true,
      body: null,
    });
    const linkId = 'obs_a supersedes obs_b';
    const linkBody = { from: 'obs_a', kind: 'supersedes', to: 'obs_b' };
    const link: PushRecord = {
      kind: 'link',
      id: linkId,
      baseVersion: null,
      hash: recordHash('link', linkId, false, linkBody),
      deleted: false,
      body: linkBody,
    };
    const statuses = async (records: PushRecord[]) =>
      (await api.push(project, records)).results.map((r) => r.status);
    expect(await statuses([memory('obs_gone', 'soon forgotten'), link])).toEqual(['accepted', 'accepted']);
    expect(await statuses([tombstone('memory', 'obs_gone'), tombstone('link', linkId)])).toEqual([
      'accepted',
      'accepted',
    ]);
    expect(await statuses([memory('obs_gone', 'back again?'), link])).toEqual(['gone', 'accepted']);
    const rows = await pg.query(
      server.databaseUrl,
      `SELECT entity_id, deleted, body FROM entities WHERE project_id = $1 ORDER BY entity_id`,
      [project],
    );
    expect(rows.rows).toEqual([
      { entity_id: 'obs_a supersedes obs_b', deleted: false, body: linkBody },
      { entity_id: 'obs_gone', deleted: true, body: null },
    ]);
  });
});

describe('team server with --embedded DIR', () => {
  it('runs its own PostgreSQL in DIR, bootstraps once, and keeps its data across restarts', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'engram-embedded-'));
    const options = {
      embedded: dir,
      port: 0,
      host: '127.0.0.1',
      bootstrapFile: join(dir, 'unused'),
      trustProxy: false,
      logger: createMemoryLogger(),
      clock: systemClock,
      fastEmbedded: true,
    };
    try {
      const first = await startTeamServer(options);
      expect(first.bootstrapTokenFile).toBe(join(dir, 'bootstrap-token'));
      expect(statSync(join(dir, 'bootstrap-token')).mode & 0o777).toBe(0o600);
      expect(statSync(join(dir, 'postgres-password')).mode & 0o777).toBe(0o600);
      expect((await fetch(`${first.url}/health`)).status).toBe(200);
      await first.close();
      const second = await startTeamServer(options);
      expect(second.bootstrapTokenFile).toBeNull();
      expect(second.epoch).toBe(first.epoch);
      expect(existsSync(join(dir, 'unused'))).toBe(false);
      await second.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('refuses a body over 16 MB whether its length is declared or not (413), and takes one under it', async () => {
    const url = new URL(`${server.url}/v1/projects/prj_none/push`);
    const post = (headers: Record<string, string | number>, body: (req: ClientRequest) => void) =>
      new Promise<number>((resolve, reject) => {
        const req = request(
          { host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
            req.destroy(); // a body the server did not read is not sent on
          },
        );
        req.on('error', reject);
        body(req);
      });
    const auth = { authorization: `Bearer ${server.adminToken}`, 'content-type': 'application/json' };
    // Declared: refused from the header, before any of the body is read.
    expect(await post({ ...auth, 'content-length': 16 * 1024 * 1024 + 1 }, (req) => req.flushHeaders())).toBe(
      413,
    );
    // Chunked, no length: counted as it is read.
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    const chunked = await post({ ...auth, 'transfer-encoding': 'chunked' }, (req) => {
      req.on('error', () => undefined); // the server may answer before it has read everything
      for (let i = 0; i < 17; i++) req.write(chunk);
      req.end();
    });
    expect(chunked).toBe(413);
    // Under the limit, either way: read and answered (no such project: 403).
    const small = JSON.stringify({ records: [memory('obs_small', 'small')] });
    expect(await post({ ...auth, 'content-length': Buffer.byteLength(small) }, (req) => req.end(small))).toBe(
      403,
    );
    expect(await post({ ...auth, 'transfer-encoding': 'chunked' }, (req) => req.end(small))).toBe(403);
  });
});
