/**
 * The team web view over an end-to-end encrypted project (a real team server on a real PostgreSQL):
 * every page that would show a record's content says it cannot, and none shows the ciphertext.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startTestPostgres,
  startTestTeamServer,
  type TestPostgres,
  type TestTeamServer,
} from '../../../test/support/team-postgres.ts';
import { createTeamApi } from '../../team/api-client.ts';
import { parseProjectSpec } from '../../team/project-key.ts';
import type { PushRecord, SealedBody } from '../../team/protocol.ts';
import { recordHash } from '../../team/record-hash.ts';
import { newKey, seal, type Keyring } from '../../team/record-seal.ts';
import { linkRecord, memoryRecord, summaryRecord } from '../../team/records.test-support.ts';
import { mountTeamWeb } from './routes.ts';

const REMOTE = 'git@github.com:acme/sealed.git';
const PROJECT = parseProjectSpec(REMOTE).id;
const PASSWORD = 'correct horse battery';
const ring: Keyring = { projectId: PROJECT, versions: [{ version: 1, key: newKey() }] };
let pg: TestPostgres;
let server: TestTeamServer;
let cookie = '';
const sealedBodies: SealedBody[] = [];

/** A record sealed as the client seals it (a link under an opaque id of its own). */
function sealed(rec: PushRecord, id = rec.id): PushRecord {
  const body = seal(ring, { project: PROJECT, kind: rec.kind, id }, rec.body);
  sealedBodies.push(body);
  return { ...rec, id, body, hash: recordHash(rec.kind, id, false, body) };
}

async function page(path: string): Promise<{ status: number; body: string }> {
  const res = await fetch(`${server.url}${path}`, {
    headers: { cookie: `engram_team_session=${cookie}` },
    redirect: 'manual',
  });
  return { status: res.status, body: await res.text() };
}

beforeAll(async () => {
  pg = await startTestPostgres();
  server = await startTestTeamServer(pg, {
    mount: mountTeamWeb({ assets: { js: '/* viewer */', css: '/* viewer */', version: 'test' } }),
  });
  const admin = createTeamApi({ server: server.url, token: server.adminToken });
  const { token } = await admin.addUser({ name: 'lena', device: 'lena-pc', password: PASSWORD });
  await admin.grant({ user: 'lena', project: REMOTE, role: 'writer' });
  await createTeamApi({ server: server.url, token }).push(PROJECT, [
    sealed(memoryRecord('obs_sealed1', 'Vermilion rollout plan', { sessionId: 'sess-s1' })),
    sealed(memoryRecord('obs_sealed2', 'Vermilion pricing')),
    sealed(summaryRecord('sess-s1', 'Vermilion launch checklist')),
    sealed(
      linkRecord('obs_sealed1', 'related', 'obs_sealed2'),
      'e2e_0123456789abcdef0123456789abcdef01234567',
    ),
  ]);
  const login = await fetch(`${server.url}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.url },
    body: new URLSearchParams({ name: 'lena', password: PASSWORD }).toString(),
    redirect: 'manual',
  });
  cookie = /engram_team_session=([^;]+)/.exec(login.headers.get('set-cookie') ?? '')?.[1] ?? '';
  expect(cookie).not.toBe('');
}, 120_000);

afterAll(async () => {
  await server?.close();
  await pg?.stop();
});

describe('the team web view of an end-to-end encrypted project', () => {
  it('says on every page that it cannot show the content, and never shows ciphertext', async () => {
    const pages = {
      projects: await page('/'),
      search: await page(`/search?project=${PROJECT}`),
      memory: await page('/memories/obs_sealed1'),
      sessions: await page(`/sessions?project=${PROJECT}`),
      session: await page('/sessions/sess-s1'),
      graph: await page(`/graph?project=${PROJECT}`),
    };
    for (const [name, p] of Object.entries(pages)) {
      expect(p.status, name).toBe(200);
      expect(p.body, name).not.toMatch(/Vermilion/);
      for (const b of sealedBodies) {
        expect(p.body, name).not.toContain(b.ct.slice(0, 24));
        expect(p.body, name).not.toContain(b.iv);
      }
    }
    expect(pages.projects.body).toMatch(/end-to-end encrypted \(not readable here\)/);
    expect(pages.search.body).toMatch(/sealed: end-to-end encrypted\. The server holds only ciphertext/);
    expect(pages.search.body).toMatch(/Encrypted memory: only a member holding the project key can read it/);
    expect(pages.memory.body).toMatch(/This memory belongs to an end-to-end encrypted project/);
    expect(pages.sessions.body).toMatch(/encrypted/);
    expect(pages.session.body).toMatch(/This session summary belongs to an end-to-end encrypted project/);
  });
});
