/**
 * Claude Code's auto memory: the notes it keeps for a project in `MEMORY.md` of the project's memory
 * folder and loads (its first 200 lines) at the start of every session. The folder is
 * `<config dir>/projects/<the repository's root, every character but letters and digits made '-'>/memory/`
 * (the config dir is `$CLAUDE_CONFIG_DIR`, else `~/.claude`; every worktree of a repository shares the
 * main checkout's folder), unless the user's settings name another (`autoMemoryDirectory`, `~/` allowed).
 * `CLAUDE_CODE_DISABLE_AUTO_MEMORY=1` turns it off: Claude Code then loads none of it.
 */
import { readFileSync } from 'node:fs';
import type * as OsModule from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { findGit } from '../../project-identity.ts';

type Env = Readonly<Record<string, string | undefined>>;

/** `$HOME`, else the account's home (`node:os`, loaded only then: ~1 M instructions of a hook). */
const userHome = (env: Env) =>
  env['HOME'] || (process.getBuiltinModule('node:os') as typeof OsModule).homedir();

/** Claude Code's configuration folder. */
export const claudeConfigDir = (env: Env): string =>
  env['CLAUDE_CONFIG_DIR'] || join(userHome(env), '.claude');

/** The folder name Claude Code gives a project's path. */
export const projectFolderName = (path: string): string => path.replace(/[^a-zA-Z0-9]/g, '-');

/** The memory folder the user's settings name (`autoMemoryDirectory`), or null. */
function configuredDir(env: Env): string | null {
  try {
    const settings = JSON.parse(readFileSync(join(claudeConfigDir(env), 'settings.json'), 'utf8')) as unknown;
    const dir = (settings as { autoMemoryDirectory?: unknown } | null)?.autoMemoryDirectory;
    if (typeof dir !== 'string' || dir.trim() === '') return null;
    return dir.startsWith('~/') ? join(userHome(env), dir.slice(2)) : resolve(dir);
  } catch {
    // No settings file, or not JSON: the default folder.
    return null;
  }
}

/** The `MEMORY.md` Claude Code keeps for the project rooted at `root`. */
export function autoMemoryFile(root: string, env: Env): string {
  const configured = configuredDir(env);
  if (configured) return join(configured, 'MEMORY.md');
  const git = findGit(root);
  // A worktree shares its main checkout's memory: the folder of the common .git's parent.
  const main =
    git && basename(git.commonDir) === '.git' ? dirname(git.commonDir) : (git?.worktreeRoot ?? root);
  return join(claudeConfigDir(env), 'projects', projectFolderName(main), 'memory', 'MEMORY.md');
}

/** The auto memory Claude Code loads into a session of `root`'s project (none when turned off). */
export function loadedAutoMemory(root: string, env: Env): string[] {
  return env['CLAUDE_CODE_DISABLE_AUTO_MEMORY'] === '1' ? [] : [autoMemoryFile(root, env)];
}
