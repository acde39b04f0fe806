/**
 * A search hit as JSON for the outside (`engram search --json`): the memory's index fields, where it
 * stands and how it was found. Fields are only ever added.
 */
import type { SearchHit } from '../app/search.ts';

export function searchHitJson({ memory: o, parts, project }: SearchHit) {
  return {
    id: o.id,
    type: o.type,
    status: o.status,
    title: o.title,
    projectId: o.projectId,
    project,
    sessionId: o.sessionId,
    createdAt: o.createdAt,
    files: [...new Set([...o.filesModified, ...o.filesRead])],
    tokens: o.tokens,
    score: parts.score,
    via: parts.via,
    staleSince: parts.stale?.since ?? null,
  };
}
