-- Payments that hold under attack: intent first (requestInfo is absent while a transaction is `requesting`), a
-- ClientReference unique across the platform, the provider's TransactionId, expiring callback tokens, a dead-letter
-- table for callbacks that name no transaction, signing-secret rotation, paused notifications and shared rate limits.

-- AlterTable
ALTER TABLE "merchants" ADD COLUMN     "notifyFailingSince" TIMESTAMPTZ(3),
ADD COLUMN     "notifyPausedAt" TIMESTAMPTZ(3),
ADD COLUMN     "previousSecretUntil" TIMESTAMPTZ(3),
ADD COLUMN     "previousSigningSecret" TEXT;

-- AlterTable
ALTER TABLE "payment_callback_tokens" ADD COLUMN     "expiresAt" TIMESTAMPTZ(3);

-- AlterTable: existing transactions were sent to the provider under the merchant's reference, so that stays their
-- ClientReference. Where two merchants used the same reference (the provider saw one payment for both), the oldest
-- keeps it and the others get their own id: their callbacks then no longer match, and the status API settles them.
ALTER TABLE "transactions" ADD COLUMN     "providerReference" TEXT,
ADD COLUMN     "providerTransactionId" TEXT,
ALTER COLUMN "requestInfo" DROP NOT NULL;

UPDATE "transactions" t SET
  "providerReference" = CASE WHEN r."rank" = 1 THEN t."reference" ELSE t."id" END,
  "providerTransactionId" = NULLIF(t."requestInfo" -> 'Data' ->> 'TransactionId', '')
FROM (SELECT "id", row_number() OVER (PARTITION BY "reference" ORDER BY "createdAt", "id") AS "rank"
      FROM "transactions") r
WHERE r."id" = t."id";

ALTER TABLE "transactions" ALTER COLUMN "providerReference" SET NOT NULL;

-- CreateTable
CREATE TABLE "payment_dead_letters" (
    "id" BIGSERIAL NOT NULL,
    "receivedAt" TIMESTAMPTZ(3) NOT NULL,
    "reason" TEXT NOT NULL,
    "transactionId" CHAR(24),
    "headers" JSONB NOT NULL,
    "body" TEXT NOT NULL,

    CONSTRAINT "payment_dead_letters_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "rate_limits" (
    "key" VARCHAR(255) NOT NULL,
    "points" INTEGER NOT NULL DEFAULT 0,
    "expire" BIGINT,

    CONSTRAINT "rate_limits_pkey" PRIMARY KEY ("key")
);

-- CreateIndex
CREATE INDEX "payment_dead_letters_receivedAt_idx" ON "payment_dead_letters"("receivedAt");

-- CreateIndex
CREATE UNIQUE INDEX "transactions_providerReference_key" ON "transactions"("providerReference");
