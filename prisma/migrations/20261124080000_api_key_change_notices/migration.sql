-- Instances keep the keys they authenticated for a few seconds (API_KEY_CACHE_SECONDS) instead of reading the key on
-- every request. So that a revocation still takes effect at once, whoever makes it (an instance, the operator's `keys`
-- command, plain SQL), every change that alters who a key authenticates notifies the channel `api_keys_changed`; each
-- instance listens and forgets the keys it kept (persistence/key-changes.ts). Notices are sent on commit.
CREATE FUNCTION "notify_api_keys_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('api_keys_changed', TG_TABLE_NAME);
  RETURN NULL;
END;
$$;

-- A key revoked, expiring, re-scoped or deleted (not its hourly lastUsedAt).
CREATE TRIGGER "api_keys_changed"
  AFTER UPDATE OF "revokedAt", "expiresAt", "role", "principalId", "keyHash" OR DELETE ON "api_keys"
  FOR EACH STATEMENT EXECUTE FUNCTION "notify_api_keys_changed"();

-- An assembly key works in its user's assembly as it is now: a user moved or removed changes what their keys do.
CREATE TRIGGER "assembly_users_changed"
  AFTER UPDATE OF "assemblyId" OR DELETE ON "assembly_users"
  FOR EACH STATEMENT EXECUTE FUNCTION "notify_api_keys_changed"();
