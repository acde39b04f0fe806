/**
 * Team sync bookkeeping on this machine (migration 0010): shared projects and their pull cursors,
 * the outbox, the server's version and author of each synced entity, blocked records and marks; with
 * what the team says about the memories here — conflicts, authors, teammates' project state — from
 * `team-notes-repo.ts`, one repository (`store.team`). Memories themselves are never written here:
 * pulled ones go through the mutation path (store.memory) like any other change.
 */
import type { Db } from './database.ts';
import { lazyStatement } from './statements.ts';
import { createTeamNotesRepo } from './team-notes-repo.ts';

export type SyncEntity = 'memory' | 'summary' | 'link';

export interface SharedProject {
  projectId: string;
  name: string;
  root: string;
  sharedAt: number;
  cursor: number;
  lastPushAt: number | null;
  lastPullAt: number | null;
  lastError: string | null;
  lastErrorAt: number | null;
}

export interface OutboxEntry {
  entity: SyncEntity;
  entityId: string;
  projectId: string;
  queuedAt: number;
}

export interface SyncedEntity {
  entity: SyncEntity;
  entityId: string;
  projectId: string;
  version: number;
  hash: string;
  /** Hash of a memory's content without its status (null for summaries and links). */
  contentHash: string | null;
  author: string;
  device: string;
  at: number;
  localId: string | null;
}

export interface BlockedRecord {
  entity: SyncEntity;
  entityId: string;
  projectId: string;
  reason: string;
  at: number;
}

interface ProjectRow {
  project_id: string;
  name: string;
  root: string;
  shared_at: number;
  cursor: number;
  last_push_at: number | null;
  last_pull_at: number | null;
  last_error: string | null;
  last_error_at: number | null;
}

const toProject = (r: ProjectRow): SharedProject => ({
  projectId: r.project_id,
  name: r.name,
  root: r.root,
  sharedAt: r.shared_at,
  cursor: r.cursor,
  lastPushAt: r.last_push_at,
  lastPullAt: r.last_pull_at,
  lastError: r.last_error,
  lastErrorAt: r.last_error_at,
});

export function createTeamRepo(db: Db) {
  const getMeta = lazyStatement(db, 'SELECT value FROM team_meta WHERE key = ?');
  const setMeta = lazyStatement(
    db,
    'INSERT INTO team_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
  );
  const dropMeta = lazyStatement(db, 'DELETE FROM team_meta WHERE key = ?');
  const metaByPrefix = lazyStatement(
    db,
    'SELECT key, value FROM team_meta WHERE key >= ? AND key < ? ORDER BY key',
  );
  const share = lazyStatement(
    db,
    `INSERT INTO team_projects (project_id, name, root, shared_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (project_id) DO UPDATE SET root = excluded.root`,
  );
  const unshare = lazyStatement(db, 'DELETE FROM team_projects WHERE project_id = ?');
  const projects = lazyStatement(db, 'SELECT * FROM team_projects ORDER BY shared_at');
  const project = lazyStatement(db, 'SELECT * FROM team_projects WHERE project_id = ?');
  const setCursor = lazyStatement(
    db,
    'UPDATE team_projects SET cursor = ?, last_pull_at = ? WHERE project_id = ?',
  );
  const resetCursors = lazyStatement(db, 'UPDATE team_projects SET cursor = 0');
  const pushed = lazyStatement(db, 'UPDATE team_projects SET last_push_at = ? WHERE project_id = ?');
  const setError = lazyStatement(
    db,
    'UPDATE team_projects SET last_error = ?, last_error_at = ? WHERE project_id = ?',
  );
  const enqueue = lazyStatement(
    db,
    `INSERT INTO team_outbox (entity, entity_id, project_id, queued_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (entity, entity_id) DO UPDATE SET queued_at = MAX(excluded.queued_at, team_outbox.queued_at + 1)`,
  );
  const outbox = lazyStatement(
    db,
    `SELECT entity, entity_id, project_id, queued_at FROM team_outbox WHERE project_id = ?
     ORDER BY queued_at, entity_id LIMIT ?`,
  );
  const dequeue = lazyStatement(
    db,
    'DELETE FROM team_outbox WHERE entity = ? AND entity_id = ? AND queued_at = ?',
  );
  const dropOutbox = lazyStatement(db, 'DELETE FROM team_outbox WHERE entity = ? AND entity_id = ?');
  const inOutbox = lazyStatement(db, 'SELECT 1 FROM team_outbox WHERE entity = ? AND entity_id = ?');
  const outboxCount = lazyStatement(
    db,
    'SELECT project_id, COUNT(*) AS n FROM team_outbox GROUP BY project_id',
  );
  const entity = lazyStatement(db, 'SELECT * FROM team_entities WHERE entity = ? AND entity_id = ?');
  const putEntity = lazyStatement(
    db,
    `INSERT INTO team_entities (entity, entity_id, project_id, version, hash, content_hash, author, device, at, local_id)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (entity, entity_id) DO UPDATE SET version = excluded.version, hash = excluded.hash,
       content_hash = excluded.content_hash,
       author = excluded.author, device = excluded.device, at = excluded.at,
       local_id = COALESCE(excluded.local_id, team_entities.local_id)`,
  );
  const forgetVersions = lazyStatement(db, 'UPDATE team_entities SET version = 0 WHERE project_id = ?');
  const block = lazyStatement(
    db,
    `INSERT INTO team_blocked (entity, entity_id, project_id, reason, at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (entity, entity_id) DO UPDATE SET reason = excluded.reason, at = excluded.at`,
  );
  const unblock = lazyStatement(db, 'DELETE FROM team_blocked WHERE entity = ? AND entity_id = ?');
  const blocked = lazyStatement(db, 'SELECT * FROM team_blocked ORDER BY at DESC LIMIT ?');
  const mark = lazyStatement(
    db,
    'INSERT INTO team_marks (observation_id, at) VALUES (?, ?) ON CONFLICT (observation_id) DO NOTHING',
  );
  const unmark = lazyStatement(db, 'DELETE FROM team_marks WHERE observation_id = ?');
  const isMarked = lazyStatement(db, 'SELECT 1 FROM team_marks WHERE observation_id = ?');
  const memoriesOf = lazyStatement(
    db,
    `SELECT id FROM observations WHERE project_id = ? AND status <> 'forgotten' ORDER BY created_at, rowid`,
  );
  const summariesOf = lazyStatement(db, 'SELECT session_id FROM summaries WHERE project_id = ?');
  const linksOf = lazyStatement(db, 'SELECT from_id, kind, to_id FROM links WHERE project_id = ?');
  const linkExists = lazyStatement(db, 'SELECT 1 FROM links WHERE from_id = ? AND kind = ? AND to_id = ?');
  const sameSubject = lazyStatement(
    db,
    `SELECT id FROM observations WHERE project_id = ? AND status = 'active' AND type = ? AND id <> ?
       AND lower(title) = lower(?) AND content_hash <> ? LIMIT 5`,
  );

  return {
    ...createTeamNotesRepo(db),
    meta(key: string): string | null {
      return (getMeta().get(key) as { value: string } | undefined)?.value ?? null;
    },
    setMeta(key: string, value: string): void {
      setMeta().run(key, value);
    },
    dropMeta(key: string): void {
      dropMeta().run(key);
    },
    /** Every meta row whose key starts with `prefix`. */
    metaWithPrefix(prefix: string): { key: string; value: string }[] {
      return metaByPrefix().all(prefix, `${prefix}\uffff`) as { key: string; value: string }[];
    },
    /** Share a project (again: only its root is updated); true when it was not shared before. */
    share(p: { id: string; name: string; root: string }, at: number): boolean {
      const before = project().get(p.id) !== undefined;
      share().run(p.id, p.name, p.root, at);
      return !before;
    },
    unshare(projectId: string): boolean {
      return unshare().run(projectId).changes === 1;
    },
    projects(): SharedProject[] {
      return (projects().all() as ProjectRow[]).map(toProject);
    },
    project(projectId: string): SharedProject | null {
      const row = project().get(projectId) as ProjectRow | undefined;
      return row ? toProject(row) : null;
    },
    setCursor(projectId: string, cursor: number, at: number): void {
      setCursor().run(cursor, at, projectId);
    },
    resetCursors(): void {
      resetCursors().run();
    },
    markPushed(projectId: string, at: number): void {
      pushed().run(at, projectId);
    },
    setError(projectId: string, error: string | null, at: number | null): void {
      setError().run(error, at, projectId);
    },
    /** When the project's last sync (push, pull and state) ended without an error. */
    syncedAt(projectId: string): number | null {
      const v = (getMeta().get(`synced_at:${projectId}`) as { value: string } | undefined)?.value;
      return v === undefined ? null : Number(v);
    },
    setSyncedAt(projectId: string, at: number): void {
      setMeta().run(`synced_at:${projectId}`, String(at));
    },
    enqueue(e: SyncEntity, entityId: string, projectId: string, at: number): void {
      enqueue().run(e, entityId, projectId, at);
    },
    /** The oldest queued entries of a project. */
    outbox(projectId: string, limit: number): OutboxEntry[] {
      return (
        outbox().all(projectId, limit) as {
          entity: SyncEntity;
          entity_id: string;
          project_id: string;
          queued_at: number;
        }[]
      ).map((r) => ({
        entity: r.entity,
        entityId: r.entity_id,
        projectId: r.project_id,
        queuedAt: r.queued_at,
      }));
    },
    /** Remove an outbox row if it was not queued again since it was read. */
    dequeue(e: OutboxEntry): void {
      dequeue().run(e.entity, e.entityId, e.queuedAt);
    },
    dropFromOutbox(e: SyncEntity, entityId: string): void {
      dropOutbox().run(e, entityId);
    },
    isQueued(e: SyncEntity, entityId: string): boolean {
      return inOutbox().get(e, entityId) !== undefined;
    },
    outboxCounts(): Map<string, number> {
      return new Map(
        (outboxCount().all() as { project_id: string; n: number }[]).map((r) => [r.project_id, r.n]),
      );
    },
    entity(e: SyncEntity, entityId: string): SyncedEntity | null {
      const r = entity().get(e, entityId) as
        | {
            entity: SyncEntity;
            entity_id: string;
            project_id: string;
            version: number;
            hash: string;
            content_hash: string | null;
            author: string;
            device: string;
            at: number;
            local_id: string | null;
          }
        | undefined;
      return r
        ? {
            entity: r.entity,
            entityId: r.entity_id,
            projectId: r.project_id,
            version: r.version,
            hash: r.hash,
            contentHash: r.content_hash,
            author: r.author,
            device: r.device,
            at: r.at,
            localId: r.local_id,
          }
        : null;
    },
    putEntity(s: SyncedEntity): void {
      putEntity().run(
        s.entity,
        s.entityId,
        s.projectId,
        s.version,
        s.hash,
        s.contentHash,
        s.author,
        s.device,
        s.at,
        s.localId,
      );
    },
    /**
     * After a server reset: what the server had is unknown (version 0: the next push carries no base),
     * but who wrote each entity is still known here.
     */
    forgetVersions(projectId: string): void {
      forgetVersions().run(projectId);
    },
    block(b: BlockedRecord): void {
      block().run(b.entity, b.entityId, b.projectId, b.reason, b.at);
    },
    unblock(e: SyncEntity, entityId: string): void {
      unblock().run(e, entityId);
    },
    blocked(limit = 100): BlockedRecord[] {
      return (
        blocked().all(limit) as {
          entity: SyncEntity;
          entity_id: string;
          project_id: string;
          reason: string;
          at: number;
        }[]
      ).map((r) => ({
        entity: r.entity,
        entityId: r.entity_id,
        projectId: r.project_id,
        reason: r.reason,
        at: r.at,
      }));
    },
    mark(id: string, at: number): boolean {
      return mark().run(id, at).changes === 1;
    },
    unmark(id: string): boolean {
      return unmark().run(id).changes === 1;
    },
    isMarked(id: string): boolean {
      return isMarked().get(id) !== undefined;
    },
    /** The local ids of a project's memories or summaries that are shared with the team (synced). */
    syncedIds(projectId: string, e: 'memory' | 'summary'): string[] {
      return (
        db
          .prepare(
            'SELECT COALESCE(local_id, entity_id) AS id FROM team_entities WHERE project_id = ? AND entity = ?',
          )
          .all(projectId, e) as { id: string }[]
      ).map((r) => r.id);
    },
    /** Everything of a project that sharing it offers to the team (forgotten memories excepted). */
    entitiesOf(projectId: string): { entity: SyncEntity; entityId: string }[] {
      return [
        ...(memoriesOf().all(projectId) as { id: string }[]).map((r) => ({
          entity: 'memory' as const,
          entityId: r.id,
        })),
        ...(summariesOf().all(projectId) as { session_id: string }[]).map((r) => ({
          entity: 'summary' as const,
          entityId: r.session_id,
        })),
        ...(linksOf().all(projectId) as { from_id: string; kind: string; to_id: string }[]).map((r) => ({
          entity: 'link' as const,
          entityId: `${r.from_id} ${r.kind} ${r.to_id}`,
        })),
      ];
    },
    linkExists(from: string, kind: string, to: string): boolean {
      return linkExists().get(from, kind, to) !== undefined;
    },
    /** Active memories of the project on the same subject (type and title) with other content. */
    sameSubject(
      projectId: string,
      type: string,
      title: string,
      excludeId: string,
      contentHash: string,
    ): string[] {
      return (sameSubject().all(projectId, type, excludeId, title, contentHash) as { id: string }[]).map(
        (r) => r.id,
      );
    },
  };
}

export type TeamRepo = ReturnType<typeof createTeamRepo>;
