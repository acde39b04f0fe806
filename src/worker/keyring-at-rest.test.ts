/**
 * A project key at rest: the database file and its backups hold it only wrapped for this machine's
 * device key, which lives beside them (`device-key.pem`), never in them. Real SQLite files in temp
 * homes, scanned byte by byte for the key in every text form it could take.
 */
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isEngramError } from '../core/errors.ts';
import { projectIdFromKey } from '../core/ids.ts';
import { backupDatabase } from '../store/backup.ts';
import { checkpointWal, openDatabase } from '../store/database.ts';
import { createStore, type Store } from '../store/store.ts';
import { exportKeyring, parseKeyring } from '../team/record-seal.ts';
import { sealKeyringsAtRest } from './keyring-at-rest.ts';
import {
  createProjectKey,
  importProjectKey,
  keyringOf,
  keyVersionsOf,
  rotateProjectKey,
} from './team-keys.ts';

const PROJECT = projectIdFromKey('git:github.com/acme/ledger');
const homes: string[] = [];
const stores: Store[] = [];

function open(dir: string): Store {
  const store = createStore(openDatabase(join(dir, 'engram.db')));
  stores.push(store);
  return store;
}

function home(): { dir: string; store: Store } {
  const dir = mkdtempSync(join(tmpdir(), 'engram-keyring-'));
  homes.push(dir);
  return { dir, store: open(dir) };
}

afterEach(() => {
  for (const s of stores.splice(0)) if (s.db.open) s.db.close();
  for (const d of homes.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** Every way the key's bytes could be written as text (or raw) in a file. */
const forms = (key: Buffer): string[] => [
  key.toString('hex'),
  key.toString('hex').toUpperCase(),
  key.toString('base64'),
  key.toString('base64').replace(/=+$/, ''),
  key.toString('base64url'),
];

/** Which forms of any of the keys the files hold (their raw bytes too). */
function found(files: string[], keys: Buffer[]): string[] {
  const hits: string[] = [];
  for (const file of files.filter((f) => existsSync(f))) {
    const bytes = readFileSync(file);
    const text = bytes.toString('latin1');
    for (const key of keys) {
      if (bytes.includes(key)) hits.push(`${file}: raw bytes`);
      for (const f of forms(key)) if (text.includes(f)) hits.push(`${file}: ${f}`);
    }
  }
  return hits;
}

const dbFiles = (dir: string) => [join(dir, 'engram.db'), join(dir, 'engram.db-wal')];
const keysOf = (store: Store) => (keyringOf(store, PROJECT)?.versions ?? []).map((v) => v.key);

describe('a project key at rest', () => {
  it('is in neither the database file nor a backup, only wrapped for the device key beside them', async () => {
    const { dir, store } = home();
    createProjectKey(store, PROJECT, 1);
    rotateProjectKey(store, PROJECT, 2);
    const keys = keysOf(store);
    expect(keys).toHaveLength(2);
    expect(statSync(join(dir, 'device-key.pem')).mode & 0o777).toBe(0o600);
    const backup = await backupDatabase(store.db, join(dir, 'backups'), 3);
    checkpointWal(store.db);
    expect(found([...dbFiles(dir), backup.path], keys)).toEqual([]);

    // A backup alone opens nothing: restored into a home without this device key, the key is missing.
    const other = home();
    other.store.db.close();
    copyFileSync(backup.path, join(other.dir, 'engram.db'));
    const restored = open(other.dir);
    expect(keyVersionsOf(restored, PROJECT)).toEqual([1, 2]);
    expect(() => keyringOf(restored, PROJECT)).toThrow(/wrapped for device dk_[0-9a-f]+.*no device key/);
    // With the device key put back beside it, it opens again (a new process: a new connection).
    copyFileSync(join(dir, 'device-key.pem'), join(other.dir, 'device-key.pem'));
    expect(keysOf(open(other.dir))).toEqual(keys);
  });

  it('wraps a key an earlier engram kept in the clear, and leaves no copy of it in the file', () => {
    const { dir, store } = home();
    const key = Buffer.alloc(32, 7);
    store.team.setMeta(
      `e2ee_keyring:${PROJECT}`,
      JSON.stringify({ versions: [{ v: 1, k: key.toString('base64url'), at: 1 }] }),
    );
    checkpointWal(store.db);
    // What an earlier engram left on disk (so the scan below can fail).
    expect(found(dbFiles(dir), [key])).not.toEqual([]);

    expect(sealKeyringsAtRest(store)).toEqual([PROJECT]);
    expect(store.team.meta(`e2ee_keyring:${PROJECT}`)).not.toContain('"k"');
    expect(found(dbFiles(dir), [key])).toEqual([]);
    expect(keysOf(store)).toEqual([key]);
    expect(sealKeyringsAtRest(store)).toEqual([]);
  });

  it('wraps a clear keyring the first time it is read, too', () => {
    const { store } = home();
    const key = Buffer.alloc(32, 9);
    store.team.setMeta(
      `e2ee_keyring:${PROJECT}`,
      JSON.stringify({ versions: [{ v: 1, k: key.toString('base64url'), at: 1 }] }),
    );
    expect(keysOf(store)).toEqual([key]);
    expect(store.team.meta(`e2ee_keyring:${PROJECT}`)).not.toContain(key.toString('base64url'));
  });

  it('says the key is wrapped for another device when the device key changed, and takes it again by import', () => {
    const { dir, store: first } = home();
    createProjectKey(first, PROJECT, 1);
    const line = exportKeyring(keyringOf(first, PROJECT) ?? { projectId: PROJECT, versions: [] });
    first.db.close();
    rmSync(join(dir, 'device-key.pem'));
    const store = open(dir);
    let error: unknown;
    try {
      keyringOf(store, PROJECT);
    } catch (e) {
      error = e;
    }
    expect(isEngramError(error, 'KEY_MISSING')).toBe(true);
    expect(String((error as Error).message)).toMatch(/no device key/);
    // Another device key (made by the import, which wraps the key for it): the old wrap is replaced.
    expect(importProjectKey(store, parseKeyring(line), 2).added).toEqual([1]);
    expect(keysOf(store)).toEqual(parseKeyring(line).versions.map((v) => v.key));

    store.db.close();
    const other = home(); // another machine: a device key of its own
    createProjectKey(other.store, PROJECT, 3);
    copyFileSync(join(other.dir, 'device-key.pem'), join(dir, 'device-key.pem'));
    expect(() => keyringOf(open(dir), PROJECT)).toThrow(/wrapped for another device/);
  });
});
