-- 0014: captured events per host (claude-code, codex, gemini, copilot, …), counted as the worker imports
-- each one, for `engram status`. Events captured before this migration are counted from the queue rows
-- still kept (done events are pruned after their retention, so an older store starts lower).
CREATE TABLE host_stats (
  host            TEXT PRIMARY KEY,
  events          INTEGER NOT NULL DEFAULT 0,
  last_at         INTEGER NOT NULL
) WITHOUT ROWID;

INSERT INTO host_stats (host, events, last_at)
  SELECT s.host, COUNT(*), MAX(e.at) FROM events e JOIN sessions s ON s.id = e.session_id GROUP BY s.host;
