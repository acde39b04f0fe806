-- 0005: embeddings for the optional vector half of hybrid search.
-- Vectors are plain little-endian float32 BLOBs per (observation, embedder), so this schema needs
-- neither the sqlite-vec extension nor a fixed dimension. The KNN index (a sqlite-vec vec0 table per
-- embedder and dimension, see store/vectors-repo.ts) is created lazily by connections that load the
-- extension, and is never referenced by triggers: connections without the extension stay unaffected.

CREATE TABLE embeddings (
  rowid           INTEGER PRIMARY KEY,
  observation_id  TEXT NOT NULL,
  embedder_id     TEXT NOT NULL,
  project_id      TEXT NOT NULL,
  dims            INTEGER NOT NULL,
  vector          BLOB NOT NULL,
  created_at      INTEGER NOT NULL,
  UNIQUE (embedder_id, observation_id)
);
CREATE INDEX embeddings_by_observation ON embeddings (observation_id);
-- Counting a scope (which decides exact scan or index) without reading the vectors.
CREATE INDEX embeddings_scope ON embeddings (embedder_id, dims, project_id);

-- The vec0 index tables made so far: one per (embedder, dimension).
CREATE TABLE vector_indexes (
  embedder_id     TEXT NOT NULL,
  dims            INTEGER NOT NULL,
  table_name      TEXT NOT NULL UNIQUE,
  created_at      INTEGER NOT NULL,
  PRIMARY KEY (embedder_id, dims)
) WITHOUT ROWID;

-- A memory that stops being active (superseded, invalidated, forgotten) loses its vectors at once:
-- a forgotten memory's content must not survive as an embedding. Index rows left behind are never
-- returned (KNN joins this table) and are pruned by the worker.
CREATE TRIGGER embeddings_drop_inactive AFTER UPDATE OF status ON observations
  WHEN new.status <> 'active' BEGIN
  DELETE FROM embeddings WHERE observation_id = new.id;
END;
CREATE TRIGGER embeddings_drop_deleted AFTER DELETE ON observations BEGIN
  DELETE FROM embeddings WHERE observation_id = old.id;
END;
