/**
 * Where engram keeps its files inside ENGRAM_HOME. Pure: the home directory is passed in.
 */
import { join } from 'node:path';

export interface EngramPaths {
  home: string;
  db: string;
  config: string;
  logDir: string;
  hookLog: string;
  workerLog: string;
  workerPid: string;
  inboxDir: string;
  projectLinks: string;
  /** The default Obsidian vault (`engram vault export` without --dir or vault.dir). */
  vaultDir: string;
  /** The team server and token of `engram team login` (mode 0600). */
  teamCredentials: string;
}

export function pathsFor(home: string): EngramPaths {
  const logDir = join(home, 'logs');
  return {
    home,
    db: join(home, 'engram.db'),
    config: join(home, 'config.json'),
    logDir,
    hookLog: join(logDir, 'hook.log'),
    workerLog: join(logDir, 'worker.log'),
    workerPid: join(home, 'worker.pid'),
    inboxDir: join(home, 'inbox'),
    projectLinks: join(home, 'project-links.json'),
    vaultDir: join(home, 'vault'),
    teamCredentials: join(home, 'team.json'),
  };
}
