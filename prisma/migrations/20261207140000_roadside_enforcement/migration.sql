-- Roadside enforcement (issue 47): nationwide enforcers, the check log, offence catalogues and notices.
ALTER TABLE "assembly_users" ADD COLUMN "nationwide" BOOLEAN NOT NULL DEFAULT false;

CREATE TABLE "roadside_checks" (
    "id" CHAR(24) NOT NULL,
    "officerId" CHAR(24) NOT NULL,
    "assemblyId" CHAR(24) NOT NULL,
    "vehicleId" CHAR(24),
    "by" VARCHAR(8) NOT NULL,
    "query" VARCHAR(40),
    "madeAt" TIMESTAMPTZ(3) NOT NULL,
    "location" JSONB,
    "createdAt" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "roadside_checks_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "roadside_checks_assemblyId_createdAt_id_idx" ON "roadside_checks"("assemblyId", "createdAt" DESC, "id" DESC);
CREATE INDEX "roadside_checks_vehicleId_idx" ON "roadside_checks"("vehicleId");

CREATE TABLE "offence_catalogues" (
    "assemblyId" CHAR(24) NOT NULL,
    "version" INTEGER NOT NULL,
    "offences" JSONB NOT NULL,
    "publishedBy" VARCHAR(64) NOT NULL,
    "publishedAt" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "offence_catalogues_pkey" PRIMARY KEY ("assemblyId", "version")
);

CREATE TABLE "notices" (
    "id" CHAR(24) NOT NULL,
    "assemblyId" CHAR(24) NOT NULL,
    "vehicleId" CHAR(24) NOT NULL,
    "driverId" CHAR(24),
    "officerId" CHAR(24) NOT NULL,
    "catalogueVersion" INTEGER NOT NULL,
    "offences" JSONB NOT NULL,
    "notes" TEXT,
    "madeAt" TIMESTAMPTZ(3) NOT NULL,
    "madeWhere" JSONB,
    "status" VARCHAR(12) NOT NULL,
    "fine" INTEGER NOT NULL,
    "surcharge" INTEGER NOT NULL,
    "dueAt" TIMESTAMPTZ(3) NOT NULL,
    "contestBy" TIMESTAMPTZ(3),
    "contest" JSONB,
    "decision" JSONB,
    "cancellation" JSONB,
    "paid" INTEGER NOT NULL DEFAULT 0,
    "refundDue" INTEGER NOT NULL DEFAULT 0,
    "paidAt" TIMESTAMPTZ(3),
    "version" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMPTZ(3) NOT NULL,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "notices_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "notices_vehicleId_createdAt_idx" ON "notices"("vehicleId", "createdAt" DESC);
CREATE INDEX "notices_assemblyId_createdAt_id_idx" ON "notices"("assemblyId", "createdAt" DESC, "id" DESC);
CREATE INDEX "notices_status_dueAt_idx" ON "notices"("status", "dueAt");
