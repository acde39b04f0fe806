/**
 * Reading and writing Claude Code settings files safely: parse with clear errors, atomic writes that
 * keep the mode (and symlinks), backups, and the install sidecar.
 */
import {
  chmodSync,
  closeSync,
  constants,
  copyFileSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { EngramError } from '../../core/errors.ts';

/** What the first install into a settings file created; read and deleted by uninstall. */
export interface Sidecar {
  createdFile: boolean;
  createdHooksKey: boolean;
  /** Top-level keys the install added besides `hooks` (Cursor's `version`). */
  createdKeys?: string[];
  backupPath: string | null;
  installedAt: string;
}

export type JsonObject = Record<string, unknown>;

export interface LoadedSettings {
  json: JsonObject;
  /** The file's exact text. */
  text: string;
}

export const sidecarPath = (settingsPath: string): string => `${settingsPath}.engram-install.json`;
export const BACKUP_INFIX = '.engram-backup-';

export const isObject = (value: unknown): value is JsonObject =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

export const fsMessage = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** `… at position 19` → `… at position 19 (line 2, column 5)` (Node 20 gives only the offset). */
export function describeParseError(text: string, error: unknown): string {
  const message = fsMessage(error);
  const match = /position (\d+)/.exec(message);
  if (!match || /line \d+/.test(message)) return message;
  const before = text.slice(0, Number(match[1]));
  const line = before.split('\n').length;
  const column = before.length - before.lastIndexOf('\n');
  return `${message} (line ${line}, column ${column})`;
}

/** Reads and parses a settings file; null when it does not exist. Throws INSTALL_FAILED when it cannot be used. */
export function loadSettings(path: string): LoadedSettings | null {
  if (!existsSync(path)) return null;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new EngramError('INSTALL_FAILED', `cannot read ${path}: ${fsMessage(error)}`, { cause: error });
  }
  const body = text.replace(/^\uFEFF/, '');
  if (body.trim() === '') return { json: {}, text };
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (error) {
    throw new EngramError(
      'INSTALL_FAILED',
      `${path} is not valid JSON: ${describeParseError(body, error)}; nothing was changed`,
      { hint: 'Fix the file (or move it away) and run the command again.', cause: error },
    );
  }
  if (!isObject(value)) {
    throw new EngramError('INSTALL_FAILED', `${path} does not hold a JSON object; nothing was changed`, {
      hint: 'A Claude Code settings file is a JSON object ({ … }); fix the file (or move it away) and run the command again.',
    });
  }
  const hooks = value['hooks'];
  if (hooks !== undefined && !isObject(hooks)) {
    throw new EngramError(
      'INSTALL_FAILED',
      `${path}: "hooks" must be an object (it is ${describeType(hooks)}); nothing was changed`,
      { hint: 'Fix the "hooks" setting (or move the file away) and run the command again.' },
    );
  }
  return { json: value, text };
}

export function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

/** Writes `text` to `path` atomically (temp file in the same directory, fsync, rename) with `mode`. */
export function writeAtomic(path: string, text: string, mode: number): void {
  // Through a symlink (dotfile managers), write the file it points at rather than replacing the link.
  const target = existsSync(path) ? realpathSync(path) : path;
  const tmp = join(
    dirname(target),
    `.${basename(target)}.engram-${process.pid}-${Date.now().toString(36)}.tmp`,
  );
  try {
    mkdirSync(dirname(target), { recursive: true });
    const fd = openSync(tmp, 'wx', mode);
    try {
      writeSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    chmodSync(tmp, mode); // the umask may have narrowed it
    renameSync(tmp, target);
  } catch (error) {
    rmSync(tmp, { force: true });
    throw new EngramError('INSTALL_FAILED', `cannot write ${path}: ${fsMessage(error)}`, { cause: error });
  }
}

export const formatJson = (json: unknown): string => `${JSON.stringify(json, null, 2)}\n`;
export const fileMode = (path: string): number => statSync(path).mode & 0o777;

/** Copies the settings file to a new `<settings>.engram-backup-<timestamp>[-n]` with the same mode. */
export function writeBackup(settingsPath: string, mode: number, now: Date): string {
  const base = `${settingsPath}${BACKUP_INFIX}${now.toISOString().replace(/[:.]/g, '-')}`;
  for (let n = 0; n < 1000; n += 1) {
    const candidate = n === 0 ? base : `${base}-${n}`;
    if (existsSync(candidate)) continue;
    try {
      copyFileSync(settingsPath, candidate, constants.COPYFILE_EXCL);
      chmodSync(candidate, mode);
      return candidate;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue; // taken meanwhile: try the next name
      throw new EngramError('INSTALL_FAILED', `cannot back up ${settingsPath}: ${fsMessage(error)}`, {
        hint: 'Nothing was changed.',
        cause: error,
      });
    }
  }
  throw new EngramError('INSTALL_FAILED', `cannot find a free backup name for ${settingsPath}`, {
    hint: `Remove old ${basename(settingsPath)}${BACKUP_INFIX}* files.`,
  });
}

/** The sidecar, or null when missing or unreadable (uninstall then only removes engram's entries). */
export function readSidecar(settingsPath: string): Sidecar | null {
  const path = sidecarPath(settingsPath);
  if (!existsSync(path)) return null;
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return null; // a damaged record only costs the exact restore; entries are still found by their commands
  }
  if (
    !isObject(value) ||
    typeof value['createdFile'] !== 'boolean' ||
    typeof value['createdHooksKey'] !== 'boolean' ||
    !(value['backupPath'] === null || typeof value['backupPath'] === 'string')
  ) {
    return null;
  }
  return {
    createdFile: value['createdFile'],
    createdHooksKey: value['createdHooksKey'],
    ...(Array.isArray(value['createdKeys'])
      ? { createdKeys: value['createdKeys'].filter((k): k is string => typeof k === 'string') }
      : {}),
    backupPath: value['backupPath'],
    installedAt: typeof value['installedAt'] === 'string' ? value['installedAt'] : '',
  };
}

/** The newest `<settings>.engram-backup-*` next to the settings file, if any. */
export function newestBackup(settingsPath: string): string | null {
  const dir = dirname(settingsPath);
  const prefix = `${basename(settingsPath)}${BACKUP_INFIX}`;
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => name.startsWith(prefix));
  } catch {
    return null; // an unreadable directory just means no backup to compare with
  }
  let best: { path: string; mtime: number } | null = null;
  for (const name of names) {
    const path = join(dir, name);
    const mtime = statSync(path).mtimeMs;
    if (!best || mtime > best.mtime || (mtime === best.mtime && path > best.path)) best = { path, mtime };
  }
  return best?.path ?? null;
}

/** A backup's content, or null when it is gone or not a settings object. */
export function loadBackup(path: string): LoadedSettings | null {
  try {
    return loadSettings(path);
  } catch {
    return null; // an unusable backup cannot be restored; the merged result is written instead
  }
}
