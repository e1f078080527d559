-- Activation keys expire (24 h after they are issued) and wrong keys delay the next try instead of locking the
-- driver out. Keys already issued get their 24 h from now, so no driver waiting to activate loses the key in hand;
-- drivers the old rule locked (five wrong keys) may try again.
-- AlterTable
ALTER TABLE "drivers" ADD COLUMN     "activationKeyExpiresAt" TIMESTAMPTZ(3),
ADD COLUMN     "activationRetryAt" TIMESTAMPTZ(3);

UPDATE "drivers" SET "activationKeyExpiresAt" = now() + interval '24 hours';

ALTER TABLE "drivers" ALTER COLUMN "activationKeyExpiresAt" SET NOT NULL;

-- The local message outbox (development and tests, when no SMS gateway is configured): activation keys reach the
-- driver's phone through a messaging port, never staff.
-- CreateTable
CREATE TABLE "outbox_messages" (
    "id" BIGSERIAL NOT NULL,
    "to" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "outbox_messages_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "outbox_messages_to_id_idx" ON "outbox_messages"("to", "id");
