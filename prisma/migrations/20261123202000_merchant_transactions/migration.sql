-- A merchant's own transaction list (GET /payment/transactions): newest first, by state or not, keyset-paged.
CREATE INDEX "transactions_merchantId_createdAt_id_idx" ON "transactions"("merchantId", "createdAt" DESC, "id" DESC);
CREATE INDEX "transactions_merchantId_status_createdAt_id_idx" ON "transactions"("merchantId", "status", "createdAt" DESC, "id" DESC);
