/**
 * What the team says about this machine's memories (migration 0010's `team_entities`, `team_conflicts`
 * and `team_member_states`, read and written for team sync): who wrote a memory that came from the
 * team, which memories a teammate remembers differently, and where each teammate's work stands. The
 * notes recall shows beside a shared project's memories; part of the team repository (`store.team`).
 */
import type { Db } from './database.ts';
import { lazyStatement, parseJsonList } from './statements.ts';

export interface MemberStateRow {
  user: string;
  device: string;
  branch: string | null;
  commit: string | null;
  files: string[];
  fileCount: number;
  at: number;
}

/** Who wrote a memory that came from the team, for "from alice, 3 days ago". */
export interface Attribution {
  author: string;
  device: string;
  at: number;
}

/** `?, ?, …` for an IN list. */
const marks = (n: number) => Array.from({ length: n }, () => '?').join(', ');

export function createTeamNotesRepo(db: Db) {
  const addConflict = lazyStatement(
    db,
    `INSERT INTO team_conflicts (observation_id, other_id, reason, at) VALUES (?, ?, ?, ?)
     ON CONFLICT (observation_id, other_id) DO NOTHING`,
  );
  const conflictCount = lazyStatement(db, 'SELECT COUNT(*) AS n FROM team_conflicts');
  const dropStates = lazyStatement(db, 'DELETE FROM team_member_states WHERE project_id = ?');
  const putState = lazyStatement(
    db,
    `INSERT INTO team_member_states (project_id, user_name, device, branch, commit_sha, files, file_count, at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const states = lazyStatement(
    db,
    'SELECT * FROM team_member_states WHERE project_id = ? ORDER BY at DESC LIMIT ?',
  );

  return {
    /** Flag two memories as disagreeing (both ways). */
    addConflict(a: string, b: string, reason: string, at: number): void {
      addConflict().run(a, b, reason, at);
      addConflict().run(b, a, reason, at);
    },
    conflictCount(): number {
      return (conflictCount().get() as { n: number }).n;
    },
    /** The memories each of `ids` is flagged as conflicting with. */
    conflictsOf(ids: readonly string[]): Map<string, string[]> {
      const out = new Map<string, string[]>();
      if (ids.length === 0) return out;
      const rows = db
        .prepare(
          `SELECT observation_id, other_id FROM team_conflicts WHERE observation_id IN (${marks(ids.length)})`,
        )
        .all(...ids) as { observation_id: string; other_id: string }[];
      for (const r of rows) out.set(r.observation_id, [...(out.get(r.observation_id) ?? []), r.other_id]);
      return out;
    },
    /** Who wrote each of `ids` (pulled memories, and local ones another member's copy merged into). */
    attributions(ids: readonly string[]): Map<string, Attribution> {
      const out = new Map<string, Attribution>();
      if (ids.length === 0) return out;
      const list = marks(ids.length);
      const rows = db
        .prepare(
          `SELECT COALESCE(local_id, entity_id) AS id, author, device, at FROM team_entities
            WHERE entity = 'memory' AND (entity_id IN (${list}) OR local_id IN (${list}))`,
        )
        .all(...ids, ...ids) as { id: string; author: string; device: string; at: number }[];
      for (const r of rows)
        if (!out.has(r.id)) out.set(r.id, { author: r.author, device: r.device, at: r.at });
      return out;
    },
    replaceMemberStates(projectId: string, list: readonly (MemberStateRow & {})[]): void {
      dropStates().run(projectId);
      for (const s of list) {
        putState().run(
          projectId,
          s.user,
          s.device,
          s.branch,
          s.commit,
          JSON.stringify(s.files),
          s.fileCount,
          s.at,
        );
      }
    },
    memberStates(projectId: string, limit = 10): MemberStateRow[] {
      return (
        states().all(projectId, limit) as {
          user_name: string;
          device: string;
          branch: string | null;
          commit_sha: string | null;
          files: string;
          file_count: number;
          at: number;
        }[]
      ).map((r) => ({
        user: r.user_name,
        device: r.device,
        branch: r.branch,
        commit: r.commit_sha,
        files: parseJsonList(r.files),
        fileCount: r.file_count,
        at: r.at,
      }));
    },
  };
}
