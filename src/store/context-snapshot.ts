/**
 * SessionStart snapshots on file: per project, what the index reads from the store (recall/
 * session-snapshot.ts says what), written by the worker and read by the context hook, with the store's
 * context epoch (migration 0015: a value every change to what the index reads replaces, in the change's
 * own transaction) it was read at. One small JSON file per project under `$ENGRAM_HOME/snapshots/`,
 * 0600, written to a temporary name and renamed into place (a reader sees a whole file or none).
 * Memory text lives in these files as it does in the database: a forget removes them all.
 */
import { isAscii } from 'node:buffer';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import type { Db } from './database.ts';

const SAFE_NAME = /^[A-Za-z0-9_-]{1,100}$/;

function fileOf(dir: string, projectId: string): string | null {
  return SAFE_NAME.test(projectId) ? join(dir, `${projectId}.json`) : null;
}

/**
 * The store's context epoch now (a read of one row; its own transaction unless the caller is in one),
 * as text: a 64-bit value kept whole. Null when the schema has no epoch yet.
 */
export function readContextEpoch(db: Db): string | null {
  try {
    const row = db.prepare('SELECT CAST(n AS TEXT) AS n FROM context_epoch WHERE id = 1').get() as
      { n: string } | undefined;
    return row?.n ?? null;
  } catch {
    return null; // a store before migration 0015: no snapshot can be trusted
  }
}

/**
 * JSON with every character past ASCII written as its `\u` escape: the same value to `JSON.parse`, and a
 * file the hook reads as one-byte text (`readJsonFile`), with no UTF-8 to decode.
 */
const asciiJson = (value: unknown): string =>
  JSON.stringify(value).replace(
    /[\u0080-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );

/** A JSON file's value: an ASCII file (as `writeJsonFile` writes them) read without UTF-8 decoding. */
function readJsonFile(file: string): unknown {
  const bytes = readFileSync(file);
  return JSON.parse(bytes.toString(isAscii(bytes) ? 'latin1' : 'utf8')) as unknown;
}

/** Write a JSON value to `file` atomically (a temporary name, then a rename); never throws. */
function writeJsonFile(dir: string, file: string, value: unknown): boolean {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(tmp, asciiJson(value), { mode: 0o600 });
    renameSync(tmp, file);
    return true;
  } catch {
    rmSync(tmp, { force: true });
    return false;
  }
}

/** Write a project's snapshot (a JSON value) atomically; never throws (a snapshot only saves time). */
export function writeContextSnapshot(dir: string, projectId: string, value: unknown): boolean {
  const file = fileOf(dir, projectId);
  return file ? writeJsonFile(dir, file, value) : false;
}

/** A project's snapshot as parsed JSON, or null when there is none (or it cannot be read). */
export function readContextSnapshot(dir: string, projectId: string): unknown {
  const file = fileOf(dir, projectId);
  if (!file) return null;
  try {
    return readJsonFile(file);
  } catch {
    return null;
  }
}

/**
 * The snapshot folder of an on-disk database: `snapshots/` beside it (ENGRAM_HOME's, for engram.db);
 * null for an in-memory one.
 */
export function snapshotDirBeside(db: Db): string | null {
  return db.memory || !isAbsolute(db.name) ? null : join(dirname(db.name), 'snapshots');
}

/** Remove a project's snapshot (or every snapshot): the next hook renders live. */
export function removeContextSnapshots(dir: string, projectId?: string): void {
  if (projectId === undefined) {
    rmSync(dir, { recursive: true, force: true });
    return;
  }
  const file = fileOf(dir, projectId);
  if (file) rmSync(file, { force: true });
}

/** The WAL index header SQLite keeps at the start of `<db>-shm`: two copies of 48 bytes. */
const WAL_HEADER = 48;
/** Its `isInit` byte: 1 once a connection has built the index. */
const IS_INIT = 12;

/** The state the WAL index header on `fd` says, or null (short, torn, not built yet). */
function walState(fd: number): string | null {
  try {
    const header = Buffer.alloc(2 * WAL_HEADER);
    if (readSync(fd, header, 0, header.length, 0) !== header.length) return null;
    const first = header.subarray(0, WAL_HEADER);
    if (first[IS_INIT] !== 1 || !first.equals(header.subarray(WAL_HEADER))) return null;
    return `wal:${first.toString('hex')}`;
  } catch {
    return null;
  }
}

/** With no WAL index on disk: the file's own state when there is no log either, else null. */
function closedFileState(dbPath: string): string | null {
  if (existsSync(`${dbPath}-wal`) || existsSync(`${dbPath}-shm`)) return null;
  try {
    const s = statSync(dbPath, { bigint: true });
    return `file:${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
  } catch {
    return null;
  }
}

/**
 * Where the store's committed state stands, read from the files without SQLite, or null when that
 * cannot be told. While a connection has the database open in WAL mode, SQLite's WAL index header
 * (`<db>-shm`) changes with every commit (its frame count, the last frame's checksum, the log's salts
 * when the log restarts), and a writer updates its two copies one after the other: equal copies are a
 * committed state, and the same bytes later mean no commit since. With no log and no index on disk
 * (the last connection closed cleanly and folded the log into the file) the file's own identity,
 * size and change times stand for it: a commit from then on writes a log first, and folding it in
 * changes the file. A log without an index, a short or torn header: null.
 *
 * Only for a process that does not have the database open: closing a descriptor of a file drops
 * every POSIX lock the process holds on it, and SQLite's locks on the index are among them (another
 * process would then rebuild the index under this one's mapping of it). A process with the database
 * open reads the state through `storeStateReader`.
 */
export function storeState(dbPath: string): string | null {
  let fd: number;
  try {
    fd = openSync(`${dbPath}-shm`, 'r');
  } catch {
    return closedFileState(dbPath);
  }
  try {
    return walState(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * `storeState` for a process that has the database open (the worker): the index is opened once and
 * its descriptor kept until `close`, which the process calls only once its connections are closed
 * (closing it earlier would drop SQLite's locks on the index, see `storeState`).
 */
export function storeStateReader(dbPath: string): { read(): string | null; close(): void } {
  let fd: number | null = null;
  return {
    read() {
      if (fd === null) {
        try {
          fd = openSync(`${dbPath}-shm`, 'r');
        } catch {
          return null; // no index yet (this process's connection makes one)
        }
      }
      return walState(fd);
    },
    close() {
      if (fd !== null) closeSync(fd);
      fd = null;
    },
  };
}

/** The worker's note: at this store state, the context epoch was this. */
export interface StoreMark {
  state: string;
  epoch: string;
}

const MARK_FILE = 'store-mark.json';

/** Note the epoch at a store state (read in that order: the state, then the epoch); never throws. */
export function writeStoreMark(dir: string, mark: StoreMark): boolean {
  return writeJsonFile(dir, join(dir, MARK_FILE), mark);
}

/**
 * The store's context epoch now, told without opening the database: the worker's note of it, while
 * the store's state is still the one the note was taken at (no commit since). Null otherwise.
 */
export function markedEpoch(dir: string, dbPath: string): string | null {
  let mark: Partial<StoreMark>;
  try {
    mark = readJsonFile(join(dir, MARK_FILE)) as Partial<StoreMark>;
  } catch {
    return null;
  }
  if (typeof mark.state !== 'string' || typeof mark.epoch !== 'string') return null;
  return storeState(dbPath) === mark.state ? mark.epoch : null;
}

/**
 * Note the store's epoch at its current state: the state read first, then the epoch (a commit between
 * the two gives a note no later state matches). Skipped when the state is the one last noted.
 * Returns the state noted, or null.
 */
export function markStore(
  db: Db,
  dir: string,
  reader: { read(): string | null },
  last: string | null = null,
): string | null {
  const state = reader.read();
  if (state === null || state === last) return state;
  const epoch = readContextEpoch(db);
  if (epoch === null) return null;
  return writeStoreMark(dir, { state, epoch }) ? state : null;
}

/**
 * Close the store and note its epoch for the state it is left in, so a context hook that runs while
 * no connection is open reads it without SQLite: the epoch is read just before the close, with the
 * state unchanged on either side of that read; after the close (and only then is the reader's
 * descriptor closed), a store left without a log (this was the last connection) is noted by its file.
 * Left with a log, another connection has it open and the note taken before the close stands while
 * nothing commits.
 */
export function closeMarked(
  db: Db,
  dir: string | null,
  reader: { read(): string | null; close(): void },
  close: () => void,
): void {
  const path = db.name;
  let epoch: string | null = null;
  try {
    if (dir !== null && !db.memory) {
      const before = reader.read();
      epoch = before === null ? null : readContextEpoch(db);
      if (
        epoch !== null &&
        (reader.read() !== before || !writeStoreMark(dir, { state: before as string, epoch }))
      )
        epoch = null;
    }
  } finally {
    close();
    reader.close();
  }
  if (dir === null || epoch === null) return;
  const after = storeState(path);
  if (after?.startsWith('file:')) writeStoreMark(dir, { state: after, epoch });
}
