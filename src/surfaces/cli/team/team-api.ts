/**
 * For a login (or --server/--token): the team server's API with the configured timeout, and one sync
 * of the shared projects (the worker's background sync and `engram team sync` alike).
 */
import { systemClock, type Logger } from '../../../core/ports.ts';
import type { Store } from '../../../store/store.ts';
import { createTeamApi, type TeamApi } from '../../../team/api-client.ts';
import { readGitState } from '../../../worker/git-state.ts';
import { syncOnce, type SyncReport } from '../../../worker/team-sync.ts';
import type { TeamCredentials } from './team-credentials.ts';

export function teamApiFor(c: { server: string; token: string }, timeoutMs: number): TeamApi {
  return createTeamApi({ server: c.server, token: c.token, timeoutMs });
}

/** One sync of the shared projects as this login. */
export function teamSyncFor(
  creds: TeamCredentials,
  store: Store,
  logger: Logger,
  timeoutMs: number,
): () => Promise<SyncReport> {
  const api = teamApiFor(creds, timeoutMs);
  return () =>
    syncOnce({
      store,
      api,
      logger,
      clock: systemClock,
      me: creds.user,
      device: creds.device,
      readState: readGitState,
    });
}
