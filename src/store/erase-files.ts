/**
 * Erasing a phrase from the files engram keeps beside its database under ENGRAM_HOME: captured
 * events still in the inbox (and set aside), logs, exported notes — every regular file but the
 * database itself (erased through SQL) and local models. Each file that held the phrase is rewritten
 * atomically with the same mode.
 */
import { readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync, type Stats } from 'node:fs';
import { join, relative } from 'node:path';
import { countPhrase, erasePhrase } from '../core/phrase.ts';

/** Files larger than this are not read (none of engram's own text files grows so large). */
const MAX_BYTES = 64 * 1024 * 1024;
const SKIPPED_DIRS = new Set(['models', 'cache']); // local models; V8 code caches (no user text)
const isDatabaseFile = (name: string) => /^engram\.db(-wal|-shm|-journal)?$/.test(name);

export interface FileTally {
  /** Path relative to ENGRAM_HOME. */
  file: string;
  occurrences: number;
}

function* textFiles(home: string, dir = home): Generator<{ path: string; stat: Stats }> {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return; // vanished or unreadable: nothing of ours to erase there
  }
  for (const name of names) {
    const path = join(dir, name);
    let stat: Stats;
    try {
      stat = statSync(path);
    } catch {
      continue;
    }
    if (stat.isDirectory()) {
      if (!(dir === home && SKIPPED_DIRS.has(name))) yield* textFiles(home, path);
    } else if (stat.isFile() && !(dir === home && isDatabaseFile(name)) && stat.size <= MAX_BYTES) {
      yield { path, stat };
    }
  }
}

/** Which files under `home` hold the phrase, and how often. With `erase`, rewrite them without it. */
export function phraseInFiles(home: string, pattern: RegExp, erase: boolean): FileTally[] {
  const out: FileTally[] = [];
  // SessionStart snapshots hold memory text as JSON (a phrase may be escaped there): removed whole;
  // the worker takes new ones.
  if (erase) rmSync(join(home, 'snapshots'), { recursive: true, force: true });
  for (const { path, stat } of textFiles(home)) {
    let text: string;
    try {
      text = readFileSync(path, 'latin1'); // byte-for-byte: a phrase is found whatever the encoding
    } catch {
      continue;
    }
    const occurrences = countPhrase(text, pattern);
    if (occurrences === 0) continue;
    out.push({ file: relative(home, path), occurrences });
    if (!erase) continue;
    const tmp = `${path}.erase-${process.pid}.tmp`;
    writeFileSync(tmp, erasePhrase(text, pattern), { encoding: 'latin1', mode: stat.mode & 0o777 });
    renameSync(tmp, path);
  }
  return out;
}
