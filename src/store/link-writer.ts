/**
 * Typed edges between memories (and from memories to files and sessions) through the mutation path:
 * each edge added or removed is one row in the change log, or, for edges added from one node at once
 * (`linkAll`, the graph step's), one row for all of them. Ends and kind are stored without control
 * characters (a file path from tool output may carry one).
 */
import { cleanText } from '../core/clean-text.ts';
import type { EdgeSet } from './changes-repo.ts';
import type { Db } from './database.ts';
import type { MutationContext, MutationKit } from './mutation-kit.ts';
import { lazyStatement } from './statements.ts';

export function createLinkWriter(db: Db, { tx, log, logEdges }: MutationKit) {
  const add = lazyStatement(
    db,
    `INSERT INTO links (from_id, kind, to_id, project_id, created_at, origin) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT DO NOTHING`,
  );
  const remove = lazyStatement(db, `DELETE FROM links WHERE from_id = ? AND kind = ? AND to_id = ?`);
  return {
    /** Add a typed edge; false when it existed. */
    link(fromId: string, kind: string, toId: string, projectId: string, ctx: MutationContext): boolean {
      [fromId, kind, toId] = [cleanText(fromId), cleanText(kind), cleanText(toId)];
      return tx(() => {
        if (add().run(fromId, kind, toId, projectId, ctx.at, ctx.origin).changes !== 1) return false;
        log('link', `${fromId} ${kind} ${toId}`, projectId, 'add', ctx, null);
        return true;
      });
    },

    /**
     * Add typed edges from one node, in one mutation: one change-log row for the edges that were not
     * there yet (none when all were). Returns how many were added.
     */
    linkAll(fromId: string, edges: EdgeSet, projectId: string, ctx: MutationContext): number {
      fromId = cleanText(fromId);
      return tx(() => {
        const added: [string, string][] = [];
        for (const [k, t] of edges) {
          const [kind, toId] = [cleanText(k), cleanText(t)];
          if (add().run(fromId, kind, toId, projectId, ctx.at, ctx.origin).changes === 1)
            added.push([kind, toId]);
        }
        if (added.length > 0) logEdges(fromId, added, projectId, ctx);
        return added.length;
      });
    },

    /** Remove a typed edge; false when there was none. */
    unlink(fromId: string, kind: string, toId: string, projectId: string, ctx: MutationContext): boolean {
      [fromId, kind, toId] = [cleanText(fromId), cleanText(kind), cleanText(toId)];
      return tx(() => {
        if (remove().run(fromId, kind, toId).changes !== 1) return false;
        log('link', `${fromId} ${kind} ${toId}`, projectId, 'remove', ctx, null);
        return true;
      });
    },
  };
}
