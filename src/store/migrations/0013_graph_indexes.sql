-- 0013: a project's edges found through an index (the vault, pruning and queries read every edge of a
-- project; without it each read scanned the links of every project). Covering: the key columns ride
-- along in a WITHOUT ROWID table's index.
CREATE INDEX links_by_project ON links (project_id);
