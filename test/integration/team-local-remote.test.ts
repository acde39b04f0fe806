/**
 * A repository whose remote is a path on this machine, shared through the real CLI and team server: the
 * grant of that path says why it cannot name a shared project (not "give the remote" again), `team
 * share` says how to share it under a name, and `team share --name` does (its memories moved along).
 */
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectIdFromKey } from '../../src/core/ids.ts';
import { createSandbox, type Sandbox } from '../support/sandbox.ts';
import {
  captureTurn,
  gitProject,
  rowsOf,
  startCliTeamServer,
  type CliTeamServer,
} from '../support/team-cli.ts';
import { startTestPostgres, type TestPostgres } from '../support/team-postgres.ts';

const LOCAL_REMOTE = '/srv/git/shop.git';
let pg: TestPostgres;
let server: CliTeamServer;
let alice: Sandbox;
let project: string;

const admin = (...args: string[]) =>
  alice.engramAsync(['team', 'admin', '--server', server.url, '--token', server.adminToken, ...args]);

beforeAll(async () => {
  pg = await startTestPostgres();
  server = await startCliTeamServer(pg);
  alice = createSandbox();
  project = gitProject(alice, 'shop', LOCAL_REMOTE);
}, 120_000);

afterAll(async () => {
  await server?.stop();
  alice?.cleanup();
  await pg?.stop();
});

describe('sharing a repository whose remote is a local path', () => {
  it('is refused with the reason and the way, then shared under an explicit name', async () => {
    const added = await admin('user', 'add', 'alice', '--json');
    expect(added.status, added.stderr).toBe(0);
    const token = (JSON.parse(added.stdout) as { token: string }).token;

    const byPath = await admin('grant', '--user', 'alice', '--project', LOCAL_REMOTE, '--role', 'writer');
    expect(byPath.status).toBe(2);
    expect(byPath.stderr).toContain(`"${LOCAL_REMOTE}" is a local path`);
    expect(byPath.stderr).toContain('--project name:<name>');
    expect(byPath.stderr).not.toMatch(/git remote get-url/);
    const granted = await admin('grant', '--user', 'alice', '--project', 'name:shop', '--role', 'writer');
    expect(granted.status, granted.stderr).toBe(0);

    const login = await alice.engramAsync(['team', 'login', '--server', server.url, '--token', token]);
    expect(login.status, login.stderr).toBe(0);
    await captureTurn(alice, project, 's1', {
      prompt: 'Fix the invoice rounding',
      file: 'src/invoice.ts',
      answer: 'Fixed: invoice totals are computed in integer cents now.',
    });
    const before = rowsOf<{ id: string }>(alice, `SELECT id FROM observations WHERE status = 'active'`);
    expect(before.length).toBeGreaterThan(0);

    const plain = await alice.engramAsync(['team', 'share'], { cwd: project });
    expect(plain.status).toBe(2);
    expect(plain.stderr).toContain('a local path as its remote (/srv/git/shop)');
    expect(plain.stderr).toContain('engram team share --name <name>');

    const named = await alice.engramAsync(['team', 'share', '--name', 'shop'], { cwd: project });
    expect(named.status, named.stderr).toBe(0);
    expect(named.stdout).toMatch(/^moved \d+ memories of this repository into shop\n/);
    expect(named.stdout).toContain('sharing shop (name:shop) as writer');
    const gitName = execFileSync('git', ['-C', project, 'config', 'engram.project'], { env: alice.env });
    expect(gitName.toString().trim()).toBe('shop');

    const synced = await alice.engramAsync(['team', 'sync'], { cwd: project });
    expect(synced.status, synced.stderr).toBe(0);
    const onServer = await pg.query<{ entity_id: string }>(
      server.db,
      `SELECT entity_id FROM entities WHERE project_id = $1 AND kind = 'memory'`,
      [projectIdFromKey('name:shop')],
    );
    expect(onServer.rows.map((r) => r.entity_id).sort()).toEqual(before.map((r) => r.id).sort());
  }, 120_000);
});
