/**
 * The team server's API for a login (or for --server/--token), with the configured timeout.
 */
import { createTeamApi, type TeamApi } from '../../../team/api-client.ts';

export function teamApiFor(c: { server: string; token: string }, timeoutMs: number): TeamApi {
  return createTeamApi({ server: c.server, token: c.token, timeoutMs });
}
