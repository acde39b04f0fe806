/**
 * What the turn in progress has taken in, for a write that arrives outside the captured turn (the
 * agent calling MCP `remember`): the events the hooks have captured so far are imported from the
 * inbox, and the project's latest turn gives the floor of its evidence (distill/evidence-trust). The
 * agent saving something right after reading a web page is relaying that page.
 */
import type { ProjectId } from '../core/ids.ts';
import type { Logger } from '../core/ports.ts';
import type { TrustClass } from '../core/trust.ts';
import { floorOfEvents } from '../distill/evidence-trust.ts';
import type { Store } from '../store/store.ts';
import { importInboxInto } from './import-inbox.ts';

export function currentTurnFloor(
  store: Store,
  project: { id: ProjectId; root: string | null },
  inboxDir: string | undefined,
  logger?: Logger,
): TrustClass {
  try {
    if (inboxDir) importInboxInto(store, inboxDir, logger);
  } catch (error) {
    // A busy database: the events already imported still say what the turn took in.
    logger?.warn('could not import the inbox to read the turn in progress', { error: String(error) });
  }
  return floorOfEvents(store.events.latestTurnOf(project.id), project.root ?? undefined);
}
