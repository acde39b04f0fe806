/**
 * For a login (or --server/--token): the team server's API with the configured timeout, and one sync
 * of the shared projects (the worker's background sync and `engram team sync` alike).
 */
import { systemClock, type Logger } from '../../../core/ports.ts';
import { ownStamp } from '../../../store/process-identity.ts';
import type { Store } from '../../../store/store.ts';
import { createTeamApi, type TeamApi } from '../../../team/api-client.ts';
import type { DeviceKey } from '../../../team/key-wrap.ts';
import { loadDeviceKey } from '../../../worker/device-key-file.ts';
import { readGitState } from '../../../worker/git-state.ts';
import { syncInBackground, syncOnce, type SyncReport } from '../../../worker/team-sync.ts';
import type { TeamCredentials } from './team-credentials.ts';

export function teamApiFor(c: { server: string; token: string }, timeoutMs: number): TeamApi {
  return createTeamApi({ server: c.server, token: c.token, timeoutMs });
}

/**
 * One sync of the shared projects as this login. `now` (engram team sync): everything due, the
 * project state included. `background` (the worker, the viewer): by whichever live process holds the
 * sync lease, the project state at most every five minutes.
 */
export function teamSyncFor(
  creds: TeamCredentials,
  store: Store,
  logger: Logger,
  timeoutMs: number,
  deviceKeyPath: string,
  mode: 'now' | 'background' = 'background',
): () => Promise<SyncReport> {
  const api = teamApiFor(creds, timeoutMs);
  let key: DeviceKey | null = null;
  const deps = {
    store,
    api,
    logger,
    clock: systemClock,
    me: creds.user,
    device: creds.device,
    readState: readGitState,
    // Made on first need: the first sync of an end-to-end encrypted project.
    deviceKey: () => (key ??= loadDeviceKey(deviceKeyPath)),
  };
  if (mode === 'now') return () => syncOnce({ ...deps, stateEveryMs: 0 });
  const holder = ownStamp();
  return () => syncInBackground(deps, holder);
}
