-- 0006: one way to change memory.
-- A memory keeps its id across edits (the content hash only finds duplicates, so it is no longer
-- unique), carries a version, a real modification time, a pin (standing knowledge), and how often and
-- when it was last seen; its earlier versions are kept. Every mutation of a memory, a session summary
-- or a link appends one row to `changes`, in the same transaction: the cursor the vault, the viewer's
-- live stream and team sync tail. Status gains `archived` (hidden, restorable).

DROP TRIGGER observations_ai;
DROP TRIGGER observations_ad;
DROP TRIGGER observations_au;
DROP TRIGGER embeddings_drop_inactive;
DROP TRIGGER embeddings_drop_deleted;

CREATE TABLE observations_v6 (
  rowid           INTEGER PRIMARY KEY,
  id              TEXT NOT NULL UNIQUE,
  project_id      TEXT NOT NULL,
  session_id      TEXT,
  type            TEXT NOT NULL,
  title           TEXT NOT NULL,
  subtitle        TEXT NOT NULL DEFAULT '',
  narrative       TEXT NOT NULL DEFAULT '',
  facts           TEXT NOT NULL DEFAULT '[]',
  concepts        TEXT NOT NULL DEFAULT '[]',
  files_read      TEXT NOT NULL DEFAULT '[]',
  files_modified  TEXT NOT NULL DEFAULT '[]',
  source          TEXT NOT NULL,
  status          TEXT NOT NULL DEFAULT 'active'
                  CHECK (status IN ('active', 'superseded', 'invalidated', 'archived', 'forgotten')),
  status_reason   TEXT,
  supersedes      TEXT,
  -- When what it records happened (the event or transcript time).
  created_at      INTEGER NOT NULL,
  -- When this row last changed (the clock at the mutation).
  modified_at     INTEGER NOT NULL,
  content_hash    TEXT NOT NULL,
  tokens          INTEGER NOT NULL,
  provenance      TEXT NOT NULL DEFAULT '[]',
  search_terms    TEXT NOT NULL DEFAULT '',
  version         INTEGER NOT NULL DEFAULT 1,
  pinned          INTEGER NOT NULL DEFAULT 0,
  seen_count      INTEGER NOT NULL DEFAULT 1,
  last_seen_at    INTEGER NOT NULL
);

INSERT INTO observations_v6 (rowid, id, project_id, session_id, type, title, subtitle, narrative, facts,
  concepts, files_read, files_modified, source, status, status_reason, supersedes, created_at, modified_at,
  content_hash, tokens, provenance, search_terms, version, pinned, seen_count, last_seen_at)
SELECT rowid, id, project_id, session_id, type, title, subtitle, narrative, facts, concepts, files_read,
  files_modified, source, status, status_reason, supersedes, created_at, updated_at, content_hash, tokens,
  provenance, search_terms, 1, 0, 1, created_at
FROM observations;

DROP TABLE observations;
ALTER TABLE observations_v6 RENAME TO observations;

CREATE INDEX observations_recent ON observations (project_id, status, created_at);
CREATE INDEX observations_by_session ON observations (session_id, created_at, rowid);
CREATE INDEX observations_pinned ON observations (project_id, created_at) WHERE pinned = 1 AND status = 'active';

-- The full-text index keeps its rowids (the rows kept theirs); only its triggers are made again.
CREATE TRIGGER observations_ai AFTER INSERT ON observations BEGIN
  INSERT INTO observations_fts (rowid, title, subtitle, narrative, facts, concepts, files_read, files_modified, search_terms)
  VALUES (new.rowid, new.title, new.subtitle, new.narrative, new.facts, new.concepts, new.files_read, new.files_modified, new.search_terms);
END;
CREATE TRIGGER observations_ad AFTER DELETE ON observations BEGIN
  INSERT INTO observations_fts (observations_fts, rowid, title, subtitle, narrative, facts, concepts, files_read, files_modified, search_terms)
  VALUES ('delete', old.rowid, old.title, old.subtitle, old.narrative, old.facts, old.concepts, old.files_read, old.files_modified, old.search_terms);
END;
CREATE TRIGGER observations_au AFTER UPDATE OF title, subtitle, narrative, facts, concepts, files_read, files_modified, search_terms ON observations BEGIN
  INSERT INTO observations_fts (observations_fts, rowid, title, subtitle, narrative, facts, concepts, files_read, files_modified, search_terms)
  VALUES ('delete', old.rowid, old.title, old.subtitle, old.narrative, old.facts, old.concepts, old.files_read, old.files_modified, old.search_terms);
  INSERT INTO observations_fts (rowid, title, subtitle, narrative, facts, concepts, files_read, files_modified, search_terms)
  VALUES (new.rowid, new.title, new.subtitle, new.narrative, new.facts, new.concepts, new.files_read, new.files_modified, new.search_terms);
END;
CREATE TRIGGER embeddings_drop_inactive AFTER UPDATE OF status ON observations
  WHEN new.status <> 'active' BEGIN
  DELETE FROM embeddings WHERE observation_id = new.id;
END;
-- An edit changes the text a vector was made from: the worker embeds the new text.
CREATE TRIGGER embeddings_drop_edited AFTER UPDATE OF title, subtitle, narrative, facts, concepts ON observations BEGIN
  DELETE FROM embeddings WHERE observation_id = new.id;
END;
CREATE TRIGGER embeddings_drop_deleted AFTER DELETE ON observations BEGIN
  DELETE FROM embeddings WHERE observation_id = old.id;
END;

-- Every content hash a memory has had (at creation, after each edit or merge): distilling the same
-- thing again finds the memory it became, even after it was edited; a forgotten memory's hashes keep
-- it from coming back.
CREATE TABLE memory_hashes (
  project_id      TEXT NOT NULL,
  content_hash    TEXT NOT NULL,
  observation_id  TEXT NOT NULL,
  PRIMARY KEY (project_id, content_hash)
) WITHOUT ROWID;
INSERT OR IGNORE INTO memory_hashes (project_id, content_hash, observation_id)
SELECT project_id, content_hash, id FROM observations;

-- Earlier versions of a memory: the whole row as it was before the mutation that replaced it.
CREATE TABLE observation_versions (
  observation_id  TEXT NOT NULL,
  version         INTEGER NOT NULL,
  -- JSON: type, title, subtitle, narrative, facts, concepts, filesRead, filesModified, status,
  -- statusReason, supersedes, pinned.
  snapshot        TEXT NOT NULL,
  -- The mutation that replaced this version, by whom, when.
  replaced_by_op  TEXT NOT NULL,
  origin          TEXT NOT NULL,
  replaced_at     INTEGER NOT NULL,
  PRIMARY KEY (observation_id, version)
) WITHOUT ROWID;

-- The change log: one row per mutation, in commit order (SQLite has one writer at a time).
CREATE TABLE changes (
  seq             INTEGER PRIMARY KEY AUTOINCREMENT,
  entity          TEXT NOT NULL CHECK (entity IN ('memory', 'summary', 'link')),
  -- A memory id, a session id (summaries), or "<from> <kind> <to>" (links).
  entity_id       TEXT NOT NULL,
  project_id      TEXT,
  op              TEXT NOT NULL,
  origin          TEXT NOT NULL
                  CHECK (origin IN ('hook', 'transcript', 'llm', 'mcp', 'cli', 'viewer', 'vault', 'team')),
  actor           TEXT,
  at              INTEGER NOT NULL,
  -- The memory's version after the change (memories only).
  version         INTEGER
);
CREATE INDEX changes_by_entity ON changes (entity_id, seq);

-- Typed edges between memories, and from memories to files and sessions; backlinks by `to_id`.
CREATE TABLE links (
  from_id         TEXT NOT NULL,
  kind            TEXT NOT NULL,
  to_id           TEXT NOT NULL,
  project_id      TEXT NOT NULL,
  created_at      INTEGER NOT NULL,
  origin          TEXT NOT NULL,
  PRIMARY KEY (from_id, kind, to_id)
) WITHOUT ROWID;
CREATE INDEX links_to ON links (to_id, kind);

-- The worker lock names its holder by pid AND start time: a reused pid is not mistaken for it.
ALTER TABLE worker_lock ADD COLUMN proc_start TEXT;

-- Supersessions recorded so far become links.
INSERT OR IGNORE INTO links (from_id, kind, to_id, project_id, created_at, origin)
SELECT id, 'supersedes', supersedes, project_id, modified_at, 'hook' FROM observations
WHERE supersedes IS NOT NULL;
