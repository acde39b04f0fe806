/**
 * Reading a vault: every note's text and content hash, and the `id` and `type` its frontmatter
 * declares (read cheaply; the full YAML parse waits for notes that changed). Identity is the `id`,
 * never the file name.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { splitNote } from './frontmatter.ts';
import { listNotes } from './vault-files.ts';

export interface VaultFile {
  /** Vault-relative, with `/`. */
  path: string;
  text: string;
  hash: string;
  /** The frontmatter's `id`, when it declares one. */
  id: string | null;
  type: string | null;
}

export function noteHash(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** A top-level `key: value` line of the frontmatter (quoted or plain, a trailing comment apart). */
const scalarLine = (key: string) =>
  new RegExp(`^${key}:[ \\t]*(?:"([^"\\n]*)"|'([^'\\n]*)'|([^\\s#'"][^#\\n]*?))[ \\t]*(?:#.*)?$`, 'm');
const ID_LINE = scalarLine('id');
const TYPE_LINE = scalarLine('type');

function scalar(yaml: string, line: RegExp): string | null {
  const m = line.exec(yaml);
  const value = m?.[1] ?? m?.[2] ?? m?.[3];
  return value === undefined || value.trim() === '' ? null : value.trim();
}

export function readVaultFile(dir: string, path: string): VaultFile | null {
  let text: string;
  try {
    text = readFileSync(join(dir, path), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null; // deleted while we looked
    throw error;
  }
  const yaml = splitNote(text).yaml;
  return {
    path,
    text,
    hash: noteHash(text),
    id: yaml === null ? null : scalar(yaml, ID_LINE),
    type: yaml === null ? null : scalar(yaml, TYPE_LINE),
  };
}

/** Every note of the vault (outside dot-folders). */
export function scanVault(dir: string): VaultFile[] {
  return listNotes(dir)
    .map((path) => readVaultFile(dir, path))
    .filter((f): f is VaultFile => f !== null);
}
