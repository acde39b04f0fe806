-- Team server, 0001: the initial schema. Immutable once released: change it with a new numbered file.
-- Runs as the database owner (the --db user). Requests run as the non-owner role engram_app, with
-- row-level security FORCEd on every table and the tenant set per transaction (engram_auth).

DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'engram_app') THEN
    CREATE ROLE engram_app NOLOGIN NOSUPERUSER NOBYPASSRLS;
  END IF;
  -- The connecting user switches to engram_app for every request (SET LOCAL ROLE).
  IF NOT (SELECT rolsuper FROM pg_roles WHERE rolname = current_user)
     AND NOT pg_has_role(current_user, 'engram_app', 'MEMBER') THEN
    EXECUTE format('GRANT engram_app TO %I', current_user);
  END IF;
END $$;

CREATE TABLE meta (
  key   text PRIMARY KEY,
  value text NOT NULL
);
-- The epoch names this database: a reset or a new server has another one, and clients start over.
INSERT INTO meta (key, value) VALUES ('epoch', gen_random_uuid()::text);

CREATE TABLE users (
  id            text PRIMARY KEY,
  name          text NOT NULL CHECK (name ~ '^[a-z0-9][a-z0-9._-]{0,62}$'),
  is_admin      boolean NOT NULL DEFAULT false,
  password_hash text,
  created_at    timestamptz NOT NULL DEFAULT now(),
  removed_at    timestamptz
);
CREATE UNIQUE INDEX users_name ON users (name) WHERE removed_at IS NULL;

CREATE TABLE tokens (
  id           text PRIMARY KEY,
  user_id      text NOT NULL REFERENCES users (id),
  token_hash   text NOT NULL UNIQUE,
  scopes       text[] NOT NULL CHECK (scopes <@ ARRAY['read', 'write', 'admin']::text[]),
  device       text NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  expires_at   timestamptz,
  last_used_at timestamptz,
  revoked_at   timestamptz
);
CREATE INDEX tokens_by_user ON tokens (user_id);

CREATE TABLE projects (
  id         text PRIMARY KEY,
  key        text NOT NULL UNIQUE,
  name       text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE members (
  project_id text NOT NULL REFERENCES projects (id),
  user_id    text NOT NULL REFERENCES users (id),
  role       text NOT NULL CHECK (role IN ('reader', 'writer', 'admin')),
  granted_at timestamptz NOT NULL DEFAULT now(),
  granted_by text,
  PRIMARY KEY (project_id, user_id)
);
CREATE INDEX members_by_user ON members (user_id);

-- One row per project: writers take it FOR UPDATE, so sequence numbers are handed out and committed
-- in the same order (a puller reading seq > cursor can never skip a row that commits later).
CREATE TABLE heads (
  project_id text PRIMARY KEY REFERENCES projects (id),
  last_seq   bigint NOT NULL DEFAULT 0
);

-- The latest version of every shared memory, summary and link (and tombstones: deleted, body NULL).
CREATE TABLE entities (
  project_id  text NOT NULL REFERENCES projects (id),
  kind        text NOT NULL CHECK (kind IN ('memory', 'summary', 'link')),
  entity_id   text NOT NULL,
  seq         bigint NOT NULL,
  version     integer NOT NULL,
  hash        text NOT NULL,
  deleted     boolean NOT NULL DEFAULT false,
  body        jsonb,
  author_id   text NOT NULL REFERENCES users (id),
  author_name text NOT NULL,
  device      text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (project_id, kind, entity_id),
  UNIQUE (project_id, seq),
  CHECK (deleted = (body IS NULL))
);

-- The last branch, commit and changed files per member and machine.
CREATE TABLE states (
  project_id text NOT NULL REFERENCES projects (id),
  user_id    text NOT NULL REFERENCES users (id),
  user_name  text NOT NULL,
  device     text NOT NULL,
  branch     text,
  commit_sha text,
  files      jsonb NOT NULL DEFAULT '[]',
  file_count integer NOT NULL DEFAULT 0,
  at         bigint NOT NULL,
  PRIMARY KEY (project_id, user_id, device)
);

-- Every read and write, hash-chained per project (chain = project id, or 'server' for the rest).
CREATE TABLE audit_log (
  chain      text NOT NULL,
  seq        bigint NOT NULL,
  at         bigint NOT NULL,
  user_id    text,
  user_name  text,
  device     text,
  action     text NOT NULL,
  target     text,
  detail     text,
  request_id text,
  prev_hash  text NOT NULL,
  hash       text NOT NULL,
  PRIMARY KEY (chain, seq)
);
CREATE TABLE audit_heads (
  chain     text PRIMARY KEY,
  last_seq  bigint NOT NULL,
  last_hash text NOT NULL
);

-- Fixed-window counters for the authentication rate limits (shared by every server instance).
CREATE TABLE rate_limits (
  key          text PRIMARY KEY,
  window_start bigint NOT NULL,
  count        integer NOT NULL
);

-- ---- the tenant, per transaction ----------------------------------------------------------------

CREATE FUNCTION engram_uid() RETURNS text LANGUAGE sql STABLE AS
$$ SELECT nullif(current_setting('engram.uid', true), '') $$;

CREATE FUNCTION engram_admin() RETURNS boolean LANGUAGE sql STABLE AS
$$ SELECT coalesce(current_setting('engram.admin', true), '') = 'on' $$;

-- level: read | write | manage (the projects the tenant may read, write, or administer).
CREATE FUNCTION engram_can(project text, level text) RETURNS boolean LANGUAGE sql STABLE AS
$$ SELECT project = ANY (string_to_array(coalesce(current_setting('engram.' || level, true), ''), ',')) $$;

-- Look a token up by its hash and make its user the tenant of this transaction. No row: not valid.
CREATE FUNCTION engram_auth(p_hash text)
RETURNS TABLE (user_id text, user_name text, is_admin boolean, token_id text, device text, scopes text[])
LANGUAGE plpgsql AS $$
DECLARE
  t record;
  r_read text;
  r_write text;
  r_manage text;
BEGIN
  PERFORM set_config('engram.token_hash', p_hash, true);
  SELECT tk.id, tk.user_id, tk.scopes, tk.device, tk.last_used_at, u.name, u.is_admin INTO t
    FROM tokens tk JOIN users u ON u.id = tk.user_id
   WHERE tk.token_hash = p_hash AND tk.revoked_at IS NULL
     AND (tk.expires_at IS NULL OR tk.expires_at > now()) AND u.removed_at IS NULL;
  IF NOT FOUND THEN
    RETURN;
  END IF;
  PERFORM set_config('engram.uid', t.user_id, true);
  PERFORM set_config('engram.admin', CASE WHEN t.is_admin AND 'admin' = ANY (t.scopes) THEN 'on' ELSE 'off' END, true);
  SELECT string_agg(m.project_id, ',') FILTER (WHERE 'read' = ANY (t.scopes)),
         string_agg(m.project_id, ',') FILTER (WHERE m.role IN ('writer', 'admin') AND 'write' = ANY (t.scopes) AND 'read' = ANY (t.scopes)),
         string_agg(m.project_id, ',') FILTER (WHERE m.role = 'admin' AND 'admin' = ANY (t.scopes))
    INTO r_read, r_write, r_manage
    FROM members m WHERE m.user_id = t.user_id;
  PERFORM set_config('engram.read', coalesce(r_read, ''), true);
  PERFORM set_config('engram.write', coalesce(r_write, ''), true);
  PERFORM set_config('engram.manage', coalesce(r_manage, ''), true);
  -- Last use at minute precision: one write per token per minute, not one per request.
  IF t.last_used_at IS NULL OR t.last_used_at < now() - interval '1 minute' THEN
    UPDATE tokens SET last_used_at = now() WHERE id = t.id;
  END IF;
  RETURN QUERY SELECT t.user_id, t.name, t.is_admin, t.id, t.device, t.scopes;
END $$;

-- ---- the audit chain ----------------------------------------------------------------------------

-- The bytes a row's hash covers: every field, length-prefixed (no separator can be forged), NULL as '-'.
CREATE FUNCTION engram_audit_bytes(
  chain text, seq bigint, at bigint, user_id text, user_name text, device text, action text,
  target text, detail text, request_id text, prev_hash text
) RETURNS bytea LANGUAGE sql IMMUTABLE AS $$
  SELECT convert_to(
    (SELECT string_agg(CASE WHEN f IS NULL THEN '-' ELSE length(f) || ':' || f END, '|' ORDER BY i)
       FROM unnest(ARRAY[chain, seq::text, at::text, user_id, user_name, device, action, target, detail,
                         request_id, prev_hash]) WITH ORDINALITY AS x (f, i)),
    'UTF8')
$$;

-- Append one row to a chain: the chain's head is locked, so rows of one chain are numbered and
-- linked in commit order.
CREATE FUNCTION engram_audit_append(
  p_chain text, p_at bigint, p_user_id text, p_user_name text, p_device text, p_action text,
  p_target text, p_detail text, p_request_id text
) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  h record;
  next_seq bigint;
  next_hash text;
BEGIN
  INSERT INTO audit_heads (chain, last_seq, last_hash) VALUES (p_chain, 0, '') ON CONFLICT (chain) DO NOTHING;
  SELECT last_seq, last_hash INTO h FROM audit_heads WHERE chain = p_chain FOR UPDATE;
  next_seq := h.last_seq + 1;
  next_hash := encode(sha256(engram_audit_bytes(p_chain, next_seq, p_at, p_user_id, p_user_name, p_device,
    p_action, p_target, p_detail, p_request_id, h.last_hash)), 'hex');
  INSERT INTO audit_log (chain, seq, at, user_id, user_name, device, action, target, detail, request_id, prev_hash, hash)
  VALUES (p_chain, next_seq, p_at, p_user_id, p_user_name, p_device, p_action, p_target, p_detail, p_request_id,
          h.last_hash, next_hash);
  UPDATE audit_heads SET last_seq = next_seq, last_hash = next_hash WHERE chain = p_chain;
  RETURN next_seq;
END $$;

-- ---- row-level security: FORCEd, so not even the owner reads around it --------------------------

ALTER TABLE meta ENABLE ROW LEVEL SECURITY;
ALTER TABLE meta FORCE ROW LEVEL SECURITY;
CREATE POLICY meta_read ON meta FOR SELECT USING (true);

ALTER TABLE users ENABLE ROW LEVEL SECURITY;
ALTER TABLE users FORCE ROW LEVEL SECURITY;
-- Project admins see users (by name, to grant them roles); everyone else only themselves.
CREATE POLICY users_read ON users FOR SELECT USING (
  id = engram_uid() OR engram_admin() OR coalesce(current_setting('engram.manage', true), '') <> ''
  OR id IN (SELECT tk.user_id FROM tokens tk WHERE tk.token_hash = current_setting('engram.token_hash', true)));
CREATE POLICY users_insert ON users FOR INSERT WITH CHECK (engram_admin());
CREATE POLICY users_update ON users FOR UPDATE USING (engram_admin()) WITH CHECK (engram_admin());

ALTER TABLE tokens ENABLE ROW LEVEL SECURITY;
ALTER TABLE tokens FORCE ROW LEVEL SECURITY;
CREATE POLICY tokens_read ON tokens FOR SELECT USING (
  token_hash = current_setting('engram.token_hash', true) OR user_id = engram_uid() OR engram_admin());
CREATE POLICY tokens_insert ON tokens FOR INSERT WITH CHECK (engram_admin());
CREATE POLICY tokens_update ON tokens FOR UPDATE
  USING (user_id = engram_uid() OR engram_admin()) WITH CHECK (user_id = engram_uid() OR engram_admin());

ALTER TABLE projects ENABLE ROW LEVEL SECURITY;
ALTER TABLE projects FORCE ROW LEVEL SECURITY;
CREATE POLICY projects_read ON projects FOR SELECT USING (
  engram_admin() OR engram_can(id, 'read') OR engram_can(id, 'manage'));
CREATE POLICY projects_insert ON projects FOR INSERT WITH CHECK (engram_admin());

ALTER TABLE members ENABLE ROW LEVEL SECURITY;
ALTER TABLE members FORCE ROW LEVEL SECURITY;
CREATE POLICY members_read ON members FOR SELECT USING (
  user_id = engram_uid() OR engram_admin() OR engram_can(project_id, 'manage'));
CREATE POLICY members_insert ON members FOR INSERT WITH CHECK (engram_admin() OR engram_can(project_id, 'manage'));
CREATE POLICY members_update ON members FOR UPDATE
  USING (engram_admin() OR engram_can(project_id, 'manage'))
  WITH CHECK (engram_admin() OR engram_can(project_id, 'manage'));
CREATE POLICY members_delete ON members FOR DELETE USING (engram_admin() OR engram_can(project_id, 'manage'));

ALTER TABLE heads ENABLE ROW LEVEL SECURITY;
ALTER TABLE heads FORCE ROW LEVEL SECURITY;
CREATE POLICY heads_read ON heads FOR SELECT USING (engram_can(project_id, 'read'));
CREATE POLICY heads_insert ON heads FOR INSERT WITH CHECK (engram_admin());
CREATE POLICY heads_update ON heads FOR UPDATE
  USING (engram_can(project_id, 'write')) WITH CHECK (engram_can(project_id, 'write'));

ALTER TABLE entities ENABLE ROW LEVEL SECURITY;
ALTER TABLE entities FORCE ROW LEVEL SECURITY;
CREATE POLICY entities_read ON entities FOR SELECT USING (engram_can(project_id, 'read'));
CREATE POLICY entities_insert ON entities FOR INSERT WITH CHECK (engram_can(project_id, 'write'));
CREATE POLICY entities_update ON entities FOR UPDATE
  USING (engram_can(project_id, 'write')) WITH CHECK (engram_can(project_id, 'write'));

ALTER TABLE states ENABLE ROW LEVEL SECURITY;
ALTER TABLE states FORCE ROW LEVEL SECURITY;
CREATE POLICY states_read ON states FOR SELECT USING (engram_can(project_id, 'read'));
CREATE POLICY states_insert ON states FOR INSERT
  WITH CHECK (engram_can(project_id, 'write') AND user_id = engram_uid());
CREATE POLICY states_update ON states FOR UPDATE
  USING (engram_can(project_id, 'write') AND user_id = engram_uid())
  WITH CHECK (engram_can(project_id, 'write') AND user_id = engram_uid());

ALTER TABLE audit_log ENABLE ROW LEVEL SECURITY;
ALTER TABLE audit_log FORCE ROW LEVEL SECURITY;
CREATE POLICY audit_read ON audit_log FOR SELECT USING (engram_admin() OR engram_can(chain, 'manage'));
CREATE POLICY audit_insert ON audit_log FOR INSERT WITH CHECK (true);

ALTER TABLE audit_heads ENABLE ROW LEVEL SECURITY;
ALTER TABLE audit_heads FORCE ROW LEVEL SECURITY;
CREATE POLICY audit_heads_all ON audit_heads FOR ALL USING (true) WITH CHECK (true);

ALTER TABLE rate_limits ENABLE ROW LEVEL SECURITY;
ALTER TABLE rate_limits FORCE ROW LEVEL SECURITY;
CREATE POLICY rate_limits_all ON rate_limits FOR ALL USING (true) WITH CHECK (true);

-- ---- what the application role may do at all (RLS then narrows it to the tenant's rows) ----------

GRANT USAGE ON SCHEMA public TO engram_app;
GRANT SELECT ON meta TO engram_app;
GRANT SELECT, INSERT, UPDATE ON users, tokens TO engram_app;
GRANT SELECT, INSERT ON projects TO engram_app;
GRANT SELECT, INSERT, UPDATE, DELETE ON members TO engram_app;
GRANT SELECT, INSERT, UPDATE ON heads, entities, states TO engram_app;
GRANT SELECT, INSERT ON audit_log TO engram_app;
GRANT SELECT, INSERT, UPDATE ON audit_heads TO engram_app;
GRANT SELECT, INSERT, UPDATE, DELETE ON rate_limits TO engram_app;
