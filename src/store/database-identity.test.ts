import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { projectIdFromKey } from '../core/ids.ts';
import { openDatabase } from './database.ts';
import { ENGRAM_APPLICATION_ID } from './database-identity.ts';
import { MIGRATIONS, SCHEMA_VERSION } from './migrations/index.ts';
import { readMark } from './store-mark.ts';
import { createStore } from './store.ts';
import { insertMemory } from './store.test-support.ts';

const PROJECT = projectIdFromKey('path:/p');

describe("engram's database is marked as engram's", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'engram-identity-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('a new database carries the application id and a store id', () => {
    const db = openDatabase(join(dir, 'engram.db'));
    expect(db.pragma('application_id', { simple: true })).toBe(ENGRAM_APPLICATION_ID);
    expect(db.prepare(`SELECT value FROM store_meta WHERE key = 'store_id'`).pluck().get()).toMatch(
      /^[0-9a-f]{32}$/,
    );
    db.close();
  });

  it('another program’s database at the same path is refused, named, and left byte for byte', () => {
    const home = join(dir, '.engram');
    mkdirSync(home);
    const path = join(home, 'engram.db');
    // The shape of another memory tool's store (sessions, observations, prompts; no id of ours).
    const other = new Database(path);
    other.exec(`CREATE TABLE sessions (id TEXT PRIMARY KEY, project TEXT, started_at TEXT);
      CREATE TABLE observations (id INTEGER PRIMARY KEY, session_id TEXT, type TEXT, title TEXT, content TEXT);
      CREATE TABLE user_prompts (id INTEGER PRIMARY KEY, session_id TEXT, content TEXT);
      INSERT INTO observations (session_id, type, title, content) VALUES ('s1', 'decision', 'Use Go', 'x');`);
    other.close();
    const before = readFileSync(path);
    const attempt = () => openDatabase(path);
    expect(attempt).toThrow(
      expect.objectContaining({
        code: 'STORE_FOREIGN',
        message: expect.stringMatching(
          /is not engram's database: it is another program's database \(tables observations, sessions, user_prompts\); the Go memory tool also named engram/,
        ),
      }),
    );
    expect(() => openDatabase(path, { readonly: true })).toThrow(/is not engram's database/);
    expect(readFileSync(path).equals(before)).toBe(true);
    expect(readdirSync(home)).toEqual(['engram.db']); // no WAL, no journal: never written
    // Another program's own application id is refused too.
    const marked = join(dir, 'marked.db');
    const m = new Database(marked);
    m.pragma('application_id = 1234');
    m.exec('CREATE TABLE t (x)');
    m.close();
    expect(() => openDatabase(marked)).toThrow(/marked for another program \(application_id 0x4d2\)/);
  });

  it('a database made by an earlier engram (no id yet) is known by its tables and gets the id', () => {
    const path = join(dir, 'engram.db');
    const old = new Database(path);
    for (const m of MIGRATIONS.filter((m) => m.version <= 10)) {
      old.exec(m.sql);
      old.pragma(`user_version = ${m.version}`);
    }
    old.close();
    const store = createStore(openDatabase(path));
    expect(store.db.pragma('application_id', { simple: true })).toBe(ENGRAM_APPLICATION_ID);
    expect(store.db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    insertMemory(store, { projectId: PROJECT, title: 'Kept across the upgrade' });
    store.close();
  });

  it('a damaged file is STORE_DAMAGED, and a file emptied after holding changes is not a new start', () => {
    const path = join(dir, 'engram.db');
    const store = createStore(openDatabase(path));
    for (let i = 0; i < 300; i++)
      insertMemory(store, { projectId: PROJECT, title: `memory ${i} ${'x'.repeat(300)}` });
    store.close();
    expect(readMark(path)?.seq).toBeGreaterThanOrEqual(300);
    truncateSync(path, 30_000);
    expect(() => openDatabase(path)).toThrow(expect.objectContaining({ code: 'STORE_DAMAGED' }));
    truncateSync(path, 0);
    expect(() => openDatabase(path)).toThrow(
      expect.objectContaining({
        code: 'STORE_DAMAGED',
        message: expect.stringMatching(/is empty \(0 bytes\), but it held \d+ changes/),
      }),
    );
  });
});
