-- Team server, 0007: project keys wrapped per member device. A machine enrols its device public key
-- (X25519) in each project it may read; a member holding the project key wraps each key version for
-- an enrolled device (the wrap is ciphertext only its device can open), and the server hands a member
-- only the wraps addressed to their own devices. The server never holds a private key or a project key.
-- A device's enrolment (and so every wrap for it) goes when its user leaves the project, is removed,
-- or its token is revoked: a key rotated afterwards is never wrapped for it. Immutable once released.

CREATE TABLE project_devices (
  project_id  text NOT NULL REFERENCES projects (id),
  device_id   text NOT NULL CHECK (device_id ~ '^dk_[0-9a-f]{32}$'),
  user_id     text NOT NULL REFERENCES users (id),
  user_name   text NOT NULL,
  token_id    text NOT NULL REFERENCES tokens (id),
  device      text NOT NULL,
  public_key  text NOT NULL CHECK (public_key ~ '^[A-Za-z0-9_-]{43}$'),
  enrolled_at bigint NOT NULL,
  PRIMARY KEY (project_id, device_id)
);
CREATE INDEX project_devices_by_token ON project_devices (token_id);

CREATE TABLE key_wraps (
  project_id   text NOT NULL,
  key_version  integer NOT NULL CHECK (key_version > 0),
  device_id    text NOT NULL,
  recipient_id text NOT NULL REFERENCES users (id),
  sender_device text NOT NULL,
  wrapped_by   text NOT NULL REFERENCES users (id),
  wrap         jsonb NOT NULL,
  at           bigint NOT NULL,
  PRIMARY KEY (project_id, key_version, device_id),
  FOREIGN KEY (project_id, device_id) REFERENCES project_devices (project_id, device_id) ON DELETE CASCADE
);

-- Readers of a project see its enrolled devices (whose, the name, the public key: what a wrapper needs);
-- so do its admins and server admins, whose removals end enrolments (a DELETE sees only rows it may
-- read). A machine enrols only itself.
ALTER TABLE project_devices ENABLE ROW LEVEL SECURITY;
ALTER TABLE project_devices FORCE ROW LEVEL SECURITY;
CREATE POLICY project_devices_read ON project_devices FOR SELECT USING (
  engram_can(project_id, 'read') OR user_id = engram_uid() OR engram_admin() OR engram_can(project_id, 'manage'));
CREATE POLICY project_devices_insert ON project_devices FOR INSERT
  WITH CHECK (engram_can(project_id, 'read') AND user_id = engram_uid());
CREATE POLICY project_devices_update ON project_devices FOR UPDATE
  USING (engram_can(project_id, 'read') AND user_id = engram_uid())
  WITH CHECK (engram_can(project_id, 'read') AND user_id = engram_uid());
CREATE POLICY project_devices_delete ON project_devices FOR DELETE
  USING (user_id = engram_uid() OR engram_admin() OR engram_can(project_id, 'manage'));

-- A wrap's row is seen by readers of the project (which versions each device holds: `team key status`);
-- the API hands out a wrap's ciphertext only to its recipient. Any reader may wrap (it must hold the key
-- to make a wrap that opens).
ALTER TABLE key_wraps ENABLE ROW LEVEL SECURITY;
ALTER TABLE key_wraps FORCE ROW LEVEL SECURITY;
CREATE POLICY key_wraps_read ON key_wraps FOR SELECT USING (engram_can(project_id, 'read'));
CREATE POLICY key_wraps_insert ON key_wraps FOR INSERT
  WITH CHECK (engram_can(project_id, 'read') AND wrapped_by = engram_uid());
CREATE POLICY key_wraps_update ON key_wraps FOR UPDATE
  USING (engram_can(project_id, 'read'))
  WITH CHECK (engram_can(project_id, 'read') AND wrapped_by = engram_uid());

-- Leaving a project, being removed, or a revoked token ends the device's enrolment (and its wraps, by
-- the cascade). Triggers, so every path that does one of these does the other.
CREATE FUNCTION engram_unenrol_member() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM project_devices WHERE project_id = OLD.project_id AND user_id = OLD.user_id;
  RETURN OLD;
END $$;
CREATE TRIGGER members_unenrol AFTER DELETE ON members FOR EACH ROW EXECUTE FUNCTION engram_unenrol_member();

CREATE FUNCTION engram_unenrol_token() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM project_devices WHERE token_id = NEW.id;
  RETURN NEW;
END $$;
CREATE TRIGGER tokens_unenrol AFTER UPDATE OF revoked_at ON tokens FOR EACH ROW
  WHEN (NEW.revoked_at IS NOT NULL AND OLD.revoked_at IS NULL) EXECUTE FUNCTION engram_unenrol_token();

GRANT SELECT, INSERT, UPDATE, DELETE ON project_devices TO engram_app;
GRANT SELECT, INSERT, UPDATE ON key_wraps TO engram_app;
