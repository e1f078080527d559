-- Signs of fraud (issue 46, item 6): the flags, each assembly's thresholds, the stations' locations.
CREATE TABLE "fraud_flags" (
    "id" CHAR(24) NOT NULL,
    "kind" VARCHAR(32) NOT NULL,
    "signKey" VARCHAR(400) NOT NULL,
    "assemblyId" CHAR(24) NOT NULL,
    "vehicleId" CHAR(24),
    "inspectorId" CHAR(24),
    "inspectionKey" VARCHAR(255),
    "details" JSONB NOT NULL,
    "raisedAt" TIMESTAMPTZ(3) NOT NULL,
    "clearedAt" TIMESTAMPTZ(3),
    "clearedBy" VARCHAR(64),
    "clearReason" TEXT,
    CONSTRAINT "fraud_flags_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "fraud_flags_signKey_key" ON "fraud_flags"("signKey");
CREATE INDEX "fraud_flags_assemblyId_raisedAt_id_idx" ON "fraud_flags"("assemblyId", "raisedAt" DESC, "id" DESC);
CREATE INDEX "fraud_flags_raisedAt_id_idx" ON "fraud_flags"("raisedAt" DESC, "id" DESC);

CREATE TABLE "fraud_settings" (
    "assemblyId" CHAR(24) NOT NULL,
    "minMinutesBetween" INTEGER NOT NULL,
    "maxKmFromStation" INTEGER NOT NULL,
    "minInspectionsForRate" INTEGER NOT NULL,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "fraud_settings_pkey" PRIMARY KEY ("assemblyId")
);

CREATE TABLE "station_locations" (
    "stationId" CHAR(24) NOT NULL,
    "location" JSONB NOT NULL,
    "setBy" VARCHAR(64) NOT NULL,
    "setAt" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "station_locations_pkey" PRIMARY KEY ("stationId")
);

CREATE INDEX "vehicle_inspections_inspectedBy_madeAt_idx" ON "vehicle_inspections"("inspectedBy", "madeAt");
