-- Registry search (GET /search) and the staff lists' station and union filters, each served by an index.

-- A plate typed any way ("GR1001-24", "gr 1001 24", "1001") is compared on its letters and digits only. Stored plates
-- are already upper case with only spaces and hyphens between (the domain normalises them), so dropping those two
-- characters gives the same key the API computes from the query. Prisma cannot declare an expression index: this one
-- lives in the migrations only (its name is not in schema.prisma).
CREATE INDEX "vehicles_plate_key_trgm_idx" ON "vehicles" USING GIN ((translate("registrationNumber", ' -', '')) gin_trgm_ops);
CREATE INDEX "vehicles_vin_trgm_idx" ON "vehicles" USING GIN ("vin" gin_trgm_ops);

CREATE INDEX "drivers_name_trgm_idx" ON "drivers" USING GIN ("name" gin_trgm_ops);
CREATE INDEX "drivers_phone_trgm_idx" ON "drivers" USING GIN ("phone" gin_trgm_ops);
CREATE INDEX "drivers_email_trgm_idx" ON "drivers" USING GIN ("email" gin_trgm_ops);
CREATE INDEX "drivers_license_trgm_idx" ON "drivers" USING GIN ("license" gin_trgm_ops);

CREATE INDEX "vehicles_stationId_createdAt_id_idx" ON "vehicles"("stationId", "createdAt" DESC, "id" DESC);
CREATE INDEX "vehicles_transportUnionId_createdAt_id_idx" ON "vehicles"("transportUnionId", "createdAt" DESC, "id" DESC);
