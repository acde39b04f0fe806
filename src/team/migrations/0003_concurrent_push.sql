-- Team server, 0003: pushes to one project no longer queue on its head row. Immutable once released.
--
-- A record's sequence number is now its position in commit-safe order: engram_seq_base() plus the
-- pushing transaction's id × 1024 plus its place in the batch (a push holds at most 1024 records).
-- Pushes run side by side; a puller reads only below engram_pull_horizon(), the position of the
-- oldest transaction still running anywhere in the cluster. Every transaction that may still commit
-- has an id at or above that horizon, so a row that commits later always lands above every row a
-- puller has been given: no cursor skips it. Rows pushed before this migration keep their numbers,
-- all below the first new one (the base guarantees it; the server raises it on start when a restore
-- into a fresh cluster would break that).

ALTER TABLE heads DROP COLUMN last_seq;

-- The owner sets the base (on every start: ensureSeqBase); the application role may only read it.
CREATE POLICY meta_seq_base_insert ON meta FOR INSERT WITH CHECK (key = 'seq_base');
CREATE POLICY meta_seq_base_update ON meta FOR UPDATE USING (key = 'seq_base') WITH CHECK (key = 'seq_base');
INSERT INTO meta (key, value) VALUES ('seq_base', '0');

CREATE FUNCTION engram_seq_base() RETURNS bigint LANGUAGE sql STABLE AS
$$ SELECT value::bigint FROM meta WHERE key = 'seq_base' $$;

-- The first position of the calling transaction's records (gives it a transaction id if it has none).
CREATE FUNCTION engram_push_position() RETURNS bigint LANGUAGE sql VOLATILE AS
$$ SELECT engram_seq_base() + pg_current_xact_id()::text::bigint * 1024 $$;

-- Positions below this belong to transactions that have all ended: they can be read without a gap.
CREATE FUNCTION engram_pull_horizon() RETURNS bigint LANGUAGE sql STABLE AS
$$ SELECT engram_seq_base() + pg_snapshot_xmin(pg_current_snapshot())::text::bigint * 1024 $$;
