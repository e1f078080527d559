-- Defect notes on the failed items of a vehicle's last inspection, kept with the checklist they describe.
ALTER TABLE "vehicles" ADD COLUMN "inspectionDefects" JSONB;
