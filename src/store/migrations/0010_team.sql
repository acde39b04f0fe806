-- 0010: team sync, client side. Nothing here is sent anywhere by itself: it is the bookkeeping of
-- what this machine shares (opt-in per project), what it has pushed and pulled, and who wrote what.

-- Projects shared with the team server (engram team share), and where their pull stands.
CREATE TABLE team_projects (
  project_id    TEXT PRIMARY KEY,
  name          TEXT NOT NULL,
  -- Where it was shared from on this machine (its branch and changed files are read there).
  root          TEXT NOT NULL,
  shared_at     INTEGER NOT NULL,
  -- The last server sequence number pulled (within `epoch`).
  cursor        INTEGER NOT NULL DEFAULT 0,
  last_push_at  INTEGER,
  last_pull_at  INTEGER,
  last_error    TEXT,
  last_error_at INTEGER
);

-- What is waiting to be pushed: filled from the change log (and by share), emptied as the server
-- acknowledges. `queued_at` tells a row re-queued during a push from the one that was pushed.
CREATE TABLE team_outbox (
  entity        TEXT NOT NULL,
  entity_id     TEXT NOT NULL,
  project_id    TEXT NOT NULL,
  queued_at     INTEGER NOT NULL,
  PRIMARY KEY (entity, entity_id)
) WITHOUT ROWID;

-- The server's version of each synced entity (the base of the next push) and who wrote it there.
-- `local_id`: a pulled memory that matched one already here was merged into it (its local id).
CREATE TABLE team_entities (
  entity        TEXT NOT NULL,
  entity_id     TEXT NOT NULL,
  project_id    TEXT NOT NULL,
  version       INTEGER NOT NULL,
  hash          TEXT NOT NULL,
  -- Of a memory's content alone (not its status): tells a local status change from a local edit.
  content_hash  TEXT,
  author        TEXT NOT NULL,
  device        TEXT NOT NULL,
  at            INTEGER NOT NULL,
  local_id      TEXT,
  PRIMARY KEY (entity, entity_id)
) WITHOUT ROWID;
CREATE INDEX team_entities_local ON team_entities (local_id) WHERE local_id IS NOT NULL;

-- Records kept from the server, and why (a secret found at push, refused by the server).
CREATE TABLE team_blocked (
  entity        TEXT NOT NULL,
  entity_id     TEXT NOT NULL,
  project_id    TEXT NOT NULL,
  reason        TEXT NOT NULL,
  at            INTEGER NOT NULL,
  PRIMARY KEY (entity, entity_id)
) WITHOUT ROWID;

-- Memories from two people that disagree: both kept, each flagged with the other.
CREATE TABLE team_conflicts (
  observation_id TEXT NOT NULL,
  other_id       TEXT NOT NULL,
  reason         TEXT NOT NULL,
  at             INTEGER NOT NULL,
  PRIMARY KEY (observation_id, other_id)
) WITHOUT ROWID;

-- Personal preferences the user marked for the team (others of type preference stay private).
CREATE TABLE team_marks (
  observation_id TEXT PRIMARY KEY,
  at             INTEGER NOT NULL
) WITHOUT ROWID;

-- Each member's last branch, commit and changed files per machine, as the server last told.
CREATE TABLE team_member_states (
  project_id    TEXT NOT NULL,
  user_name     TEXT NOT NULL,
  device        TEXT NOT NULL,
  branch        TEXT,
  commit_sha    TEXT,
  files         TEXT NOT NULL DEFAULT '[]',
  file_count    INTEGER NOT NULL DEFAULT 0,
  at            INTEGER NOT NULL,
  PRIMARY KEY (project_id, user_name, device)
) WITHOUT ROWID;

-- Small settings of the sync: the change-log cursor, the server's epoch, who we are there.
CREATE TABLE team_meta (
  key           TEXT PRIMARY KEY,
  value         TEXT NOT NULL
) WITHOUT ROWID;
