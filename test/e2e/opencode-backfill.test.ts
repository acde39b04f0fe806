/**
 * `engram backfill` of sessions the real opencode (pinned, against the loopback chat completions mock)
 * wrote into its SQLite store before engram was installed: the session, its prompt, its shell calls (one
 * failing) and the answer are read from `$XDG_DATA_HOME/opencode/opencode.db` (temporary HOME), a
 * preference said in it becomes a memory recorded as opencode's, a second run adds nothing, and
 * `engram install --host opencode --backfill` reads a later session; `--dry-run` writes nothing and `--from`
 * opencode's data folder needs no `--host`. With ENGRAM_RECORD_HOST_FIXTURES=1
 * it also rewrites test/fixtures/hosts/opencode/store.json (the store's tables and rows of the session).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sequence, startMockModel, type MockModel } from '../support/mock-models/server.ts';
import { CLI_BIN } from '../support/sandbox.ts';
import { opencodeEnv, opencodeInvocation } from './support/hosts/host-configs.ts';
import { FAILING_COMMAND, GREETING_COMMAND, recordingFixtures } from './support/hosts/host-fixtures.ts';
import {
  createHostWorld,
  runHostCli,
  sanitise,
  shellCall,
  type HostWorld,
} from './support/hosts/host-session.ts';
import { ensurePinnedCli, OPENCODE } from './support/hosts/pinned-cli.ts';

const PREFERENCE = 'Always use pnpm in this repository, never npm: the lockfile is pnpm-lock.yaml.';
const ANSWER = 'Noted: pnpm only. The greeting is in notes.md; missing-dir does not exist.';

describe('engram backfill of the real opencode store', () => {
  let world: HostWorld;
  let cliDir: string;
  let engramHome: string;
  const mocks: MockModel[] = [];
  const dataDir = () => join(world.home, '.local', 'share', 'opencode');

  const engram = (args: string[]) => {
    const r = spawnSync(process.execPath, [CLI_BIN, ...args], {
      cwd: world.project,
      env: { ...opencodeEnv(world), ENGRAM_HOME: engramHome, ENGRAM_WORKER_AUTOSTART: 'false' },
    });
    return { status: r.status, stdout: r.stdout.toString(), stderr: r.stderr.toString() };
  };

  /** One `opencode run` without engram (no plugin of engram's: opencode alone writes its store). */
  const session = async (prompt: string, script: Parameters<typeof sequence>[0]) => {
    const mock = await startMockModel(sequence(script));
    mocks.push(mock);
    const inv = opencodeInvocation(world, { cliDir, apiUrl: mock.url, prompt, recorderPlugin: false });
    const run = await runHostCli(inv.bin, inv.args, { cwd: world.project, env: inv.env, timeoutMs: 120_000 });
    expect(run.timedOut, run.stderr).toBe(false);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(mock.errors).toEqual([]);
  };

  beforeAll(async () => {
    cliDir = await ensurePinnedCli(OPENCODE);
    world = createHostWorld('opencode');
    engramHome = join(world.root, 'engram-home');
    await session(PREFERENCE, [
      { toolCalls: [shellCall('opencode', GREETING_COMMAND)] },
      { toolCalls: [shellCall('opencode', FAILING_COMMAND)] },
      { text: ANSWER },
    ]);
  }, 20 * 60_000);

  afterAll(async () => {
    for (const m of mocks) await m.close();
    world?.cleanup();
  });

  it('a dry run writes nothing; the store is read from its folder without --host, and a second run adds nothing', () => {
    expect(existsSync(join(dataDir(), 'opencode.db'))).toBe(true);
    const dry = engram(['backfill', '--host', 'opencode', '--dry-run', '--json']);
    expect(dry.status, dry.stderr).toBe(0);
    expect(JSON.parse(dry.stdout)).toMatchObject({ dryRun: true, files: 1, sessions: 1, errors: [] });
    expect(existsSync(join(engramHome, 'host-sessions'))).toBe(false);

    // `--from` opencode's data folder, no --host: the folder's opencode.db says whose it is.
    const first = engram(['backfill', '--from', dataDir(), '--json']);
    expect(first.status, first.stderr).toBe(0);
    const report = JSON.parse(first.stdout) as {
      files: number;
      sessions: number;
      created: number;
      hosts: Record<string, number>;
      errors: unknown[];
    };
    expect(report).toMatchObject({ files: 1, sessions: 1, hosts: { opencode: 1 }, errors: [] });
    expect(report.created).toBeGreaterThan(0);
    // engram wrote the session out as a log in its own home; opencode's folder only has opencode's files.
    expect(readdirSync(join(engramHome, 'host-sessions', 'opencode'))).toEqual([
      expect.stringMatching(/^ses_.*\.jsonl$/),
    ]);

    const found = JSON.parse(engram(['search', 'pnpm', '--json']).stdout) as {
      results: { id: string; title: string }[];
    };
    const memory = found.results.find((r) => r.title.includes('pnpm'));
    expect(memory, JSON.stringify(found)).toBeDefined();
    const shown = JSON.parse(engram(['show', memory?.id ?? '', '--json']).stdout) as { host: string };
    expect(shown.host).toBe('opencode');

    const again = JSON.parse(engram(['backfill', '--host', 'opencode', '--json']).stdout) as {
      created: number;
      records: number;
    };
    expect(again).toMatchObject({ created: 0, records: 0 });
  });

  it('install --host opencode --backfill reads a session stored since', async () => {
    await session('What does notes.md hold?', [
      { toolCalls: [shellCall('opencode', 'cat notes.md')] },
      { text: 'It holds the greeting.' },
    ]);
    const installed = engram(['install', '--host', 'opencode', '--backfill', '--json']);
    expect(installed.status, installed.stderr).toBe(0);
    const status = JSON.parse(engram(['status', '--json']).stdout) as {
      hosts: { host: string; sessions: number }[];
    };
    expect(status.hosts).toEqual([expect.objectContaining({ host: 'opencode', sessions: 2 })]);
  });

  it('records the store’s tables for the unit tests (ENGRAM_RECORD_HOST_FIXTURES=1)', () => {
    if (!recordingFixtures()) return;
    const db = new Database(join(dataDir(), 'opencode.db'), { readonly: true });
    try {
      const tables = ['session', 'message', 'part'];
      const schema = tables.map(
        (t) => (db.prepare('SELECT sql FROM sqlite_master WHERE name = ?').get(t) as { sql: string }).sql,
      );
      const first = (
        db.prepare('SELECT id FROM session ORDER BY time_created LIMIT 1').get() as { id: string }
      ).id;
      const rows = Object.fromEntries(
        tables.map((t) => [
          t,
          db
            .prepare(`SELECT * FROM ${t} WHERE ${t === 'session' ? 'id' : 'session_id'} = ? ORDER BY id`)
            .all(first),
        ]),
      );
      const file = fileURLToPath(new URL('../fixtures/hosts/opencode/store.json', import.meta.url));
      writeFileSync(file, `${sanitise(JSON.stringify({ schema, rows }, null, 2), world)}\n`);
    } finally {
      db.close();
    }
  });
});
