-- 0001: the initial schema. Migrations are immutable: change the schema with a new numbered file.

CREATE TABLE projects (
  id              TEXT PRIMARY KEY,
  name            TEXT NOT NULL,
  key             TEXT NOT NULL,
  root            TEXT NOT NULL,
  created_at      INTEGER NOT NULL,
  last_capture_at INTEGER
);

CREATE TABLE sessions (
  id              TEXT PRIMARY KEY,
  project_id      TEXT NOT NULL,
  host            TEXT NOT NULL DEFAULT 'claude-code',
  cwd             TEXT NOT NULL,
  transcript_path TEXT,
  started_at      INTEGER NOT NULL,
  last_event_at   INTEGER NOT NULL,
  ended_at        INTEGER,
  end_reason      TEXT,
  status          TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'completed', 'interrupted'))
);
CREATE INDEX sessions_by_project ON sessions (project_id, last_event_at);

-- The durable queue: one row per captured hook payload (scrubbed and size-capped before insert).
CREATE TABLE events (
  seq             INTEGER PRIMARY KEY AUTOINCREMENT,
  -- The inbox file an event was imported from: importing the same file twice is a no-op.
  source_key      TEXT UNIQUE,
  session_id      TEXT NOT NULL,
  project_id      TEXT NOT NULL,
  hook            TEXT NOT NULL,
  kind            TEXT NOT NULL,
  cwd             TEXT NOT NULL,
  transcript_path TEXT,
  payload         TEXT NOT NULL,
  bytes           INTEGER NOT NULL,
  at              INTEGER NOT NULL,
  status          TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'done', 'parked')),
  attempts        INTEGER NOT NULL DEFAULT 0,
  last_error      TEXT,
  done_at         INTEGER
);
CREATE INDEX events_by_status ON events (status, session_id, at, seq);
CREATE INDEX events_done_at ON events (done_at) WHERE status = 'done';

CREATE TABLE observations (
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
                  CHECK (status IN ('active', 'superseded', 'invalidated', 'forgotten')),
  status_reason   TEXT,
  supersedes      TEXT,
  created_at      INTEGER NOT NULL,
  updated_at      INTEGER NOT NULL,
  content_hash    TEXT NOT NULL,
  tokens          INTEGER NOT NULL,
  provenance      TEXT NOT NULL DEFAULT '[]',
  UNIQUE (project_id, content_hash)
);
CREATE INDEX observations_recent ON observations (project_id, status, created_at);
CREATE INDEX observations_by_session ON observations (session_id, created_at);

CREATE VIRTUAL TABLE observations_fts USING fts5 (
  title, subtitle, narrative, facts, concepts, files_read, files_modified,
  content = 'observations', content_rowid = 'rowid', tokenize = 'porter unicode61'
);
CREATE TRIGGER observations_ai AFTER INSERT ON observations BEGIN
  INSERT INTO observations_fts (rowid, title, subtitle, narrative, facts, concepts, files_read, files_modified)
  VALUES (new.rowid, new.title, new.subtitle, new.narrative, new.facts, new.concepts, new.files_read, new.files_modified);
END;
CREATE TRIGGER observations_ad AFTER DELETE ON observations BEGIN
  INSERT INTO observations_fts (observations_fts, rowid, title, subtitle, narrative, facts, concepts, files_read, files_modified)
  VALUES ('delete', old.rowid, old.title, old.subtitle, old.narrative, old.facts, old.concepts, old.files_read, old.files_modified);
END;
CREATE TRIGGER observations_au AFTER UPDATE OF title, subtitle, narrative, facts, concepts, files_read, files_modified ON observations BEGIN
  INSERT INTO observations_fts (observations_fts, rowid, title, subtitle, narrative, facts, concepts, files_read, files_modified)
  VALUES ('delete', old.rowid, old.title, old.subtitle, old.narrative, old.facts, old.concepts, old.files_read, old.files_modified);
  INSERT INTO observations_fts (rowid, title, subtitle, narrative, facts, concepts, files_read, files_modified)
  VALUES (new.rowid, new.title, new.subtitle, new.narrative, new.facts, new.concepts, new.files_read, new.files_modified);
END;

CREATE TABLE summaries (
  rowid           INTEGER PRIMARY KEY,
  session_id      TEXT NOT NULL UNIQUE,
  project_id      TEXT NOT NULL,
  request         TEXT NOT NULL DEFAULT '',
  investigated    TEXT NOT NULL DEFAULT '',
  learned         TEXT NOT NULL DEFAULT '',
  completed       TEXT NOT NULL DEFAULT '',
  next_steps      TEXT NOT NULL DEFAULT '',
  files_read      TEXT NOT NULL DEFAULT '[]',
  files_edited    TEXT NOT NULL DEFAULT '[]',
  notes           TEXT NOT NULL DEFAULT '',
  final           INTEGER NOT NULL DEFAULT 0,
  updated_at      INTEGER NOT NULL
);
CREATE INDEX summaries_recent ON summaries (project_id, updated_at);

CREATE VIRTUAL TABLE summaries_fts USING fts5 (
  request, investigated, learned, completed, next_steps, notes,
  content = 'summaries', content_rowid = 'rowid', tokenize = 'porter unicode61'
);
CREATE TRIGGER summaries_ai AFTER INSERT ON summaries BEGIN
  INSERT INTO summaries_fts (rowid, request, investigated, learned, completed, next_steps, notes)
  VALUES (new.rowid, new.request, new.investigated, new.learned, new.completed, new.next_steps, new.notes);
END;
CREATE TRIGGER summaries_ad AFTER DELETE ON summaries BEGIN
  INSERT INTO summaries_fts (summaries_fts, rowid, request, investigated, learned, completed, next_steps, notes)
  VALUES ('delete', old.rowid, old.request, old.investigated, old.learned, old.completed, old.next_steps, old.notes);
END;
CREATE TRIGGER summaries_au AFTER UPDATE ON summaries BEGIN
  INSERT INTO summaries_fts (summaries_fts, rowid, request, investigated, learned, completed, next_steps, notes)
  VALUES ('delete', old.rowid, old.request, old.investigated, old.learned, old.completed, old.next_steps, old.notes);
  INSERT INTO summaries_fts (rowid, request, investigated, learned, completed, next_steps, notes)
  VALUES (new.rowid, new.request, new.investigated, new.learned, new.completed, new.next_steps, new.notes);
END;

CREATE TABLE prompts (
  rowid           INTEGER PRIMARY KEY,
  session_id      TEXT NOT NULL,
  project_id      TEXT NOT NULL,
  event_seq       INTEGER UNIQUE,
  prompt          TEXT NOT NULL,
  at              INTEGER NOT NULL
);
CREATE INDEX prompts_by_session ON prompts (session_id, at);

CREATE VIRTUAL TABLE prompts_fts USING fts5 (
  prompt, content = 'prompts', content_rowid = 'rowid', tokenize = 'porter unicode61'
);
CREATE TRIGGER prompts_ai AFTER INSERT ON prompts BEGIN
  INSERT INTO prompts_fts (rowid, prompt) VALUES (new.rowid, new.prompt);
END;
CREATE TRIGGER prompts_ad AFTER DELETE ON prompts BEGIN
  INSERT INTO prompts_fts (prompts_fts, rowid, prompt) VALUES ('delete', old.rowid, old.prompt);
END;

-- What each session has already been told, so prompt-time recall never repeats itself.
CREATE TABLE injections (
  session_id      TEXT NOT NULL,
  observation_id  TEXT NOT NULL,
  at              INTEGER NOT NULL,
  PRIMARY KEY (session_id, observation_id)
) WITHOUT ROWID;

-- Hook activity per project and event: capture health at a glance.
CREATE TABLE capture_stats (
  project_id      TEXT NOT NULL,
  hook            TEXT NOT NULL,
  count           INTEGER NOT NULL DEFAULT 0,
  last_at         INTEGER NOT NULL,
  PRIMARY KEY (project_id, hook)
) WITHOUT ROWID;

-- At most one worker per ENGRAM_HOME: the holder's pid, taken inside a write transaction.
CREATE TABLE worker_lock (
  id              INTEGER PRIMARY KEY CHECK (id = 1),
  pid             INTEGER NOT NULL,
  started_at      INTEGER NOT NULL,
  heartbeat_at    INTEGER NOT NULL
);
