-- Team server, 0010: engram_push_begin plans its statements for each call. A plpgsql function keeps
-- the plans of its statements for the connection's life, and after five calls may settle on a generic
-- plan made from the statistics of that moment. Row-level security adds `project_id = ANY (the
-- tenant's readable projects)` to the lookup of the batch's entities, which the (project_id, seq) index
-- fits as well as the primary key: a generic plan made while the table was small could take that
-- index and keep it, and then each probe read every row of the project (measured: 24 ms for the
-- lookup of a push of 10 records at 8,000 rows, growing with the project). Planned for each call, with
-- the project and the table's current size known, the lookup probes the primary key (about 0.1 ms of
-- planning a push). The function itself is unchanged. Immutable once released.

ALTER FUNCTION engram_push_begin(text, text[], text[]) SET plan_cache_mode = force_custom_plan;
