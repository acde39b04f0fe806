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
  viewerLog: string;
  workerPid: string;
  /** The running worker's recall folder: prompt-time recall asked of the worker with files (0700). */
  recallDir: string;
  inboxDir: string;
  /** Per session, the memory ids its context hooks injected that the worker has not recorded yet. */
  toldDir: string;
  /** V8 code caches of the hook's bundles (speed only; safe to delete). */
  cacheDir: string;
  /** Per project, the worker's SessionStart snapshot (store/context-snapshot.ts; speed only). */
  snapshotDir: string;
  projectLinks: string;
  /** The default Obsidian vault (`engram vault export` without --dir or vault.dir). */
  vaultDir: string;
  /** The team server and token of `engram team login` (mode 0600). */
  teamCredentials: string;
  /** This machine's device key for end-to-end encrypted team projects (X25519, PKCS#8 PEM, 0600; never leaves it). */
  deviceKey: string;
  /** The viewer's per-install secret (0600). */
  viewerSecret: string;
  /** The running viewer's pid and port, so a second `engram ui` reuses it. */
  viewerState: string;
  /** Online copies of the database (`engram-<time>-<seq>.db`, 0600), the newest few kept. */
  backupDir: string;
  /** Sessions of hosts that keep them in a store, not files (opencode), written out as logs to read. */
  hostSessionsDir: string;
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
    viewerLog: join(logDir, 'viewer.log'),
    workerPid: join(home, 'worker.pid'),
    recallDir: join(home, 'recall'),
    inboxDir: join(home, 'inbox'),
    toldDir: join(home, 'told'),
    cacheDir: join(home, 'cache'),
    snapshotDir: join(home, 'snapshots'),
    projectLinks: join(home, 'project-links.json'),
    vaultDir: join(home, 'vault'),
    teamCredentials: join(home, 'team.json'),
    deviceKey: join(home, 'device-key.pem'),
    viewerSecret: join(home, 'viewer.secret'),
    viewerState: join(home, 'viewer.json'),
    backupDir: join(home, 'backups'),
    hostSessionsDir: join(home, 'host-sessions'),
  };
}
