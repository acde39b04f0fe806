-- Team server, 0005: sign-ins of the web view. A web session is a row of `tokens` marked `web`: its
-- secret lives only in the browser's HttpOnly cookie, it is never accepted as a bearer token by the
-- API (engram_auth skips it), and the web view's requests set the same tenant from it
-- (engram_web_auth), so row-level security is the same for both. Immutable once released.

ALTER TABLE tokens ADD COLUMN web boolean NOT NULL DEFAULT false;

-- The tenant of a token of one kind (API or web): the body of engram_auth from 0001, with the kind.
CREATE FUNCTION engram_auth_kind(p_hash text, p_web boolean)
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
   WHERE tk.token_hash = p_hash AND tk.web = p_web AND tk.revoked_at IS NULL
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
  IF t.last_used_at IS NULL OR t.last_used_at < now() - interval '1 minute' THEN
    UPDATE tokens SET last_used_at = now() WHERE id = t.id;
  END IF;
  RETURN QUERY SELECT t.user_id, t.name, t.is_admin, t.id, t.device, t.scopes;
END $$;

-- The API's bearer tokens only (a web session's secret is refused here).
CREATE OR REPLACE FUNCTION engram_auth(p_hash text)
RETURNS TABLE (user_id text, user_name text, is_admin boolean, token_id text, device text, scopes text[])
LANGUAGE sql AS $$ SELECT * FROM engram_auth_kind(p_hash, false) $$;

-- The web view's session cookies only.
CREATE FUNCTION engram_web_auth(p_hash text)
RETURNS TABLE (user_id text, user_name text, is_admin boolean, token_id text, device text, scopes text[])
LANGUAGE sql AS $$ SELECT * FROM engram_auth_kind(p_hash, true) $$;

-- The web view's search over shared memories: the words of the title, subtitle, narrative and facts,
-- stemmed (English), kept with each memory (ranking reads them instead of parsing every match again).
ALTER TABLE entities ADD COLUMN words tsvector GENERATED ALWAYS AS (
  CASE WHEN kind = 'memory' AND NOT deleted THEN
    to_tsvector('english', coalesce(body ->> 'title', '') || ' ' || coalesce(body ->> 'subtitle', '') || ' ' ||
                           coalesce(body ->> 'narrative', '') || ' ' || coalesce(body ->> 'facts', ''))
  END) STORED;
CREATE INDEX entities_memory_words ON entities USING gin (words) WHERE kind = 'memory' AND NOT deleted;
