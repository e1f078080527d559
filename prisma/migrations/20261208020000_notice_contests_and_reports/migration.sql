-- Roadside enforcement (issue 47, items 6 and 7): each assembly's enforcement settings, and the indexes of the
-- reports (an officer's own day; amounts collected by the day paid).
CREATE TABLE "enforcement_settings" (
    "assemblyId" CHAR(24) NOT NULL,
    "overdueBlocksVehicle" BOOLEAN NOT NULL DEFAULT false,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "enforcement_settings_pkey" PRIMARY KEY ("assemblyId")
);

CREATE INDEX "notices_officerId_createdAt_idx" ON "notices"("officerId", "createdAt" DESC);
CREATE INDEX "notices_assemblyId_paidAt_idx" ON "notices"("assemblyId", "paidAt");
CREATE INDEX "roadside_checks_officerId_createdAt_idx" ON "roadside_checks"("officerId", "createdAt" DESC);
