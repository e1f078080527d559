-- Merchant notifications (outbox) with their delivery attempts, and the index the callback recovery sweep reads.
-- CreateTable
CREATE TABLE "payment_notifications" (
    "id" CHAR(24) NOT NULL,
    "transactionId" CHAR(24) NOT NULL,
    "url" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMPTZ(3) NOT NULL,
    "lastAttemptAt" TIMESTAMPTZ(3),
    "deliveredAt" TIMESTAMPTZ(3),

    CONSTRAINT "payment_notifications_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "payment_delivery_attempts" (
    "id" BIGSERIAL NOT NULL,
    "notificationId" CHAR(24) NOT NULL,
    "attempt" INTEGER NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL,
    "statusCode" INTEGER,
    "latencyMs" INTEGER NOT NULL,
    "error" TEXT,
    "outcome" TEXT NOT NULL,

    CONSTRAINT "payment_delivery_attempts_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "payment_notifications_transactionId_key" ON "payment_notifications"("transactionId");

-- CreateIndex
CREATE INDEX "payment_notifications_status_createdAt_idx" ON "payment_notifications"("status", "createdAt");

-- CreateIndex
CREATE INDEX "payment_delivery_attempts_notificationId_id_idx" ON "payment_delivery_attempts"("notificationId", "id");

-- CreateIndex
CREATE INDEX "payment_callbacks_processedAt_id_idx" ON "payment_callbacks"("processedAt", "id");

-- AddForeignKey
ALTER TABLE "payment_notifications" ADD CONSTRAINT "payment_notifications_transactionId_fkey" FOREIGN KEY ("transactionId") REFERENCES "transactions"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "payment_delivery_attempts" ADD CONSTRAINT "payment_delivery_attempts_notificationId_fkey" FOREIGN KEY ("notificationId") REFERENCES "payment_notifications"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

