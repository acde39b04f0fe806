/**
 * An end-to-end encrypted team project through the real CLI: two machines (each its own HOME and
 * ENGRAM_HOME) on a team server over a real PostgreSQL. The sharer's `team share --encrypt` prints the
 * key line; a teammate without it is told so, and after `team key import` (from stdin) reads the
 * project. The server's rows hold no title that was pushed.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTeamApi } from '../../src/team/api-client.ts';
import { createSandbox, type Sandbox } from '../support/sandbox.ts';
import {
  startTestPostgres,
  startTestTeamServer,
  type TestPostgres,
  type TestTeamServer,
} from '../support/team-postgres.ts';

const REMOTE = 'git@github.com:acme/ledger.git';
const TITLE = 'Quokkafern ledger totals are reconciled nightly';
let pg: TestPostgres;
let server: TestTeamServer;
const machines: Record<string, Sandbox> = {};

const projectOf = (who: string) => join((machines[who] as Sandbox).root, 'projects', 'ledger');
const engram = (who: string, args: string[], input?: string) =>
  (machines[who] as Sandbox).engramAsync(args, { cwd: projectOf(who), ...(input ? { input } : {}) });

function titles(who: string): string[] {
  const sqlite = new Database(join((machines[who] as Sandbox).engramHome, 'engram.db'), { readonly: true });
  try {
    return (sqlite.prepare('SELECT title FROM observations ORDER BY title').all() as { title: string }[]).map(
      (r) => r.title,
    );
  } finally {
    sqlite.close();
  }
}

beforeAll(async () => {
  pg = await startTestPostgres();
  server = await startTestTeamServer(pg);
  const admin = createTeamApi({ server: server.url, token: server.adminToken });
  for (const who of ['alice', 'bob']) {
    const sb = createSandbox();
    machines[who] = sb;
    sb.project('ledger', REMOTE);
    const { token } = await admin.addUser({ name: who, device: `${who}-box` });
    await admin.grant({ user: who, project: REMOTE, role: 'writer' });
    const login = await engram(who, ['team', 'login', '--server', server.url, '--token', token]);
    expect(login.status, login.stderr).toBe(0);
  }
}, 120_000);

afterAll(async () => {
  for (const sb of Object.values(machines)) sb.cleanup();
  await server?.close();
  await pg?.stop();
});

describe('an end-to-end encrypted project through the CLI', () => {
  let line = '';

  it('share --encrypt prints the key line to hand over; export prints the same', async () => {
    expect(
      (await engram('alice', ['remember', TITLE, '--narrative', 'Totals close at 02:00 UTC'])).status,
    ).toBe(0);
    const share = await engram('alice', ['team', 'share', '--encrypt']);
    expect(share.status, share.stderr).toBe(0);
    line = /^engram-key:v1:\S+$/m.exec(share.stdout)?.[0] ?? '';
    expect(line).not.toBe('');
    expect(share.stdout).toMatch(/only ciphertext/);
    expect((await engram('alice', ['team', 'key', 'export'])).stdout.trim()).toBe(line);
    const sync = await engram('alice', ['team', 'sync']);
    expect(sync.status, sync.stderr).toBe(0);
    const status = await engram('alice', ['team', 'status']);
    expect(status.stdout).toMatch(/end-to-end encrypted, key v1/);
  });

  it('a teammate without the key is told what to do, and reads everything once imported', async () => {
    expect((await engram('bob', ['team', 'share'])).status).toBe(0);
    const locked = await engram('bob', ['team', 'sync']);
    expect(locked.status).toBe(1);
    expect(locked.stderr).toMatch(/holds no key for it: import the project key \(engram team key import\)/);
    expect(titles('bob')).toEqual([]);

    const other = line.replace(/prj_[0-9a-f]{16}/, 'prj_0123456789abcdef');
    const refused = await engram('bob', ['team', 'key', 'import', other]);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(/this key is for project prj_0123456789abcdef/);
    const mangled = await engram('bob', ['team', 'key', 'import'], 'engram-key:v1:nonsense\n');
    expect(mangled.status).toBe(2);
    expect(mangled.stderr).toMatch(/not a project key/);

    const imported = await engram('bob', ['team', 'key', 'import'], `${line}\n`);
    expect(imported.status, imported.stderr).toBe(0);
    expect(imported.stdout).toMatch(/key version 1 imported/);
    const sync = await engram('bob', ['team', 'sync']);
    expect(sync.status, sync.stderr).toBe(0);
    expect(titles('bob')).toEqual([TITLE]);
  });

  it('the server keeps ciphertext only', async () => {
    const rows = await pg.query<{ row: string; e2ee: string | null }>(
      server.databaseUrl,
      `SELECT e::text AS row, e.body ->> 'e2ee' AS e2ee FROM entities e`,
    );
    expect(rows.rows.length).toBeGreaterThan(0);
    for (const r of rows.rows) {
      expect(r.e2ee).toBe('1');
      expect(r.row.toLowerCase()).not.toMatch(/quokka|reconcil|totals close/);
    }
  });
});
