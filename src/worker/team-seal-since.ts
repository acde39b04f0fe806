/**
 * Where an encrypted project's sealed records begin (the lowest sequence number read from it), kept in
 * the team meta. Apart from team-seal.ts so the team round can reset it without loading the protocol's
 * schemas (zod), which every command that reaches the round would otherwise load at start.
 */
import type { Store } from '../store/store.ts';

/** The lowest sequence number of a sealed record read from a project (a team-meta key). */
export const SINCE_KEY = (projectId: string) => `e2ee_sealed_since:${projectId}`;

/** A project started over against a server (a new epoch numbers its rows anew). */
export function forgetSealedSince(store: Store, projectId: string): void {
  store.team.dropMeta(SINCE_KEY(projectId));
}
