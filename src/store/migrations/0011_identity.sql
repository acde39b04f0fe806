-- 0011: the database says it is engram's. SQLite's application_id (0x456e6772, "Engr") marks the file,
-- so a database another program keeps at the same path (another tool named engram) is never taken for
-- this one, migrated or written. A database made by an earlier engram has no id yet: it is known by
-- its own tables and gets the id here.
PRAGMA application_id = 1164863346;

-- Facts about this database itself. `store_id`: made once, with the database; a copy (a backup, an
-- older file put back) keeps it, a new database has another. The high-water mark of the change log
-- (`engram.db.mark`, beside the file) is kept per store_id.
CREATE TABLE store_meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
) WITHOUT ROWID;

INSERT INTO store_meta (key, value) VALUES ('store_id', lower(hex(randomblob(16))));
