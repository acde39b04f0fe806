-- 0016: where reading a host's session store stopped, for each session log the worker writes from it
-- (opencode's store → `host-sessions/opencode/<id>.jsonl`), beside that log's own reading progress in
-- transcript_files: the host adapter's cursor as JSON (for opencode: the messages the log holds, the
-- last one's id and time, the log's size and time once written). A row only saves reading: a missing or
-- stale one means the session is read whole once more.
CREATE TABLE transcript_sources (
  path            TEXT PRIMARY KEY,
  cursor          TEXT NOT NULL,
  updated_at      INTEGER NOT NULL
) WITHOUT ROWID;
