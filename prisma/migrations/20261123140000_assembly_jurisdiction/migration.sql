-- Jurisdiction: owners, vehicles, drivers and trips belong to an assembly (null: unassigned, visible to admins only).
-- Admins move owners, vehicles and drivers between assemblies with POST .../transfer (audited).
-- AlterTable
ALTER TABLE "drivers" ADD COLUMN     "assemblyId" CHAR(24);

-- AlterTable
ALTER TABLE "trips" ADD COLUMN     "assemblyId" CHAR(24);

-- AlterTable
ALTER TABLE "vehicle_owners" ADD COLUMN     "assemblyId" CHAR(24);

-- AlterTable
ALTER TABLE "vehicles" ADD COLUMN     "assemblyId" CHAR(24);

-- CreateIndex
CREATE INDEX "drivers_assemblyId_createdAt_id_idx" ON "drivers"("assemblyId", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "trips_assemblyId_createdAt_id_idx" ON "trips"("assemblyId", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "vehicle_owners_assemblyId_createdAt_id_idx" ON "vehicle_owners"("assemblyId", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "vehicles_assemblyId_createdAt_id_idx" ON "vehicles"("assemblyId", "createdAt" DESC, "id" DESC);

-- AddForeignKey
ALTER TABLE "vehicle_owners" ADD CONSTRAINT "vehicle_owners_assemblyId_fkey" FOREIGN KEY ("assemblyId") REFERENCES "assemblies"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "vehicles" ADD CONSTRAINT "vehicles_assemblyId_fkey" FOREIGN KEY ("assemblyId") REFERENCES "assemblies"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "drivers" ADD CONSTRAINT "drivers_assemblyId_fkey" FOREIGN KEY ("assemblyId") REFERENCES "assemblies"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "trips" ADD CONSTRAINT "trips_assemblyId_fkey" FOREIGN KEY ("assemblyId") REFERENCES "assemblies"("id") ON DELETE RESTRICT ON UPDATE CASCADE;


-- Backfill: a record staff already worked on belongs to that staff member's assembly (its approver's, else its
-- inspector's or revoker's); an owner to the assembly of its earliest placed vehicle; a trip to its vehicle's.
-- Everything else stays unassigned until an admin transfers it.
UPDATE "vehicles" v SET "assemblyId" = u."assemblyId"
  FROM "assembly_users" u WHERE u."id" = COALESCE(v."approvedBy", v."inspectedBy");
UPDATE "drivers" d SET "assemblyId" = u."assemblyId"
  FROM "assembly_users" u WHERE u."id" = COALESCE(d."approvedBy", d."revokedBy");
UPDATE "vehicle_owners" o SET "assemblyId" = (
  SELECT v."assemblyId" FROM "vehicles" v
   WHERE v."ownerId" = o."id" AND v."assemblyId" IS NOT NULL
   ORDER BY v."createdAt", v."id" LIMIT 1
);
UPDATE "trips" t SET "assemblyId" = v."assemblyId"
  FROM "trip_services" s JOIN "vehicles" v ON v."id" = s."vehicle"->>'id'
 WHERE s."tripId" = t."id" AND v."assemblyId" IS NOT NULL;
