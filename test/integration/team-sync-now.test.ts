/**
 * Sync when it is asked for, and whenever an engram process that can sync is alive, through the real
 * CLI: machines named from their host name (and renamed), `team sync` sending the project state every
 * time, the viewer syncing in the background, and `status` saying when each project last synced.
 */
import { spawn } from 'node:child_process';
import { hostname } from 'node:os';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_BIN, createSandbox, type Sandbox } from '../support/sandbox.ts';
import {
  captureTurn,
  commitFile,
  gitProject,
  startCliTeamServer,
  stopChild,
  until,
  type CliTeamServer,
} from '../support/team-cli.ts';
import { startTestPostgres, type TestPostgres } from '../support/team-postgres.ts';

const REMOTE = 'git@github.com:acme/shop.git';
let pg: TestPostgres;
let server: CliTeamServer;
let alice: Sandbox;
let project: string;

const admin = (...args: string[]) =>
  alice.engramAsync(['team', 'admin', '--server', server.url, '--token', server.adminToken, ...args]);

const serverRows = async <T extends object>(sql: string, params: unknown[] = []) =>
  (await pg.query<T>(server.db, sql, params)).rows;

beforeAll(async () => {
  pg = await startTestPostgres();
  server = await startCliTeamServer(pg);
  alice = createSandbox({ ENGRAM_TEAM_SYNC_INTERVAL_SECONDS: '5' });
  project = gitProject(alice, 'shop', REMOTE);
}, 120_000);

afterAll(async () => {
  await server?.stop();
  alice?.cleanup();
  await pg?.stop();
});

describe('team sync, now and in the background', () => {
  it('a machine is named from its host name at login, and can be renamed', async () => {
    const added = await admin('user', 'add', 'alice', '--json');
    expect(added.status, added.stderr).toBe(0);
    const token = (JSON.parse(added.stdout) as { token: string }).token;
    expect((await admin('grant', '--user', 'alice', '--project', REMOTE, '--role', 'writer')).status).toBe(0);
    const login = await alice.engramAsync([
      'team',
      'login',
      '--server',
      server.url,
      '--token',
      token,
      '--json',
    ]);
    expect(login.status, login.stderr).toBe(0);
    const named = (JSON.parse(login.stdout) as { device: string }).device;
    // The host name, in the characters a device name may hold.
    expect(named).toBe(
      hostname()
        .replace(/[^A-Za-z0-9._-]+/g, '-')
        .replace(/^[^A-Za-z0-9]+/, '')
        .slice(0, 63),
    );
    expect(named).not.toBe('default');
    const tokens = async () =>
      serverRows<{ device: string }>(
        `SELECT t.device FROM tokens t JOIN users u ON u.id = t.user_id WHERE u.name = 'alice'`,
      );
    expect(await tokens()).toEqual([{ device: named }]);
    const renamed = await alice.engramAsync(['team', 'device', 'alice-desk']);
    expect(renamed.stdout).toContain('this machine is alice-desk');
    expect(await tokens()).toEqual([{ device: 'alice-desk' }]);
    expect((await alice.engramAsync(['team', 'share'], { cwd: project })).status).toBe(0);
  });

  it('team sync sends the project state every time it is run, and status says when it synced', async () => {
    const state = async () =>
      serverRows<{ device: string; commit_sha: string }>(`SELECT device, commit_sha FROM states`);
    expect((await alice.engramAsync(['team', 'sync'])).status).toBe(0);
    const first = (await state())[0]?.commit_sha as string;
    expect(await state()).toEqual([{ device: 'alice-desk', commit_sha: first }]);
    const next = commitFile(alice, project, 'src.ts', 'export {};\n');
    expect(next).not.toBe(first);
    // Moments later, by hand: the new commit goes too.
    expect((await alice.engramAsync(['team', 'sync'])).status).toBe(0);
    expect(await state()).toEqual([{ device: 'alice-desk', commit_sha: next }]);
    expect((await alice.engramAsync(['status'])).stdout).toMatch(/team: shop synced just now · 0 to push/);
    expect((await alice.engramAsync(['team', 'status'])).stdout).toMatch(/shop .* writer: synced just now/);
  });

  it('the viewer syncs in the background while it runs, with no worker', async () => {
    await captureTurn(alice, project, 'a-view', {
      prompt: 'Add a health check endpoint to the API',
      file: 'src/health.ts',
      answer: 'The API now answers GET /health with 200 when the database answers.',
    });
    const onServer = async () =>
      (
        await serverRows<{ n: number }>(
          `SELECT count(*)::int AS n FROM entities WHERE kind = 'summary' AND entity_id = 'a-view'`,
        )
      )[0]?.n === 1;
    expect(await onServer()).toBe(false);
    const viewer = spawn(process.execPath, [CLI_BIN, 'ui', '--port', '0', '--no-open'], {
      env: alice.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      await new Promise<void>((resolve, reject) => {
        viewer.once('exit', (code) => reject(new Error(`viewer exited ${code}`)));
        createInterface({ input: viewer.stdout as NodeJS.ReadableStream }).once('line', () => resolve());
      });
      await until(onServer, "the viewer's background sync to push the session");
    } finally {
      await stopChild(viewer);
    }
    expect(
      await serverRows<{ n: number }>(`SELECT count(*)::int AS n FROM states WHERE device = 'alice-desk'`),
    ).toEqual([{ n: 1 }]);
  });
});
