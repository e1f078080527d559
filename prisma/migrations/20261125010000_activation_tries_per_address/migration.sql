-- The delay after wrong activation keys is kept per client address (a stranger's guesses no longer delay the driver's
-- own phone): drivers lose the one shared retry time and keep each address's tries.
ALTER TABLE "drivers" ADD COLUMN "activationTries" JSONB NOT NULL DEFAULT '{}';
ALTER TABLE "drivers" DROP COLUMN "activationRetryAt";

-- Activation keys are hashed with HMAC-SHA256 and a server secret from this release on; the scrypt hashes of earlier
-- releases verify nothing, so their keys are expired now (the driver asks the assembly for a new one, sent by SMS)
-- rather than failing as wrong keys.
UPDATE "drivers"
SET "activationKeyExpiresAt" = LEAST("activationKeyExpiresAt", now())
WHERE "verified" = false AND "activationKeyHash" LIKE 'scrypt$%';
