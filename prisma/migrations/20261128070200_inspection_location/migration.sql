-- Where a vehicle's last inspection was made, when the inspector's phone sent it (issue 43): GeoJSON, nullable. A new
-- column without a default (no table rewrite); inspections recorded before it have none.

ALTER TABLE "vehicles" ADD COLUMN "inspectionLocation" JSONB;
