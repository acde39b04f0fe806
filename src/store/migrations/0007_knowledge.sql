-- 0007: knowledge, not logs.
-- A memory may name its subject (`command:test`, `fail:test`, `env:port:dev`…): the same knowledge
-- seen again is merged into the memory of that subject, a newer claim on it supersedes the older,
-- and a later fix closes an open failure of the same subject. Only active memories need finding.
ALTER TABLE observations ADD COLUMN subject TEXT;
CREATE INDEX observations_by_subject ON observations (project_id, subject)
  WHERE subject IS NOT NULL AND status = 'active';

-- The end of each transcript's parentUuid chain (JSON), so a rewind to a point read before is still
-- recognised when the next part of the file is read.
ALTER TABLE transcript_files ADD COLUMN chain TEXT NOT NULL DEFAULT '[]';
