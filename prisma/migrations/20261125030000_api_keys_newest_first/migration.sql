-- GET /admin/keys is keyset-paged newest first, like every other list: the index every list pages on.
CREATE INDEX "api_keys_createdAt_id_idx" ON "api_keys"("createdAt" DESC, "id" DESC);
