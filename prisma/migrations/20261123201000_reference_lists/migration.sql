-- Lists of regions, stations and transport unions (drop-down lists): newest first, keyset-paged like every list.
CREATE INDEX "regions_createdAt_id_idx" ON "regions"("createdAt" DESC, "id" DESC);
CREATE INDEX "stations_createdAt_id_idx" ON "stations"("createdAt" DESC, "id" DESC);
CREATE INDEX "transport_unions_createdAt_id_idx" ON "transport_unions"("createdAt" DESC, "id" DESC);
