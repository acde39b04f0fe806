-- 0008: the memory graph. File nodes, anchors (what a memory says about a file, pinned to the file's
-- content, and whether that content has changed since: staleness), the graph step's cursor on the
-- change log, and the Obsidian vaults engram keeps in step with the store (one stored base per note,
-- conflict revisions). Edges live in `links` (0006); every write of one goes through the mutation path.

-- A file of a project that memories touch: the graph's file nodes, with what is known of the file.
CREATE TABLE graph_files (
  id              TEXT PRIMARY KEY,           -- fil_…, derived from project and path
  project_id      TEXT NOT NULL,
  path            TEXT NOT NULL,              -- relative to the project root, with /
  language        TEXT NOT NULL DEFAULT '',
  lines           INTEGER NOT NULL DEFAULT 0,
  size            INTEGER NOT NULL DEFAULT 0,
  blob_hash       TEXT NOT NULL DEFAULT '',
  -- A summary (files at or over graph.fileSummaryMinLines): purpose from the header comment, symbols.
  summarized      INTEGER NOT NULL DEFAULT 0,
  purpose         TEXT NOT NULL DEFAULT '',
  symbols         TEXT NOT NULL DEFAULT '[]',
  -- Personalised PageRank over touch edges, among the project's files (key files rank highest).
  rank            REAL NOT NULL DEFAULT 0,
  created_at      INTEGER NOT NULL,
  updated_at      INTEGER NOT NULL,
  deleted_at      INTEGER,
  UNIQUE (project_id, path)
);
CREATE INDEX graph_files_rank ON graph_files (project_id, rank DESC);

-- Anchors: one per memory and file it is about. `scope` is JSON ({kind: file | lines | symbol, …});
-- `part_hash` a whitespace-blind hash of the anchored part. The file's stat at the last check lets the
-- SessionStart hook see cheaply that a file changed since (the worker then classifies the change).
CREATE TABLE anchors (
  rowid           INTEGER PRIMARY KEY,
  memory_id       TEXT NOT NULL,
  project_id      TEXT NOT NULL,
  first_path      TEXT NOT NULL,
  path            TEXT NOT NULL,
  blob_hash       TEXT NOT NULL,
  size            INTEGER NOT NULL,
  scope           TEXT NOT NULL,
  part_hash       TEXT NOT NULL,
  file_mtime_ms   REAL,
  created_at      INTEGER NOT NULL,
  checked_at      INTEGER NOT NULL,
  stale_since     INTEGER,
  stale_reason    TEXT,
  UNIQUE (memory_id, first_path)
);
CREATE INDEX anchors_by_path ON anchors (project_id, path);
CREATE INDEX anchors_stale ON anchors (memory_id) WHERE stale_since IS NOT NULL;

-- Small named values of the graph: the graph step's change-log cursor.
CREATE TABLE graph_state (
  key             TEXT PRIMARY KEY,
  value           INTEGER NOT NULL
) WITHOUT ROWID;

-- A vault engram writes and reads back: its folder, which projects it holds, its change-log cursor.
CREATE TABLE vaults (
  dir             TEXT PRIMARY KEY,
  scope           TEXT NOT NULL,              -- JSON: "all" or a list of project ids
  cursor          INTEGER NOT NULL DEFAULT 0,
  synced_at       INTEGER
);

-- Each project's folder in a vault (names are unique per vault and never change once given).
CREATE TABLE vault_folders (
  dir             TEXT NOT NULL,
  project_id      TEXT NOT NULL,
  folder          TEXT NOT NULL,
  PRIMARY KEY (dir, project_id)
);
CREATE UNIQUE INDEX vault_folders_name ON vault_folders (dir, folder COLLATE NOCASE);

-- One row per note: where it is, the base (the note as engram last wrote or accepted it: the hash
-- decides whether the human changed it) and engram's own last rendering (the base of a three-way merge
-- of later store changes). `flag` says why a note is left alone (malformed YAML, …).
CREATE TABLE vault_notes (
  dir             TEXT NOT NULL,
  node_id         TEXT NOT NULL,
  project_id      TEXT NOT NULL,
  path            TEXT NOT NULL,
  base_hash       TEXT NOT NULL,
  base_text       TEXT NOT NULL,
  render_text     TEXT,                       -- NULL: the same as base_text
  flag            TEXT,
  updated_at      INTEGER NOT NULL,
  PRIMARY KEY (dir, node_id)
);
CREATE UNIQUE INDEX vault_notes_path ON vault_notes (dir, path COLLATE NOCASE);

-- Conflicts: where a human and engram changed the same lines of a note, the vault's text was kept and
-- the store's version is kept here (`engram vault conflicts`).
CREATE TABLE vault_revisions (
  id              INTEGER PRIMARY KEY,
  dir             TEXT NOT NULL,
  node_id         TEXT NOT NULL,
  project_id      TEXT NOT NULL,
  path            TEXT NOT NULL,
  at              INTEGER NOT NULL,
  store_text      TEXT NOT NULL,
  vault_text      TEXT NOT NULL,
  resolved_at     INTEGER
);
CREATE INDEX vault_revisions_open ON vault_revisions (dir, resolved_at, at);
