/**
 * The vault on disk: listing its notes (Obsidian hides dot-folders, and so does engram), reading one,
 * and writing one atomically (a temporary file in the same folder, then a rename), so Obsidian and a
 * crash only ever see the old note or the new one.
 */
import { mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';

/** Vault-relative paths (with `/`) of every `.md` note under `dir`, outside dot-folders. */
export function listNotes(dir: string): string[] {
  const out: string[] = [];
  const walk = (folder: string): void => {
    let entries;
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return; // no vault yet: no notes
      throw error;
    }
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const full = join(folder, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile() && entry.name.toLowerCase().endsWith('.md'))
        out.push(relative(dir, full).split(sep).join('/'));
    }
  };
  walk(dir);
  return out.sort();
}

let counter = 0;

/**
 * Write `text` to `path` atomically, creating its folder. `folders` (folders known to exist, shared by
 * the writes of one sync) spares a mkdir per note; a folder removed meanwhile is made again.
 */
export function writeAtomically(path: string, text: string | Buffer, folders?: Set<string>): void {
  const folder = dirname(path);
  if (!folders?.has(folder)) {
    mkdirSync(folder, { recursive: true });
    folders?.add(folder);
  }
  const temp = join(folder, `.engram-${process.pid}-${++counter}.tmp`);
  try {
    writeFileSync(temp, text);
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    // The folder was taken away since this sync made it: make it again, once.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' && folders?.delete(folder)) {
      writeAtomically(path, text, folders);
      return;
    }
    throw error;
  }
}
