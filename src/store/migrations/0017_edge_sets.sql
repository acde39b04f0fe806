-- 0017: one change-log row for the edges the graph step derives from one node at once (a memory's
-- touches / part_of / links_to edges, a session's touches), instead of one row per edge: `edges` holds
-- them as a JSON array of [kind, to] pairs, the row's entity is 'link', its op 'add' and its entity_id
-- the node the edges leave. Readers never see such a row as it is: the change log's reader gives one
-- change per edge ("<from> <kind> <to>"), each with the row's sequence number. NULL on every other row.
ALTER TABLE changes ADD COLUMN edges TEXT;
