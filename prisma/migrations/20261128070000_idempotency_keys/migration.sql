-- The answers of state changes sent with an Idempotency-Key (issue 43): a phone whose answer was lost re-sends its
-- queued inspection with the same key and gets the original answer, not a false conflict or a second inspection.
-- A new table only: nothing existing changes.

CREATE TABLE "idempotency_keys" (
    "actorId" VARCHAR(64) NOT NULL,
    "key" VARCHAR(255) NOT NULL,
    "route" VARCHAR(300) NOT NULL,
    "bodyHash" CHAR(64) NOT NULL,
    "status" INTEGER NOT NULL,
    "body" JSONB,
    "createdAt" TIMESTAMPTZ(3) NOT NULL,
    "expiresAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "idempotency_keys_pkey" PRIMARY KEY ("actorId","key")
);

-- The scheduled purge deletes the expired ones.
CREATE INDEX "idempotency_keys_expiresAt_idx" ON "idempotency_keys"("expiresAt");
