-- Off-boarding: a disabled assembly user cannot sign in, and their sessions and API keys stop working until an admin
-- enables them again.
ALTER TABLE "assembly_users" ADD COLUMN "disabledAt" TIMESTAMPTZ(3);

-- A person has one account: a phone already held by another assembly user is refused (checked when a user is added;
-- not a unique index, so that data imported from before the rule still migrates).
CREATE INDEX "assembly_users_phone_idx" ON "assembly_users"("phone");

-- Disabling or enabling a user changes what their keys do: instances forget the keys they kept.
DROP TRIGGER "assembly_users_changed" ON "assembly_users";
CREATE TRIGGER "assembly_users_changed"
  AFTER UPDATE OF "assemblyId", "disabledAt" OR DELETE ON "assembly_users"
  FOR EACH STATEMENT EXECUTE FUNCTION "notify_api_keys_changed"();
