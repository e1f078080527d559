-- A driver's email is unique among activated drivers only: a registration with an email another driver holds is kept
-- (awaiting activation), so the answer to an anonymous registration no longer tells whether an email is registered;
-- the activation of a second driver with an activated driver's email is refused (DRIVER_EMAIL_TAKEN). Emails are
-- stored lower-cased, so both indexes are case-insensitive. Existing emails are all unique: the new index holds them.
-- Prisma cannot declare a partial unique index: drivers_email_verified_key lives here only (schema.prisma says so).
DROP INDEX "drivers_email_key";

CREATE INDEX "drivers_email_idx" ON "drivers"("email");

CREATE UNIQUE INDEX "drivers_email_verified_key" ON "drivers"("email") WHERE "verified";
