-- Team server, 0004: a project moved into another (a rename or a changed remote on a client). The old
-- project's entities are copied into the new one, and `moved_to` tells every puller of the old project
-- where it went. Only someone who manages the old project may set it. Immutable once released.

ALTER TABLE projects ADD COLUMN moved_to text REFERENCES projects (id);
CREATE POLICY projects_move ON projects FOR UPDATE
  USING (engram_admin() OR engram_can(id, 'manage'))
  WITH CHECK (engram_admin() OR engram_can(id, 'manage'));
GRANT UPDATE (moved_to) ON projects TO engram_app;
