-- Team server, 0008: the web view's search words leave the push path. Migration 0005 kept each memory's
-- stemmed words in a generated column of `entities` under a GIN index, so every pushed row paid for
-- to_tsvector and a GIN insertion inside the push's transaction. They now live in `memory_words`, one
-- row per memory, filled by the web view's search itself before it matches (engram_index_words): the
-- rows of the projects searched that changed since that project's mark (what was shared before this
-- migration is indexed by it, below). Immutable once released.
--
-- What keeps the index right without the push computing it:
--  * a row's `version` is the memory's version it was made from; search joins on it, so a row made
--    from an older version never matches (and the newer version is indexed before matching);
--  * a push that replaces or forgets a memory overwrites its row in the same transaction with the new
--    version and no words (sync-store), so erased text leaves the index when the push commits — and an
--    index run that read the older version cannot write it back: a row only ever moves to a newer
--    version (versions grow per entity; sequence numbers need not, migration 0003);
--  * `memory_word_marks` holds, per project, the pull horizon (migration 0003) at its last index run:
--    every row below it had committed or aborted then, so the next run reads only from the mark on,
--    along the (project_id, seq) index — never the whole project.

ALTER TABLE entities DROP COLUMN words; -- and its GIN index, entities_memory_words

-- The searchable words of a memory's body: title, subtitle, narrative and facts, stemmed (English), as
-- migration 0005 kept them. A sealed body (an end-to-end encrypted project) has none: its ciphertext
-- is never indexed.
CREATE FUNCTION engram_memory_words(body jsonb) RETURNS tsvector LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN body ->> 'e2ee' IS NULL THEN
    to_tsvector('english', coalesce(body ->> 'title', '') || ' ' || coalesce(body ->> 'subtitle', '') || ' ' ||
                           coalesce(body ->> 'narrative', '') || ' ' || coalesce(body ->> 'facts', ''))
  END
$$;

CREATE TABLE memory_words (
  project_id text NOT NULL REFERENCES projects (id),
  entity_id  text NOT NULL,
  version    integer NOT NULL,
  words      tsvector, -- NULL: this version not indexed yet (just pushed over an older one, or a tombstone)
  PRIMARY KEY (project_id, entity_id)
);
CREATE INDEX memory_words_words ON memory_words USING gin (words);

CREATE TABLE memory_word_marks (
  project_id text PRIMARY KEY REFERENCES projects (id),
  seq        bigint NOT NULL
);

-- Any reader of a project may bring its index up to date (searching is reading); the words written are
-- computed from the rows that reader sees, by engram_index_words. Pushes (writers) overwrite rows.
ALTER TABLE memory_words ENABLE ROW LEVEL SECURITY;
ALTER TABLE memory_words FORCE ROW LEVEL SECURITY;
CREATE POLICY memory_words_read ON memory_words FOR SELECT USING (engram_can(project_id, 'read'));
CREATE POLICY memory_words_insert ON memory_words FOR INSERT WITH CHECK (engram_can(project_id, 'read'));
CREATE POLICY memory_words_update ON memory_words FOR UPDATE
  USING (engram_can(project_id, 'read')) WITH CHECK (engram_can(project_id, 'read'));

ALTER TABLE memory_word_marks ENABLE ROW LEVEL SECURITY;
ALTER TABLE memory_word_marks FORCE ROW LEVEL SECURITY;
CREATE POLICY memory_word_marks_read ON memory_word_marks FOR SELECT USING (engram_can(project_id, 'read'));
CREATE POLICY memory_word_marks_insert ON memory_word_marks FOR INSERT WITH CHECK (engram_can(project_id, 'read'));
CREATE POLICY memory_word_marks_update ON memory_word_marks FOR UPDATE
  USING (engram_can(project_id, 'read')) WITH CHECK (engram_can(project_id, 'read'));

GRANT SELECT, INSERT, UPDATE ON memory_words, memory_word_marks TO engram_app;

-- Index the memories of the given projects (NULL: every project the tenant reads) that changed since
-- each project's mark, and move the marks to the pull horizon — all in one statement, so one snapshot:
-- the horizon is the one under which that snapshot saw every row. Row-level security applies (it runs
-- as the caller): only projects the tenant reads are indexed. Returns the rows indexed.
CREATE FUNCTION engram_index_words(p_project text) RETURNS bigint LANGUAGE sql VOLATILE AS $$
  WITH scope AS (
    SELECT p.id, coalesce(m.seq, -9223372036854775807) AS mark
      FROM projects p LEFT JOIN memory_word_marks m ON m.project_id = p.id
     WHERE engram_can(p.id, 'read') AND (p_project IS NULL OR p.id = p_project)
  ), fresh AS (
    INSERT INTO memory_words (project_id, entity_id, version, words)
    SELECT e.project_id, e.entity_id, e.version, engram_memory_words(e.body)
      FROM scope s
      JOIN entities e ON e.project_id = s.id AND e.seq >= s.mark
     WHERE e.kind = 'memory' AND NOT e.deleted
       AND NOT EXISTS (SELECT 1 FROM memory_words w WHERE w.project_id = e.project_id
                          AND w.entity_id = e.entity_id AND w.version = e.version AND w.words IS NOT NULL)
    ON CONFLICT (project_id, entity_id) DO UPDATE SET version = excluded.version, words = excluded.words
      WHERE memory_words.version <= excluded.version
    RETURNING 1
  ), marked AS (
    INSERT INTO memory_word_marks (project_id, seq)
    SELECT s.id, engram_pull_horizon() FROM scope s
    ON CONFLICT (project_id) DO UPDATE SET seq = greatest(memory_word_marks.seq, excluded.seq)
    RETURNING 1
  )
  SELECT count(*) FROM fresh
$$;
GRANT EXECUTE ON FUNCTION engram_index_words(text) TO engram_app;

-- The memories already shared are indexed now, as 0005 computed its column for every row (read as the
-- owner with every project readable, as the server's start does in ensureSeqBase; local to this
-- migration's transaction), so the first search after the upgrade has only new pushes to index.
SELECT set_config('engram.admin', 'on', true);
SELECT set_config('engram.read', coalesce((SELECT string_agg(id, ',') FROM projects), ''), true);
SELECT engram_index_words(NULL);
SELECT set_config('engram.read', '', true), set_config('engram.admin', '', true);
