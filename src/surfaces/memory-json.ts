/**
 * A memory as JSON for the outside (`engram show --json`, the viewer's API): its text, where it came
 * from, its state and bookkeeping; not its internal content hash. Fields are only ever added.
 */
import type { Observation } from '../core/model.ts';

/** A memory's public JSON shape. */
export function memoryJson(o: Observation) {
  return {
    id: o.id,
    type: o.type,
    status: o.status,
    title: o.title,
    subtitle: o.subtitle,
    narrative: o.narrative,
    facts: o.facts,
    concepts: o.concepts,
    filesRead: o.filesRead,
    filesModified: o.filesModified,
    projectId: o.projectId,
    sessionId: o.sessionId,
    source: o.source,
    createdAt: o.createdAt,
    modifiedAt: o.modifiedAt,
    tokens: o.tokens,
    provenance: o.provenance,
    statusReason: o.statusReason,
    supersedes: o.supersedes,
    version: o.version,
    pinned: o.pinned,
    seenCount: o.seenCount,
    lastSeenAt: o.lastSeenAt,
    trust: o.trust,
    review: o.review,
    reviewReason: o.reviewReason,
  };
}
