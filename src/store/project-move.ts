/**
 * Moving one project's memory into another (`engram project move|merge`), through the mutation path:
 * after a rename (`git config engram.project`), a changed remote or a merge of two projects, every row
 * the old project owns — memories (with their versions and hashes), summaries, links, sessions, events,
 * prompts, anchors, file nodes, vault notes, team bookkeeping — is re-homed in ONE transaction, and each
 * memory, summary and link moved is one `move` row in the change log (so the vault, the viewer's stream
 * and team sync see it). A memory the target already holds (the same content) is merged into the
 * target's and the moved copy superseded by it; one the target forgot is forgotten here too.
 */
import { EngramError } from '../core/errors.ts';
import type { ProjectId } from '../core/ids.ts';
import type { Observation } from '../core/model.ts';
import type { Db } from './database.ts';
import type { MutationContext, MutationKit } from './mutation-kit.ts';
import { OBSERVATION_COLUMNS, toObservation, type ObservationRow } from './observations-repo.ts';

export interface MoveTarget {
  id: ProjectId;
  name: string;
  key: string;
  root: string;
}

/** What a move would do (the dry run) or did. */
export interface ProjectMoveReport {
  from: { id: ProjectId; name: string; root: string };
  to: MoveTarget;
  /** The target had a row in the store already (and how many memories it holds, forgotten ones apart). */
  targetKnown: boolean;
  targetMemories: number;
  memories: number;
  /** Of `memories`: the same content the target already holds (merged into the target's). */
  duplicates: number;
  summaries: number;
  sessions: number;
  links: number;
  anchors: number;
  files: number;
  vaultNotes: number;
  /** The old project was shared with a team (its sharing follows the move). */
  shared: boolean;
  targetShared: boolean;
}

/** The memory operations a move uses (from the writer, inside the same transaction). */
export interface MoveMemoryOps {
  merge(
    id: string,
    add: Pick<Observation, 'facts' | 'concepts' | 'filesRead' | 'filesModified' | 'provenance' | 'trust'> & {
      seenAt: number;
    },
    ctx: MutationContext,
  ): Observation;
  supersede(oldId: string, newId: string, ctx: MutationContext): boolean;
  forget(id: string, ctx: MutationContext): boolean;
}

/** Tables whose rows simply change project (no id depends on it, nothing to merge). */
const PLAIN_TABLES = [
  'sessions',
  'events',
  'prompts',
  'context_log',
  'transcript_files',
  'usage_messages',
  'llm_ledger',
  'embeddings',
  'anchors',
  'team_outbox',
  'team_entities',
  'team_blocked',
  'vault_revisions',
] as const;

const count = (db: Db, sql: string, ...args: unknown[]): number =>
  (db.prepare(sql).get(...args) as { n: number }).n;

export function createProjectMove(db: Db, { tx, log }: MutationKit, ops: MoveMemoryOps) {
  const load = (id: string): Observation | null => {
    const row = db.prepare(`SELECT ${OBSERVATION_COLUMNS} FROM observations WHERE id = ?`).get(id);
    return row ? toObservation(row as ObservationRow) : null;
  };
  // A project shared here but never captured (only pulled) has no projects row: its sharing stands in.
  const projectRow = (id: string) =>
    db
      .prepare(
        `SELECT id, name, key, root, created_at, last_capture_at FROM projects WHERE id = ?
         UNION ALL SELECT project_id, name, '', root, shared_at, NULL FROM team_projects
          WHERE project_id = ? AND NOT EXISTS (SELECT 1 FROM projects WHERE id = ?)`,
      )
      .get(id, id, id) as
      | {
          id: ProjectId;
          name: string;
          key: string;
          root: string;
          created_at: number;
          last_capture_at: number | null;
        }
      | undefined;

  const plan = (fromId: ProjectId, to: MoveTarget): ProjectMoveReport => {
    const from = projectRow(fromId);
    if (!from)
      throw new EngramError('NOT_FOUND', `no project with id ${fromId}`, {
        hint: '"engram status" lists the projects engram knows.',
      });
    if (fromId === to.id)
      throw new EngramError('INPUT_INVALID', `${from.name} (${fromId}) is already the target`, {
        hint: 'Name the old project with --from (an id or a name from "engram status").',
      });
    const shared = (id: string) =>
      count(db, `SELECT COUNT(*) AS n FROM team_projects WHERE project_id = ?`, id) > 0;
    return {
      from: { id: from.id, name: from.name, root: from.root },
      to,
      targetKnown: projectRow(to.id) !== undefined,
      targetMemories: count(
        db,
        `SELECT COUNT(*) AS n FROM observations WHERE project_id = ? AND status <> 'forgotten'`,
        to.id,
      ),
      memories: count(db, `SELECT COUNT(*) AS n FROM observations WHERE project_id = ?`, fromId),
      duplicates: count(
        db,
        `SELECT COUNT(*) AS n FROM observations o
         WHERE o.project_id = ? AND o.status <> 'forgotten'
           AND EXISTS (SELECT 1 FROM memory_hashes h WHERE h.project_id = ? AND h.content_hash = o.content_hash)`,
        fromId,
        to.id,
      ),
      summaries: count(db, `SELECT COUNT(*) AS n FROM summaries WHERE project_id = ?`, fromId),
      sessions: count(db, `SELECT COUNT(*) AS n FROM sessions WHERE project_id = ?`, fromId),
      links: count(db, `SELECT COUNT(*) AS n FROM links WHERE project_id = ?`, fromId),
      anchors: count(db, `SELECT COUNT(*) AS n FROM anchors WHERE project_id = ?`, fromId),
      files: count(db, `SELECT COUNT(*) AS n FROM graph_files WHERE project_id = ?`, fromId),
      vaultNotes: count(db, `SELECT COUNT(*) AS n FROM vault_notes WHERE project_id = ?`, fromId),
      shared: shared(fromId),
      targetShared: shared(to.id),
    };
  };

  /** Each memory of the old project, re-homed (or merged into the target's copy of the same content). */
  const moveMemories = (fromId: ProjectId, to: MoveTarget, ctx: MutationContext): void => {
    const rows = db
      .prepare(`SELECT id, content_hash FROM observations WHERE project_id = ? ORDER BY rowid`)
      .all(fromId) as { id: string; content_hash: string }[];
    const twin = db.prepare(
      `SELECT observation_id FROM memory_hashes WHERE project_id = ? AND content_hash = ?`,
    );
    const setProject = db.prepare(`UPDATE observations SET project_id = ? WHERE id = ?`);
    for (const row of rows) {
      const m = load(row.id) as Observation;
      const twinId = (twin.get(to.id, row.content_hash) as { observation_id: string } | undefined)
        ?.observation_id;
      setProject.run(to.id, m.id);
      log('memory', m.id, to.id, 'move', ctx, m.version);
      if (twinId === undefined || twinId === m.id || m.status === 'forgotten') continue;
      const kept = load(twinId);
      if (!kept) continue;
      if (kept.status === 'forgotten') {
        ops.forget(m.id, ctx); // the target forgot this content: it does not come back through a move
        continue;
      }
      ops.merge(
        kept.id,
        {
          facts: m.facts,
          concepts: m.concepts,
          filesRead: m.filesRead,
          filesModified: m.filesModified,
          provenance: m.provenance,
          seenAt: m.createdAt,
          trust: m.trust,
        },
        ctx,
      );
      ops.supersede(m.id, kept.id, ctx);
    }
    db.prepare(
      `INSERT INTO memory_hashes (project_id, content_hash, observation_id)
       SELECT ?, content_hash, observation_id FROM memory_hashes WHERE project_id = ?
       ON CONFLICT (project_id, content_hash) DO NOTHING`,
    ).run(to.id, fromId);
    db.prepare(`DELETE FROM memory_hashes WHERE project_id = ?`).run(fromId);
  };

  /** File nodes get the target's ids (derived from project and path); edges and notes follow. */
  const moveFiles = (fromId: ProjectId, to: MoveTarget, fileId: FileIdOf): Map<string, string> => {
    const renamed = new Map<string, string>();
    const files = db.prepare(`SELECT id, path FROM graph_files WHERE project_id = ?`).all(fromId) as {
      id: string;
      path: string;
    }[];
    const taken = db.prepare(`SELECT 1 FROM graph_files WHERE project_id = ? AND path = ?`);
    for (const f of files) {
      const next = fileId(to.id, f.path);
      renamed.set(f.id, next);
      if (taken.get(to.id, f.path)) db.prepare(`DELETE FROM graph_files WHERE id = ?`).run(f.id);
      else db.prepare(`UPDATE graph_files SET id = ?, project_id = ? WHERE id = ?`).run(next, to.id, f.id);
    }
    const noteIds = db.prepare(
      `UPDATE OR IGNORE vault_notes SET node_id = ?, project_id = ? WHERE node_id = ? AND project_id = ?`,
    );
    for (const [old, next] of renamed) noteIds.run(next, to.id, old, fromId);
    return renamed;
  };

  const moveLinks = (
    fromId: ProjectId,
    to: MoveTarget,
    renamed: Map<string, string>,
    ctx: MutationContext,
  ) => {
    const links = db.prepare(`SELECT from_id, kind, to_id FROM links WHERE project_id = ?`).all(fromId) as {
      from_id: string;
      kind: string;
      to_id: string;
    }[];
    const update = db.prepare(
      `UPDATE OR IGNORE links SET from_id = ?, to_id = ?, project_id = ? WHERE from_id = ? AND kind = ? AND to_id = ?`,
    );
    const drop = db.prepare(`DELETE FROM links WHERE from_id = ? AND kind = ? AND to_id = ?`);
    for (const l of links) {
      const a = renamed.get(l.from_id) ?? l.from_id;
      const b = renamed.get(l.to_id) ?? l.to_id;
      const oldKey = `${l.from_id} ${l.kind} ${l.to_id}`;
      const moved = update.run(a, b, to.id, l.from_id, l.kind, l.to_id).changes === 1;
      if (a === l.from_id && b === l.to_id) {
        if (moved) log('link', oldKey, to.id, 'move', ctx, null);
        continue;
      }
      // An edge to a file node has a new id: the old edge goes, the new one comes (unless it existed).
      if (!moved) drop.run(l.from_id, l.kind, l.to_id);
      log('link', oldKey, fromId, 'remove', ctx, null);
      if (moved) log('link', `${a} ${l.kind} ${b}`, to.id, 'add', ctx, null);
    }
  };

  const moveRest = (fromId: ProjectId, to: MoveTarget, ctx: MutationContext): void => {
    const summaries = db.prepare(`SELECT session_id FROM summaries WHERE project_id = ?`).all(fromId) as {
      session_id: string;
    }[];
    db.prepare(`UPDATE summaries SET project_id = ? WHERE project_id = ?`).run(to.id, fromId);
    for (const s of summaries) log('summary', s.session_id, to.id, 'move', ctx, null);
    for (const table of PLAIN_TABLES)
      db.prepare(`UPDATE ${table} SET project_id = ? WHERE project_id = ?`).run(to.id, fromId);
    db.prepare(
      `INSERT INTO capture_stats (project_id, hook, count, last_at)
       SELECT ?, hook, count, last_at FROM capture_stats WHERE project_id = ?
       ON CONFLICT (project_id, hook) DO UPDATE SET count = count + excluded.count,
         last_at = MAX(last_at, excluded.last_at)`,
    ).run(to.id, fromId);
    db.prepare(`DELETE FROM capture_stats WHERE project_id = ?`).run(fromId);
    db.prepare(`UPDATE OR IGNORE vault_notes SET project_id = ? WHERE project_id = ?`).run(to.id, fromId);
    db.prepare(`DELETE FROM vault_notes WHERE project_id = ?`).run(fromId);
    db.prepare(`UPDATE OR IGNORE vault_folders SET project_id = ? WHERE project_id = ?`).run(to.id, fromId);
    db.prepare(`DELETE FROM vault_folders WHERE project_id = ?`).run(fromId);
    const vaults = db.prepare(`SELECT dir, scope FROM vaults`).all() as { dir: string; scope: string }[];
    for (const v of vaults) {
      const scope: unknown = JSON.parse(v.scope);
      if (!Array.isArray(scope) || !scope.includes(fromId)) continue;
      const next = [...new Set(scope.map((p) => (p === fromId ? to.id : p)))];
      db.prepare(`UPDATE vaults SET scope = ? WHERE dir = ?`).run(JSON.stringify(next), v.dir);
    }
    // Teammates' branch and files were told for the old project; the next sync tells them again.
    db.prepare(`DELETE FROM team_member_states WHERE project_id = ?`).run(fromId);
    // Sharing follows: the new project is pulled from its start (what is known here is recognised),
    // and a move made here is made on the server at the next sync (a move pulled from it is not).
    const shared = db.prepare(`SELECT 1 FROM team_projects WHERE project_id = ?`).get(fromId) !== undefined;
    db.prepare(
      `UPDATE OR IGNORE team_projects SET project_id = ?, name = ?, root = ?, cursor = 0, last_error = NULL,
         last_error_at = NULL WHERE project_id = ?`,
    ).run(to.id, to.name, to.root, fromId);
    db.prepare(`DELETE FROM team_projects WHERE project_id = ?`).run(fromId);
    if (shared && ctx.origin !== 'team') {
      const raw = db.prepare(`SELECT value FROM team_meta WHERE key = ?`).get(PENDING_MOVES) as
        { value: string } | undefined;
      const pending = raw ? (JSON.parse(raw.value) as PendingMove[]) : [];
      pending.push({ from: fromId, to: to.id });
      db.prepare(
        `INSERT INTO team_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
      ).run(PENDING_MOVES, JSON.stringify(pending));
    }
    db.prepare(`DELETE FROM graph_state WHERE key IN (?, ?)`).run(`rank_due:${fromId}`, `rank_at:${fromId}`);
    db.prepare(
      `INSERT INTO graph_state (key, value) VALUES (?, 1) ON CONFLICT (key) DO UPDATE SET value = 1`,
    ).run(`rank_due:${to.id}`);
  };

  return {
    /** What moving `fromId` into `to` would do. Reads only. */
    planProjectMove: plan,
    /**
     * Move everything of project `fromId` into `to` (made when the store does not know it yet), then
     * drop the old project. `fileId` gives a file node's id in a project (graph/node-ids).
     */
    moveProject(
      fromId: ProjectId,
      to: MoveTarget,
      fileId: FileIdOf,
      ctx: MutationContext,
    ): ProjectMoveReport {
      return tx(() => {
        const report = plan(fromId, to);
        const from = projectRow(fromId) as NonNullable<ReturnType<typeof projectRow>>;
        db.prepare(
          `INSERT INTO projects (id, name, key, root, created_at, last_capture_at) VALUES (?, ?, ?, ?, ?, ?)
           ON CONFLICT (id) DO UPDATE SET created_at = MIN(created_at, excluded.created_at),
             last_capture_at = MAX(COALESCE(last_capture_at, 0), COALESCE(excluded.last_capture_at, 0))`,
        ).run(to.id, to.name, to.key, to.root, from.created_at, from.last_capture_at);
        moveMemories(fromId, to, ctx);
        const renamed = moveFiles(fromId, to, fileId);
        moveLinks(fromId, to, renamed, ctx);
        moveRest(fromId, to, ctx);
        db.prepare(`DELETE FROM projects WHERE id = ?`).run(fromId);
        return report;
      });
    },
  };
}

/** Moves of shared projects made here, for the next sync to make on the team server (team_meta). */
export const PENDING_MOVES = 'moves_pending';
export interface PendingMove {
  from: string;
  to: string;
}

export type FileIdOf = (projectId: ProjectId, path: string) => string;
