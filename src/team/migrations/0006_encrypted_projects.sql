-- Team server, 0006: end-to-end encrypted projects. Once a sealed record (a body the client encrypted
-- with the project key) reaches a project, the project is encrypted for good: the server takes only
-- sealed records for it from then on, so a member without the key cannot leak plain text into it.
-- `key_version` is the newest key version a record was sealed with: a record sealed with an older one
-- is refused (after a rotation, a member still on the old key cannot keep writing what a removed
-- member could read). Both sit on the project's head row, which writers may update; pushes only read
-- it, except the first of a new key version. Immutable once released.

ALTER TABLE heads ADD COLUMN encrypted boolean NOT NULL DEFAULT false;
ALTER TABLE heads ADD COLUMN key_version integer NOT NULL DEFAULT 0;
