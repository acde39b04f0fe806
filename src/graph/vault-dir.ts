/**
 * Where a vault may be: checked before any work. Exporting (or `sync --init`) makes the folder, or
 * says at once why it cannot (a file in the way, a place nothing can be created in); a plain sync
 * needs a folder that already is a vault, so a mistyped `--dir` never silently starts a new one.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { EngramError } from '../core/errors.ts';
import { fileInTheWay, makeDirs } from '../store/make-dirs.ts';
import type { Store } from '../store/store.ts';

/** A vault: a folder engram exported to (the store records it) or that holds engram's `.engram/`. */
export function isVault(store: Store, dir: string): boolean {
  return store.vaults.get(dir) !== null || existsSync(join(dir, '.engram'));
}

/** Make (or check) the folder an export writes to; throws INPUT_INVALID (exit 2) saying why it cannot be. */
export function prepareVaultDir(dir: string): void {
  makeDirs(dir, {
    what: 'the vault folder',
    hint: 'Choose a folder you can write to (--dir, or the vault.dir setting).',
  });
}

/** Check that a sync has a vault to sync; throws INPUT_INVALID (exit 2) asking for --init when not. */
export function requireVault(store: Store, dir: string): void {
  const file = fileInTheWay(dir);
  if (file !== null)
    throw new EngramError('INPUT_INVALID', `the vault folder ${dir}: ${file} is a file, not a folder`, {
      hint: 'Check the --dir path.',
    });
  if (isVault(store, dir)) return;
  throw new EngramError(
    'INPUT_INVALID',
    `${dir} is not a vault (${existsSync(dir) ? 'engram never exported to it' : 'it does not exist'})`,
    {
      hint: `Check the path; to start a new vault there, run "engram vault sync --dir ${dir} --init" (or "engram vault export --dir ${dir}").`,
    },
  );
}
