/**
 * The store is never lost, black-box through the real CLI in a temporary home: the worker backs the
 * database up; transcripts grow and captured events wait in the inbox after the backup; then the
 * database is damaged three ways (truncated, a page overwritten, its WAL deleted while it held
 * committed changes). `engram doctor` says what is wrong (never "a fault on engram's side") and
 * `engram doctor --repair` brings back everything the backup, the inbox and the transcripts hold.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import {
  appendFileSync,
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  closeSync,
  truncateSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, payloads, REPO_ROOT, type Sandbox } from '../support/sandbox.ts';

const FIXTURES = join(REPO_ROOT, 'test', 'fixtures', 'transcripts');
const LONG = '258c7280-ae70-4798-800f-63464d01a85d.jsonl';

/** Active memory titles in a database file (read-only, through SQLite itself). */
function titles(db: string): string[] {
  const sqlite = new Database(db, { readonly: true });
  try {
    return sqlite
      .prepare(`SELECT title FROM observations WHERE status = 'active' ORDER BY title`)
      .pluck()
      .all() as string[];
  } finally {
    sqlite.close();
  }
}

/** One captured session that never reached the database: its events wait in the inbox. */
function captureToInbox(sb: Sandbox): void {
  const repo = sb.project('shop', 'git@github.com:acme/shop.git');
  const p = payloads('sess-inbox', repo);
  for (const payload of [
    p.start(),
    p.prompt('Make the cache expire entries after an hour'),
    p.tool(
      'Edit',
      { file_path: `${repo}/src/cache.ts`, old_string: 'ttl = 0', new_string: 'ttl = 3600' },
      {},
    ),
    p.stop('The cache now expires entries after an hour.'),
    p.end(),
  ])
    expect(sb.hook(payload).status).toBe(0);
}

describe('engram doctor --repair brings back what the backup, the inbox and the transcripts hold', () => {
  let sb: Sandbox;
  let projects: string;
  let template: string;
  /** What a clean engram makes of the inbox's events alone. */
  let fromInbox: string[];
  const lines = readFileSync(join(FIXTURES, LONG), 'utf8').split('\n').filter(Boolean);
  const half = Math.floor(lines.length / 2);
  const db = () => join(sb.engramHome, 'engram.db');
  const ok = (args: string[]) => {
    const r = sb.engram(args, { timeoutMs: 120_000 });
    expect(r.status, `${args.join(' ')}\n${r.stderr}`).toBe(0);
    return r.stdout;
  };

  beforeAll(async () => {
    // What the inbox's events make, in a home of their own.
    const ref = createSandbox();
    captureToInbox(ref);
    expect(ref.engram(['flush']).status).toBe(0);
    fromInbox = titles(join(ref.engramHome, 'engram.db'));
    ref.cleanup();
    expect(fromInbox.length).toBeGreaterThan(0);

    sb = createSandbox();
    projects = join(sb.home, '.claude', 'projects', '-home-USER-projects-spotter');
    mkdirSync(projects, { recursive: true });
    // Before the backup: the first half of a real session.
    writeFileSync(join(projects, LONG), `${lines.slice(0, half).join('\n')}\n`);
    ok(['backfill']);
    // The worker backs the database up as soon as it runs (no backup yet).
    ok(['worker', 'start']);
    const backups = join(sb.engramHome, 'backups');
    for (
      let i = 0;
      i < 300 && !(existsSync(backups) && readdirSync(backups).some((f) => f.endsWith('.db')));
      i++
    )
      await new Promise((r) => setTimeout(r, 100));
    ok(['worker', 'stop']);
    expect(readdirSync(backups).filter((f) => f.endsWith('.db'))).toHaveLength(1);
    template = join(sb.root, 'template');
    cpSync(sb.engramHome, template, { recursive: true });
  }, 180_000);
  afterAll(() => sb?.cleanup());

  /** Back to the moment after the backup; then the transcripts grow and events wait in the inbox. */
  function afterTheBackup(): void {
    rmSync(sb.engramHome, { recursive: true, force: true });
    cpSync(template, sb.engramHome, { recursive: true });
    writeFileSync(join(projects, LONG), `${lines.slice(0, half).join('\n')}\n`);
    rmSync(join(projects, 'tool_heavy.jsonl'), { force: true });
    appendFileSync(join(projects, LONG), `${lines.slice(half).join('\n')}\n`);
    copyFileSync(join(FIXTURES, 'tool_heavy.jsonl'), join(projects, 'tool_heavy.jsonl'));
  }

  /** doctor names the damage (exit 1, not an internal fault); repair restores; nothing is missing. */
  function diagnoseAndRepair(before: string[], damage: RegExp, base: RegExp): string {
    const doctor = sb.engram(['doctor'], { timeoutMs: 60_000 });
    expect(doctor.status).toBe(1);
    expect(doctor.stdout).toMatch(damage);
    expect(doctor.stdout).toMatch(/fix: Run "engram doctor --repair"/);
    expect(doctor.stdout + doctor.stderr).not.toMatch(/fault on engram/);
    const repaired = ok(['doctor', '--repair']);
    expect(repaired).toMatch(base);
    const after = titles(db());
    expect(before.filter((t) => !after.includes(t))).toEqual([]);
    expect(fromInbox.filter((t) => !after.includes(t))).toEqual([]);
    expect(sb.engram(['doctor'], { timeoutMs: 60_000 }).stdout).toMatch(/✓ database: .*integrity ok/);
    // The damaged file is kept aside, never deleted.
    return repaired;
  }

  it('a truncated database: the backup, then the transcripts read on from its offsets, then the inbox', () => {
    afterTheBackup();
    ok(['backfill']);
    captureToInbox(sb);
    const before = titles(db());
    truncateSync(db(), Math.floor(statSync(db()).size / 3));
    const search = sb.engram(['search', 'cache'], { timeoutMs: 60_000 });
    expect(search.status).toBe(1);
    expect(search.stderr).toMatch(/database .*is damaged[\s\S]*engram doctor --repair/);
    const report = diagnoseAndRepair(
      before,
      /✗ database: .*damaged/,
      /restored the backup of .*: .*backups\/engram-/,
    );
    expect(report).toMatch(/inbox: \d+ captured events imported/);
    expect(report).toMatch(/transcripts: 2 files read on from where the database had stopped/);
    expect(report).toMatch(/damaged database is kept at .*engram\.db\.damaged-/);
  });

  it('a page of the memories table overwritten: restored from the backup the same way', () => {
    afterTheBackup();
    ok(['backfill']);
    captureToInbox(sb);
    const before = titles(db());
    const sqlite = new Database(db(), { readonly: true });
    const root = sqlite
      .prepare(`SELECT rootpage FROM sqlite_schema WHERE name = 'observations'`)
      .pluck()
      .get() as number;
    const pageSize = sqlite.pragma('page_size', { simple: true }) as number;
    sqlite.close();
    const fd = openSync(db(), 'r+');
    writeSync(fd, Buffer.alloc(pageSize, 0x5a), 0, pageSize, (root - 1) * pageSize);
    closeSync(fd);
    diagnoseAndRepair(before, /✗ database: .*fails its integrity check/, /restored the backup of /);
  });

  it('the WAL deleted while it held committed changes: the database is kept, the rest read back', async () => {
    afterTheBackup();
    // A reader that dies holding its snapshot keeps the new commits in the WAL (no checkpoint passes it).
    const reader: ChildProcess = spawn(
      process.execPath,
      [
        '-e',
        `const D = require(${JSON.stringify(join(REPO_ROOT, 'node_modules', 'better-sqlite3'))});
         const db = new D(${JSON.stringify(db())});
         db.prepare('BEGIN').run(); db.prepare('SELECT count(*) FROM observations').get();
         console.log('ready'); setInterval(() => {}, 1000);`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await new Promise<void>((resolve) =>
      createInterface({ input: reader.stdout as NodeJS.ReadableStream }).once('line', () => resolve()),
    );
    ok(['backfill']);
    captureToInbox(sb);
    const before = titles(db());
    await new Promise<void>((resolve) => {
      reader.once('exit', () => resolve());
      reader.kill('SIGKILL');
    });
    expect(statSync(`${db()}-wal`).size).toBeGreaterThan(0);
    rmSync(`${db()}-wal`);
    expect(titles(db()).length).toBeLessThan(before.length); // the committed changes are gone
    const report = diagnoseAndRepair(
      before,
      /✗ database: .*held up to #\d+: \d+ committed changes are missing/,
      /kept the database \(it is whole\)/,
    );
    expect(report).toMatch(/committed changes were missing/);
  });
});
