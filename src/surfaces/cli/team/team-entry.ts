/**
 * dist/team.mjs: the team commands and the worker's team sync, loaded only when needed (an `engram team`
 * command, or a worker on a machine logged in to a team server).
 */
import { systemClock, type Logger } from '../../../core/ports.ts';
import type { Store } from '../../../store/store.ts';
import { readGitState } from '../../../worker/git-state.ts';
import { syncOnce, type SyncReport } from '../../../worker/team-sync.ts';
import { teamApiFor } from './team-api.ts';
import type { TeamCredentials } from './team-credentials.ts';

export { teamCommand } from './team-commands.ts';

/** One sync of the shared projects, for the worker's background scheduler. */
export function workerTeamSync(
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
