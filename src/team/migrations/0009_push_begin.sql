-- Team server, 0009: a push's reads before its write in one round trip. A push asked PostgreSQL three
-- times before it wrote — the project's head row in share mode, the advisory locks on the batch's
-- entities, then those entities' current rows — each a round trip of its own, as the rows must be read
-- by a statement that starts after the locks are granted (read committed: a statement sees what had
-- committed when it began). engram_push_begin does the same three steps, in the same order, inside one
-- call: a VOLATILE plpgsql function takes a new snapshot for each statement it runs, so the rows are
-- still read after the locks. It runs as its caller (engram_app, under row-level security), like the
-- statements it replaces. Immutable once released.
--
-- Rows returned: none when the tenant may not write the project (or it does not exist); else first the
-- head (kind NULL: moved_to, encrypted, key_version), then — unless the project moved, when nothing is
-- locked — one row per entity of the batch the project holds (kind, entity_id, version, hash, deleted,
-- author_name). An id PostgreSQL cannot hold is never passed (the server rejects that record).

CREATE FUNCTION engram_push_begin(p_project text, p_kinds text[], p_ids text[])
RETURNS TABLE (kind text, entity_id text, version integer, hash text, deleted boolean, author_name text,
               moved_to text, encrypted boolean, key_version integer)
LANGUAGE plpgsql VOLATILE AS $$
#variable_conflict use_column
DECLARE
  h record;
BEGIN
  -- The head row in share mode: pushes do not wait for each other, but a project move (which takes it
  -- for update) waits for the pushes in flight, and every later push sees the move.
  SELECT p.moved_to, hd.encrypted, hd.key_version INTO h
    FROM heads hd JOIN projects p ON p.id = hd.project_id
   WHERE hd.project_id = p_project AND engram_can(hd.project_id, 'write') FOR SHARE OF hd;
  IF NOT FOUND THEN
    RETURN;
  END IF;
  RETURN QUERY SELECT NULL::text, NULL::text, NULL::integer, NULL::text, NULL::boolean, NULL::text,
                      h.moved_to, h.encrypted, h.key_version;
  IF h.moved_to IS NOT NULL THEN
    RETURN;
  END IF;
  -- Two pushes of one entity take turns (in one sorted order, so two pushes cannot deadlock).
  PERFORM pg_advisory_xact_lock(hashtext(p_project), l) FROM
    (SELECT DISTINCT hashtext(k || ':' || i) AS l FROM unnest(p_kinds, p_ids) AS x (k, i) ORDER BY l) s;
  -- One primary-key probe per record whatever the statistics say (the lateral subquery with OFFSET 0 is
  -- planned on its own and names no project, so only the key index fits it); another project the tenant
  -- reads may hold the same id (a moved project's copies): those rows are dropped after the probe.
  RETURN QUERY SELECT e.kind, e.entity_id, e.version, e.hash, e.deleted, e.author_name,
                      NULL::text, NULL::boolean, NULL::integer
    FROM unnest(p_kinds, p_ids) AS x (k, i)
    CROSS JOIN LATERAL (SELECT en.project_id, en.kind, en.entity_id, en.version, en.hash, en.deleted,
                               en.author_name
                          FROM entities en WHERE en.kind = x.k AND en.entity_id = x.i OFFSET 0) e
   WHERE e.project_id = p_project;
END $$;
GRANT EXECUTE ON FUNCTION engram_push_begin(text, text[], text[]) TO engram_app;
