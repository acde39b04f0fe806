-- 0003: identifier parts in the full-text index. `search_terms` holds what a word tokenizer cannot
-- find in code identifiers (`parseConfigFile` → "parse config file"), computed when a memory is written.
-- The observation index is rebuilt with the new column; older rows get their terms when rewritten.

ALTER TABLE observations ADD COLUMN search_terms TEXT NOT NULL DEFAULT '';

DROP TRIGGER observations_ai;
DROP TRIGGER observations_ad;
DROP TRIGGER observations_au;
DROP TABLE observations_fts;

CREATE VIRTUAL TABLE observations_fts USING fts5 (
  title, subtitle, narrative, facts, concepts, files_read, files_modified, search_terms,
  content = 'observations', content_rowid = 'rowid', tokenize = 'porter unicode61'
);
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
INSERT INTO observations_fts (observations_fts) VALUES ('rebuild');

-- Neighbours in a session (search gives a strong match's neighbours a share of its score).
DROP INDEX observations_by_session;
CREATE INDEX observations_by_session ON observations (session_id, created_at, rowid);
