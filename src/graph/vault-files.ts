/**
 * The vault on disk: listing its notes (Obsidian hides dot-folders, and so does engram), reading one,
 * and writing one atomically (a temporary file in the same folder, then a rename), so Obsidian and a
 * crash only ever see the old note or the new one — or, for a first export's new notes, creating it
 * where no file is (`writeNew`).
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

/** Make `path`'s folder unless `folders` (folders known to exist, shared by one sync's writes) has it. */
function ensureFolder(folder: string, folders?: Set<string>): void {
  if (folders?.has(folder)) return;
  mkdirSync(folder, { recursive: true });
  folders?.add(folder);
}

/**
 * Create `path` with `text`, only where no file is (O_EXCL: the check and the creation are one call, no
 * stat, no temporary file, no rename); false when a file is there. For a first export's new notes: no one
 * has the note open yet, and a crash leaves the note absent, empty or whole — never claimed in the sync
 * state, which records a base only after its write.
 */
export function writeNew(path: string, text: string, folders?: Set<string>): boolean {
  const folder = dirname(path);
  ensureFolder(folder, folders);
  try {
    // The encoding named: with options but none, Node turns the text into a Buffer and writes it from
    // JavaScript (open, write, close); with it, one native call writes the string.
    writeFileSync(path, text, { flag: 'wx', encoding: 'utf8' });
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    // The folder was taken away since this sync made it: make it again, once.
    if (code === 'ENOENT' && folders?.delete(folder)) return writeNew(path, text, folders);
    throw error;
  }
}

/**
 * Write `text` to `path` atomically, creating its folder. `folders` (folders known to exist, shared by
 * the writes of one sync) spares a mkdir per note; a folder removed meanwhile is made again.
 */
export function writeAtomically(path: string, text: string | Buffer, folders?: Set<string>): void {
  const folder = dirname(path);
  ensureFolder(folder, folders);
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
