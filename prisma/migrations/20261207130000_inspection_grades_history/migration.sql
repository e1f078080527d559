-- Graded defects, re-inspection and appeal (issue 46, items 1 to 3).
--
-- The vehicle row keeps its last inspection, now with the grade of each failed item, advice on passed items, the id
-- of its row in the new inspection history, and the window of a free re-inspection. Nullable columns added without a
-- default (no table rewrite).
ALTER TABLE "vehicles"
  ADD COLUMN "inspectionGrades" JSONB,
  ADD COLUMN "inspectionAdvisories" JSONB,
  ADD COLUMN "inspectionId" CHAR(24),
  ADD COLUMN "reinspectionDueBy" TIMESTAMPTZ(3),
  ADD COLUMN "reinspectionNotBy" CHAR(24);

CREATE INDEX "vehicles_reinspectionDueBy_idx" ON "vehicles"("reinspectionDueBy");

-- An assembly's own settings; NULL is the default (14 days to fix majors, 15 days to appeal).
ALTER TABLE "assemblies" ADD COLUMN "daysToFix" INTEGER, ADD COLUMN "appealDays" INTEGER;

-- Every inspection of a vehicle, with its appeal. idempotencyKey is the key of the request that recorded it: later
-- evidence (photos) joins the inspection by it.
CREATE TABLE "vehicle_inspections" (
    "id" CHAR(24) NOT NULL,
    "vehicleId" CHAR(24) NOT NULL,
    "kind" TEXT NOT NULL,
    "reinspectionOfId" CHAR(24),
    "checklist" JSONB NOT NULL,
    "grades" JSONB NOT NULL,
    "defects" JSONB NOT NULL,
    "advisories" JSONB NOT NULL,
    "outcome" TEXT NOT NULL,
    "inspectedBy" CHAR(24) NOT NULL,
    "madeAt" TIMESTAMPTZ(3) NOT NULL,
    "receivedAt" TIMESTAMPTZ(3) NOT NULL,
    "location" JSONB,
    "reinspectionDueBy" TIMESTAMPTZ(3),
    "idempotencyKey" TEXT,
    "appealLodgedBy" CHAR(24),
    "appealLodgedAt" TIMESTAMPTZ(3),
    "appealGrounds" TEXT,
    "appealDecidedBy" CHAR(24),
    "appealDecidedAt" TIMESTAMPTZ(3),
    "appealDecision" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "vehicle_inspections_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "vehicle_inspections_vehicleId_madeAt_id_idx" ON "vehicle_inspections"("vehicleId", "madeAt" DESC, "id" DESC);
CREATE INDEX "vehicle_inspections_idempotencyKey_idx" ON "vehicle_inspections"("idempotencyKey");

ALTER TABLE "vehicle_inspections" ADD CONSTRAINT "vehicle_inspections_vehicleId_fkey" FOREIGN KEY ("vehicleId") REFERENCES "vehicles"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- Existing inspections read as they were: every failed item of a vehicle's last inspection is graded major.
UPDATE "vehicles" v
SET "inspectionGrades" = failed.grades
FROM (
  SELECT "id", jsonb_object_agg(item.key, 'major') AS grades
  FROM "vehicles", jsonb_each("inspectionChecklist") AS item
  WHERE "inspectionChecklist" IS NOT NULL AND item.value = 'false'::jsonb
  GROUP BY "id"
) failed
WHERE v."id" = failed."id";

-- Each inspected vehicle's last inspection enters the history (no re-inspection window: those were recorded before
-- windows were kept; a full inspection is due). Its id is derived from the vehicle's, so the step is repeatable.
INSERT INTO "vehicle_inspections" ("id", "vehicleId", "kind", "checklist", "grades", "defects", "advisories", "outcome",
  "inspectedBy", "madeAt", "receivedAt", "location")
SELECT substr(md5(v."id" || ':inspection'), 1, 24), v."id", 'inspection', v."inspectionChecklist",
  COALESCE(v."inspectionGrades", '{}'::jsonb), COALESCE(v."inspectionDefects", '{}'::jsonb), '{}'::jsonb,
  CASE
    WHEN v."inspectionGrades" IS NOT NULL THEN 'failed'
    WHEN jsonb_exists_all(v."inspectionChecklist",
      ARRAY['spareTire','headlights','tailLights','turnSignals','brakeLights','fireExtinguisher','emergencySignals','seatBelts','brakes','licensePlate'])
      THEN 'passed'
    ELSE 'incomplete'
  END,
  v."inspectedBy", v."dateInspected", COALESCE(v."inspectionReceivedAt", v."dateInspected"), v."inspectionLocation"
FROM "vehicles" v
WHERE v."inspected" AND v."inspectionChecklist" IS NOT NULL AND v."inspectedBy" IS NOT NULL
  AND v."dateInspected" IS NOT NULL;

UPDATE "vehicles" SET "inspectionId" = substr(md5("id" || ':inspection'), 1, 24)
WHERE "inspected" AND "inspectionChecklist" IS NOT NULL AND "inspectedBy" IS NOT NULL AND "dateInspected" IS NOT NULL;
