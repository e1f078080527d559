-- A merchant may use a reference again once the payment under it failed, as the original service let it (a retry),
-- and every attempt is kept (an import carries the original's retries). So (merchantId, reference) is no longer
-- unique; at most one attempt that has not failed holds a reference, which keeps two racing requests from both
-- starting a payment. Prisma cannot declare a partial index: this one lives in the migrations only (its name is
-- not in schema.prisma). Existing rows are unique per (merchantId, reference) already, so both indexes build.
CREATE INDEX "transactions_merchantId_reference_idx" ON "transactions"("merchantId", "reference");
CREATE UNIQUE INDEX "transactions_merchantId_reference_held_key" ON "transactions"("merchantId", "reference") WHERE "status" <> 'failed';
DROP INDEX "transactions_merchantId_reference_key";
