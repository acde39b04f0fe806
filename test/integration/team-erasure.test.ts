/**
 * Erasure reaches every machine, through the real CLI: a phrase erased with `forget --match` on one
 * machine leaves a teammate's machine too — its current text, every earlier version, the session
 * summary, the full-text index, free pages and the WAL (no file under its ENGRAM_HOME holds a byte of
 * it) — and a forgotten memory keeps no version anywhere.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../support/sandbox.ts';
import {
  captureTurn,
  gitProject,
  rowsOf,
  startCliTeamServer,
  type CliTeamServer,
} from '../support/team-cli.ts';
import { startTestPostgres, type TestPostgres } from '../support/team-postgres.ts';

const REMOTE = 'git@github.com:acme/shop.git';
const NAME = 'Zanzibar Holloway';
// The name's words, and their stems as the full-text index keeps them.
const WORDS = ['zanzibar', 'holloway', 'hollowai'];

let pg: TestPostgres;
let server: CliTeamServer;
const machines: Record<string, { sb: Sandbox; project: string }> = {};

const on = (who: string) => machines[who] as { sb: Sandbox; project: string };
const engram = (who: string, args: string[]) => on(who).sb.engramAsync(args, { cwd: on(who).project });

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** Every file under a machine's ENGRAM_HOME that holds the name or one of its words, in any case. */
function traces(who: string): string[] {
  const found: string[] = [];
  for (const file of filesUnder(on(who).sb.engramHome)) {
    const bytes = readFileSync(file).toString('latin1').toLowerCase();
    for (const w of WORDS) if (bytes.includes(w)) found.push(`${file}: ${w}`);
  }
  return found;
}

const memoryWith = (who: string, text: string) =>
  rowsOf<{ id: string }>(
    on(who).sb,
    `SELECT id FROM observations WHERE title LIKE ? OR narrative LIKE ?`,
    [`%${text}%`, `%${text}%`].flat(),
  );

async function syncAll(...who: string[]): Promise<void> {
  for (const w of who) {
    const r = await engram(w, ['team', 'sync']);
    expect(r.status, `${w}: ${r.stdout}${r.stderr}`).toBe(0);
  }
}

beforeAll(async () => {
  pg = await startTestPostgres();
  server = await startCliTeamServer(pg);
  for (const who of ['alice', 'bob']) {
    const sb = createSandbox();
    machines[who] = { sb, project: gitProject(sb, 'shop', REMOTE) };
    const admin = ['team', 'admin', '--server', server.url, '--token', server.adminToken];
    const added = await sb.engramAsync([...admin, 'user', 'add', who, '--json']);
    const token = (JSON.parse(added.stdout) as { token: string }).token;
    await sb.engramAsync([...admin, 'grant', '--user', who, '--project', REMOTE, '--role', 'writer']);
    expect((await sb.engramAsync(['team', 'login', '--server', server.url, '--token', token])).status).toBe(
      0,
    );
    expect((await engram(who, ['team', 'share'])).status).toBe(0);
  }
}, 120_000);

afterAll(async () => {
  await server?.stop();
  for (const m of Object.values(machines)) m.sb.cleanup();
  await pg?.stop();
});

describe('erasure reaches every machine', () => {
  it("a phrase erased on alice's machine leaves no byte on bob's, versions included", async () => {
    await captureTurn(on('alice').sb, on('alice').project, 'a-1', {
      prompt: `Send the invoice reminders to ${NAME} every Monday`,
      file: 'src/reminders.ts',
      answer: `Invoice reminders now go to ${NAME} every Monday at 9:00.`,
    });
    const [memory] = memoryWith('alice', 'Holloway');
    expect(memory).toBeDefined();
    const id = memory?.id as string;
    await syncAll('alice', 'bob');
    // A second version on both machines: bob's history now holds the name twice over.
    expect((await engram('alice', ['pin', id])).status).toBe(0);
    await syncAll('alice', 'bob');
    expect((await engram('bob', ['history', id])).stdout).toContain('Holloway');
    expect(traces('bob')).not.toEqual([]);
    // A search of the team web view (as a reader of every project) indexes the memory's stemmed words.
    const indexed = await pg.query<{ engram_index_words: string }>(
      server.db,
      `SELECT set_config('engram.read', (SELECT string_agg(id, ',') FROM projects), false) AS read,
              engram_index_words(NULL)`,
    );
    expect(Number(indexed.rows[0]?.engram_index_words)).toBeGreaterThan(0);

    const erased = await engram('alice', ['forget', '--match', NAME, '--yes']);
    expect(erased.status, erased.stdout + erased.stderr).toBe(0);
    await syncAll('alice', 'bob');

    const history = await engram('bob', ['history', id]);
    expect(history.status).toBe(0);
    expect(history.stdout).toContain('[erased]');
    expect(history.stdout).not.toMatch(/zanzibar|holloway/i);
    expect((await engram('bob', ['search', 'Zanzibar'])).stdout).toMatch(/^no memories match/);
    expect(traces('bob')).toEqual([]);
    expect(traces('alice')).toEqual([]);
    // Bob's copy is still the memory, standing as alice's is.
    expect(
      rowsOf<{ pinned: number }>(on('bob').sb, 'SELECT pinned FROM observations WHERE id = ?', id),
    ).toEqual([{ pinned: 1 }]);
  });

  it("the server's PostgreSQL forgets it too with the README's steps", async () => {
    const data = join(pg.dir, 'pgdata');
    const held = () =>
      filesUnder(data).filter((f) => {
        const text = readFileSync(f).toString('latin1').toLowerCase();
        return WORDS.slice(1).some((w) => text.includes(w)); // the name, and its stem as search keeps it
      });
    await pg.query(server.db, 'CHECKPOINT');
    // Old row versions and the write-ahead log still hold what was pushed before the erasure.
    expect(held()).not.toEqual([]);
    for (const sql of [
      'VACUUM (FULL) entities',
      'VACUUM (FULL) memory_words',
      'ALTER SYSTEM SET wal_recycle = off',
      'SELECT pg_reload_conf()',
      'SELECT pg_switch_wal()',
      'CHECKPOINT',
      'SELECT pg_switch_wal()',
      'CHECKPOINT',
    ])
      await pg.query(server.db, sql);
    expect(held()).toEqual([]);
  });

  it("a memory bob forgets keeps no version on alice's machine", async () => {
    await captureTurn(on('alice').sb, on('alice').project, 'a-2', {
      prompt: 'Rotate the staging certificates before Friday',
      file: 'ops/certs.sh',
      answer: 'The staging certificates are rotated by ops/certs.sh before Friday.',
    });
    const id = memoryWith('alice', 'certificates')[0]?.id as string;
    await syncAll('alice', 'bob');
    expect((await engram('alice', ['pin', id])).status).toBe(0);
    await syncAll('alice', 'bob');
    expect((await engram('bob', ['forget', id])).status).toBe(0);
    await syncAll('bob', 'alice');
    for (const who of ['alice', 'bob']) {
      const versions = rowsOf<{ n: number }>(
        on(who).sb,
        'SELECT count(*) AS n FROM observation_versions WHERE observation_id = ?',
        id,
      );
      expect(versions, who).toEqual([{ n: 0 }]);
      expect((await engram(who, ['history', id])).stdout, who).not.toMatch(/certificates/i);
    }
  });
});
