-- 0009: what the viewer shows and steers.

-- Exactly what each SessionStart / UserPromptSubmit hook call injected (one row per call, also when it
-- injected nothing), with each memory's score and token cost, and the hook's time so far: "why did
-- Claude see this?". Written by the context hook in its one transaction; read by the viewer.
CREATE TABLE context_log (
  id              INTEGER PRIMARY KEY,
  session_id      TEXT NOT NULL,
  project_id      TEXT NOT NULL,
  hook            TEXT NOT NULL,
  -- SessionStart: startup | resume | clear | compact; UserPromptSubmit: NULL.
  start_source    TEXT,
  -- The queued event of this call (a prompt's event_seq in `prompts`).
  event_seq       INTEGER,
  at              INTEGER NOT NULL,
  text            TEXT NOT NULL,
  tokens          INTEGER NOT NULL,
  -- JSON [{id, tokens, score, why}]: each memory injected, in order.
  items           TEXT NOT NULL DEFAULT '[]',
  -- Milliseconds from the hook process's start to this row (NULL when not measured).
  latency_ms      INTEGER
);
CREATE INDEX context_log_by_session ON context_log (session_id, at);
CREATE INDEX context_log_by_time ON context_log (at);

-- Forgets requested in the viewer wait here through their undo window (the memory is archived at
-- once); the viewer erases them when due. `batch` groups one request (one memory, or a bulk forget).
CREATE TABLE pending_forgets (
  observation_id  TEXT PRIMARY KEY,
  batch           TEXT NOT NULL,
  -- 1 when the request archived it (undo restores it); 0 when it was archived already.
  archived        INTEGER NOT NULL,
  requested_at    INTEGER NOT NULL,
  due_at          INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX pending_forgets_due ON pending_forgets (due_at);
CREATE INDEX pending_forgets_batch ON pending_forgets (batch);

-- Paging every project's memories newest first, and counting them per day; a type or a source filter
-- pages and counts (capped) through its own index instead of reading rows.
CREATE INDEX observations_by_time ON observations (created_at);
CREATE INDEX observations_by_type ON observations (type, status, created_at);
CREATE INDEX observations_project_type ON observations (project_id, type, status, created_at);
CREATE INDEX observations_by_source ON observations (source, status, created_at);
-- Which sessions were told about a memory (the memory page).
CREATE INDEX injections_by_observation ON injections (observation_id, at);
-- Paging sessions newest first.
CREATE INDEX sessions_recent ON sessions (last_event_at);
