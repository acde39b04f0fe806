/**
 * One writer per vault: a lock file in the vault's hidden `.engram/` folder (Obsidian ignores
 * dot-folders), created exclusively and holding the writer's pid and start time. A lock whose process
 * is gone (or whose pid now names another process) is taken over.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EngramError } from '../core/errors.ts';
import { makeDirs } from '../store/make-dirs.ts';
import { isSameProcess, processStart } from '../store/process-identity.ts';

export interface VaultLock {
  release(): void;
}

export function lockVault(dir: string, pid: number = process.pid): VaultLock {
  const folder = join(dir, '.engram');
  makeDirs(folder, { what: 'the vault folder' });
  const path = join(folder, 'lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(path, `${pid} ${processStart(pid) ?? '-'}\n`, { flag: 'wx' });
      return { release: () => rmSync(path, { force: true }) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const [pidText, start] = readFileSync(path, 'utf8').trim().split(' ');
      const holder = Number.parseInt(pidText ?? '', 10);
      const stamp = { pid: holder, start: start === undefined || start === '-' ? null : start };
      if (Number.isInteger(holder) && holder !== pid && isSameProcess(stamp))
        throw new EngramError('CONFLICT', `another engram (pid ${holder}) is syncing the vault at ${dir}`, {
          hint: 'Wait for it to finish; the worker syncs the vault when vault.dir is set.',
        });
      rmSync(path, { force: true }); // its writer is gone (or is us): take it over
    }
  }
  throw new EngramError('CONFLICT', `could not lock the vault at ${dir}`, { hint: 'Try again.' });
}
