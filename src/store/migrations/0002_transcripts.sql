-- 0002: transcript reading progress and token usage.

-- Where reading each transcript file stopped: the byte offset after the last whole line, and a
-- fingerprint of the file's start so a rewritten or rotated file is read again from the beginning.
CREATE TABLE transcript_files (
  path            TEXT PRIMARY KEY,
  session_id      TEXT,
  project_id      TEXT,
  offset          INTEGER NOT NULL DEFAULT 0,
  fingerprint     TEXT NOT NULL,
  records         INTEGER NOT NULL DEFAULT 0,
  bad_lines       INTEGER NOT NULL DEFAULT 0,
  -- The last few entries before `offset` (JSON), so extractors reading only the appended part still
  -- see what a new prompt answers (a correction needs the approach it rejects).
  tail            TEXT NOT NULL DEFAULT '[]',
  updated_at      INTEGER NOT NULL
);

-- Record types seen in transcripts and how many were skipped (capture health; never fails a read).
CREATE TABLE transcript_record_types (
  record_type     TEXT PRIMARY KEY,
  seen            INTEGER NOT NULL DEFAULT 0,
  skipped         INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;

-- Token usage per API message (one message is split over several transcript records: keyed by id).
CREATE TABLE usage_messages (
  message_id      TEXT PRIMARY KEY,
  session_id      TEXT NOT NULL,
  project_id      TEXT NOT NULL,
  model           TEXT NOT NULL,
  day             TEXT NOT NULL,
  input_tokens    INTEGER NOT NULL DEFAULT 0,
  output_tokens   INTEGER NOT NULL DEFAULT 0,
  cache_read_tokens  INTEGER NOT NULL DEFAULT 0,
  cache_write_tokens INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;
CREATE INDEX usage_by_day ON usage_messages (day, project_id);

-- Finding a session's raw events (was the session captured by hooks?).
CREATE INDEX events_by_session ON events (session_id);
