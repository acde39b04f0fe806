-- Team server, 0002: who first shared each entity, and from which machine. `author_name`/`device` stay
-- the last pusher's (conflicts name them); the origin keeps a memory attributed to its author when a
-- teammate edits or pins it. Immutable once released.

ALTER TABLE entities ADD COLUMN origin_name text, ADD COLUMN origin_device text;
UPDATE entities SET origin_name = author_name, origin_device = device;
