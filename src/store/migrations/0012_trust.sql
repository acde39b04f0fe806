-- 0012: trust and quarantine. Every memory carries the trust of its evidence (user > repository >
-- tool > external; mixed evidence takes the lowest) and the review state of its text: `clear`,
-- `held` (quarantined: instruction-like text from below the user's trust — never injected, never
-- standing, never pushed to the team, until a person approves it) or `approved`. `screen_version` is
-- the version of the instruction screen (core/instruction-screen.ts) that last judged it: 0 = not yet,
-- so the worker screens every memory made before this migration, and again after each new version.
ALTER TABLE observations ADD COLUMN trust TEXT NOT NULL DEFAULT 'tool';
ALTER TABLE observations ADD COLUMN review TEXT NOT NULL DEFAULT 'clear';
ALTER TABLE observations ADD COLUMN review_reason TEXT;
ALTER TABLE observations ADD COLUMN screen_version INTEGER NOT NULL DEFAULT 0;

-- The trust of memories made before: the user's words (read as `said:` memories, or remembered by
-- hand outside MCP), the repository's rules, the team's memories; the rest is local tool output.
UPDATE observations SET trust = CASE
  WHEN source = 'team' THEN 'external'
  WHEN subject LIKE 'said:%' THEN 'user'
  WHEN source = 'manual' AND provenance NOT LIKE '%mcp:%' THEN 'user'
  WHEN subject LIKE 'rule:%' THEN 'repository'
  ELSE 'tool' END;

CREATE INDEX observations_unscreened ON observations (screen_version) WHERE status = 'active';
CREATE INDEX observations_held ON observations (project_id, modified_at) WHERE review = 'held';

-- What the injection gate dropped from each context hook's text: JSON [{id, rule, category, excerpt}].
ALTER TABLE context_log ADD COLUMN dropped TEXT NOT NULL DEFAULT '[]';
