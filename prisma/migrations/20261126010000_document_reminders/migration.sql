-- Reminders before documents lapse: who asked to stop them, and one row per reminder claimed (document, expiry,
-- threshold), unique so that two instances never send the same one.
ALTER TABLE "vehicle_owners" ADD COLUMN "remindersStoppedAt" TIMESTAMPTZ(3);
ALTER TABLE "drivers" ADD COLUMN "remindersStoppedAt" TIMESTAMPTZ(3);

CREATE TABLE "document_reminders" (
    "id" BIGSERIAL NOT NULL,
    "entity" TEXT NOT NULL,
    "entityId" CHAR(24) NOT NULL,
    "document" TEXT NOT NULL,
    "expiry" TIMESTAMPTZ(3) NOT NULL,
    "threshold" INTEGER NOT NULL,
    "status" TEXT NOT NULL,
    "reason" TEXT,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMPTZ(3) NOT NULL,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,
    "sentAt" TIMESTAMPTZ(3),

    CONSTRAINT "document_reminders_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "document_reminders_entity_entityId_document_expiry_threshol_key" ON "document_reminders"("entity", "entityId", "document", "expiry", "threshold");
CREATE INDEX "document_reminders_status_id_idx" ON "document_reminders"("status", "id");

-- Documents due for a reminder are found by expiry date.
CREATE INDEX "vehicles_roadWorthyExpiryDate_idx" ON "vehicles"("roadWorthyExpiryDate");
CREATE INDEX "vehicles_insuranceExpiryDate_idx" ON "vehicles"("insuranceExpiryDate");
CREATE INDEX "drivers_licenseExpiry_idx" ON "drivers"("licenseExpiry");
