-- When the service received a vehicle's last inspection, beside when it was made (dateInspected; issue 43): a phone
-- without a signal sends an inspection hours after it was made. Nullable, added without a default (no table rewrite);
-- the inspections recorded before this were received when they were recorded, so theirs is their dateInspected.

ALTER TABLE "vehicles" ADD COLUMN "inspectionReceivedAt" TIMESTAMPTZ(3);

UPDATE "vehicles" SET "inspectionReceivedAt" = "dateInspected" WHERE "dateInspected" IS NOT NULL;
