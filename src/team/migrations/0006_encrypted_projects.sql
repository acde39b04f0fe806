-- Team server, 0006: end-to-end encrypted projects. Once a sealed record (a body the client encrypted
-- with the project key) reaches a project, the project is encrypted for good: the server takes only
-- sealed records for it from then on, so a member without the key cannot leak plain text into it.
-- The flag sits on the project's head row, which writers may update. Immutable once released.

ALTER TABLE heads ADD COLUMN encrypted boolean NOT NULL DEFAULT false;
