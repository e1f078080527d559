-- Issue 46, item 4: whether an assembly's inspections need their photos (the plate, the VIN, each dangerous or major
-- failed item). Null is the default: required.
ALTER TABLE "assemblies" ADD COLUMN "photosRequired" BOOLEAN;
